import { type ConfirmOptions, confirmOrYes } from '../output/prompt.js';
import { io } from '../output/io.js';

/**
 * The one flow of the commands that delete, cancel, close or reset: ask (on a terminal; `--yes` otherwise, else a
 * usage error), then either say that nothing was done or make the change. The question may need a request to say
 * what is at stake (`message` as a function): it is made only when someone is asked.
 */
export interface ConfirmThenAct<T, D> extends ConfirmOptions {
  /** What stderr says when the answer is no: "Nothing deleted." */
  nothingDone: string;
  /** The command's result when the answer is no (called after the question, so it may use what it looked up). */
  declined: () => D;
  /** The change, once confirmed. */
  act: () => Promise<T>;
}

export async function confirmThenAct<T, D>(opts: ConfirmThenAct<T, D>): Promise<T | D> {
  if (!(await confirmOrYes(opts))) {
    io().stderr.write(`${opts.nothingDone}\n`);
    return opts.declined();
  }
  return opts.act();
}

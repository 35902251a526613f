import { UsageError } from '../errors.js';
import { canPrompt, io } from './io.js';

export interface ConfirmOptions {
  /**
   * The question asked on a TTY; a function when saying what is at stake needs a request (the name of what a
   * delete removes): it is called only when someone is asked, never with --yes or without a terminal.
   */
  message: string | (() => Promise<string>);
  /** `--yes` was given. */
  yes: boolean;
  /** Whether a person can answer (default: stdin and stderr are terminals). */
  interactive?: boolean;
  /** The flag that skips the question, named when there is nobody to ask. */
  flag?: string;
  /** What is being confirmed, for the non-interactive error: "Cancelling an order". */
  action?: string;
}

/**
 * Destructive commands ask on a TTY and need `--yes` otherwise (docs/decisions.md "Output"). Returns false when the
 * person answered no. The prompt library is loaded only when a question is actually asked.
 */
export async function confirmOrYes(opts: ConfirmOptions): Promise<boolean> {
  if (opts.yes) return true;
  const interactive = opts.interactive ?? canPrompt();
  const flag = opts.flag ?? '--yes';
  if (!interactive) {
    throw new UsageError(`${opts.action ?? 'This change'} needs confirmation: pass ${flag} when not running in a terminal.`);
  }
  const { confirm } = await import('@inquirer/prompts');
  // The question goes to stderr so that stdout keeps only the command's result (e.g. with --json).
  const message = typeof opts.message === 'string' ? opts.message : await opts.message();
  return confirm({ message, default: false }, { input: io().stdin, output: io().stderr });
}

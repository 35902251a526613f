import type { Hook } from '@oclif/core';
import { asksForJson, writeError } from '../base-command.js';
import { canPrompt, io } from '../output/io.js';

/**
 * What oclif does with a command line that names no command (replaces @oclif/plugin-not-found, which ran its
 * guess on a bare Enter and could not tell a typo from a stray argument):
 * - words after a real command ("store orders list open") are an unexpected argument: exit 2, like any usage error;
 * - a typo on a terminal: the closest command is offered and run only after a yes (the default is no);
 * - a typo without a terminal (scripts, cron): "did you mean …" on stderr, exit 127, nothing run.
 */
const hook: Hook<'command_not_found'> = async function (opts) {
  const { config } = opts;
  const argv = opts.argv ?? [];
  const json = asksForJson(argv);
  const words = opts.id.split(':');
  const fail = (message: string, exitCode: number): never => {
    writeError({ message, exitCode }, json);
    this.exit(exitCode);
    throw new Error('unreachable: exit() throws');
  };

  for (let n = words.length - 1; n >= 1; n--) {
    const command = words.slice(0, n).join(':');
    if (config.findCommand(command)) {
      const extra = words.slice(n);
      const name = `${config.bin} ${words.slice(0, n).join(' ')}`;
      fail(`Unexpected argument${extra.length === 1 ? '' : 's'} ${extra.join(' ')} (see \`${name} --help\`).`, 2);
    }
  }

  const hidden = new Set(config.commands.filter((c) => c.hidden).map((c) => c.id));
  const ids = config.commandIDs.filter((id) => !hidden.has(id));
  const suggestion = closest(opts.id, ids);
  const typed = words.join(' ');
  const topic = config.findTopic(words[0]!) ? ` ${words[0]}` : '';
  const offered = suggestion ? suggestion.replaceAll(':', ' ') : undefined;

  if (offered && canPrompt() && !json) {
    io().stderr.write(`${typed} is not a ${config.bin} command.\n`);
    const { confirm } = await import('@inquirer/prompts');
    const yes = await confirm({ message: `Did you mean ${config.bin} ${offered}?`, default: false }, { input: io().stdin, output: io().stderr }).catch(() => false);
    if (yes) return config.runCommand(suggestion!, argv);
    return fail(`Run \`${config.bin} help${topic}\` for a list of commands.`, 127);
  }
  const guess = offered ? `did you mean \`${config.bin} ${offered}\`? ` : '';
  return fail(`${typed} is not a ${config.bin} command; ${guess}(\`${config.bin} help${topic}\` lists the commands).`, 127);
};

export default hook;

/** The command id nearest to `typed` by edit distance, or undefined when nothing is near (less than half alike). */
export function closest(typed: string, ids: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const id of ids) {
    const d = editDistance(typed, id);
    if (d < bestDistance) {
      best = id;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(typed.length / 2)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

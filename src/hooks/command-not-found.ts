import type { Hook } from '@oclif/core';
import { asksForJson, writeError } from '../cli/error-output.js';
import { closest } from '../util/suggest.js';

/**
 * What oclif does with a command line that names no command (replaces @oclif/plugin-not-found, which ran its
 * guess on a bare Enter and could not tell a typo from a stray argument):
 * - words after a real command ("store orders list open") are an unexpected argument: exit 2, like any usage error;
 * - a typo: "did you mean …" (the closest command or topic) on stderr and exit 127, on a terminal too. Like
 *   `gh`, nothing is asked and nothing is run: a prompt would block a script that happens to run on a terminal,
 *   and the fixed command is one arrow-up away.
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
  const known = [...config.commandIDs.filter((id) => !hidden.has(id)), ...config.topics.filter((t) => !t.hidden).map((t) => t.name)];
  const suggestion = closest(opts.id, known);
  const typed = words.join(' ');
  const topic = config.findTopic(words[0]!) ? ` ${words[0]}` : '';
  const guess = suggestion ? `did you mean \`${config.bin} ${suggestion.replaceAll(':', ' ')}\`? ` : '';
  return fail(`${typed} is not a ${config.bin} command; ${guess}(\`${config.bin} help${topic}\` lists the commands).`, 127);
};

export default hook;

import { spawn, spawnSync } from 'node:child_process';
import { BIN, recordTranscript } from './run-cli.js';

/** util-linux `script` gives the CLI a pseudo-terminal; tests of the interactive paths skip without it. */
export const hasScript = spawnSync('script', ['--version']).status === 0;

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** What a terminal showed, as plain text: colours and cursor moves removed, CRLF line endings made LF. */
export function plainText(output: string): string {
  return output.replace(ANSI, '').replaceAll('\r', '');
}

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script -e`, which exits with the CLI's code), answering each
 * prompt when its text appears, so the interactive paths run exactly as a person at a terminal would drive
 * them. `output` is everything the terminal showed (stdout and stderr together, with the terminal's line
 * endings); `plainText` strips it. Recorded for the suite-wide secrets check like every `runCli` run.
 */
export function runOnTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  answers: { when: string | RegExp; send: string }[] = [],
  terminal: { columns?: number } = {},
): Promise<{ code: number | null; output: string }> {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  // A terminal of that width, as a window would be: the CLI reads it from the pty (COLUMNS is not set).
  const size = terminal.columns ? `stty cols ${terminal.columns} rows 50 && ` : '';
  const command = size + [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1', ...env } });
    let output = '';
    let searchFrom = 0;
    const pending = [...answers];
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    // Decoded across chunks: a character split between two reads (the ellipsis of a cut cell) stays one character.
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      // Each answer is sent once, after its prompt has been drawn since the previous answer.
      while (pending.length > 0 && shown(plainText(output.slice(searchFrom)), pending[0]!.when)) {
        searchFrom = output.length;
        child.stdin.write(pending.shift()!.send);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      recordTranscript(args, env, { code, stdout: output, stderr: '' }, false);
      resolve({ code, output });
    });
  });
}

function shown(text: string, prompt: string | RegExp): boolean {
  return typeof prompt === 'string' ? text.includes(prompt) : prompt.test(text);
}

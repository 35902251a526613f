import { spawn, spawnSync } from 'node:child_process';
import { BIN } from './run-cli.js';

/** util-linux `script` gives the CLI a pseudo-terminal; tests of the interactive paths skip without it. */
export const hasScript = spawnSync('script', ['--version']).status === 0;

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), answering each prompt when its text appears, so
 * the interactive paths run exactly as a person at a terminal would drive them. `output` is everything the
 * terminal showed (stdout and stderr together, with the terminal's line endings).
 */
export function runOnTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  answers: { when: string; send: string }[] = [],
): Promise<{ code: number | null; output: string }> {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1', ...env } });
    let output = '';
    let searchFrom = 0;
    const pending = [...answers];
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      // Each answer is sent once, after its prompt has been drawn since the previous answer.
      while (pending.length > 0 && output.indexOf(pending[0]!.when, searchFrom) >= 0) {
        searchFrom = output.length;
        child.stdin.write(pending.shift()!.send);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

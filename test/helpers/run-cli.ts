import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `store` binary (bin/run.js on the built dist/) as a child process, the way a user or cron does.
 * Every run is appended to `cliTranscript` so the secrets test can check that no token ever reached the output.
 */
export const cliTranscript: CliResult[] = [];

export function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string; nodeArgs?: string[]; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
      cwd: opts.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr };
      cliTranscript.push(result);
      resolve(result);
    });
    child.stdin.end(opts.input ?? '');
  });
}

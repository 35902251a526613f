import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What the suite-wide secrets check (test/global-setup.ts) reads of every CLI run. */
export interface Transcript {
  args: string[];
  stdout: string;
  stderr: string;
  /** Tokens and client secrets the run was given (environment, or registered by the test). */
  secrets: string[];
  /** `store auth token` prints the token: that is its job. */
  mayPrintSecrets: boolean;
}

/** Every run of this test file, in order (for checks within one file). */
export const cliTranscript: CliResult[] = [];

const SECRET_VARIABLES = ['STORE_TOKEN', 'STORE_CLIENT_SECRET'];
const registeredSecrets = new Set<string>();

/** A token or secret the test obtained some other way (e.g. a login), to be checked like the environment's. */
export function registerSecret(value: string): void {
  registeredSecrets.add(value);
}

export function recordTranscript(args: string[], env: NodeJS.ProcessEnv | undefined, result: CliResult, echoes: boolean): void {
  const dir = process.env.STORE_TEST_TRANSCRIPTS;
  if (!dir) return;
  // Short values ("wrong", "x") are test inputs, not credentials, and would match by accident.
  const secrets = [...SECRET_VARIABLES.map((name) => env?.[name]), ...registeredSecrets].filter(
    (v): v is string => typeof v === 'string' && v.length >= 16,
  );
  const transcript: Transcript = {
    args,
    stdout: result.stdout,
    stderr: result.stderr,
    secrets,
    mayPrintSecrets: echoes || (args[0] === 'auth' && args[1] === 'token'),
  };
  appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(transcript)}\n`);
}

/**
 * Runs the real `store` binary (bin/run.js on the built dist/) as a child process, the way a user or cron does.
 * `serverEchoesSecrets`: the run talks to a test route that echoes the request headers back, so the token in
 * its output comes from the server, not from the CLI.
 */
export function runCli(
  args: string[],
  opts: {
    env?: NodeJS.ProcessEnv;
    input?: string;
    nodeArgs?: string[];
    cwd?: string;
    timeoutMs?: number;
    serverEchoesSecrets?: boolean;
    /** Called with everything printed on stdout so far, each time more arrives (to act while it runs). */
    onStdout?: (stdoutSoFar: string) => void;
    /** The same for stderr. */
    onStderr?: (stderrSoFar: string) => void;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
      cwd: opts.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Decoded across chunks: a UTF-8 character split between two reads stays one character.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      stdout += d;
      opts.onStdout?.(stdout);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      opts.onStderr?.(stderr);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr };
      cliTranscript.push(result);
      recordTranscript(args, opts.env, result, opts.serverEchoesSecrets ?? false);
      resolve(result);
    });
    child.stdin.end(opts.input ?? '');
  });
}

import { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import type * as BaseCommandModule from '../../src/cli/base-command.js';
import type * as ReadModule from '../../src/api/read.js';
import type * as CredentialsModule from '../../src/auth/credentials.js';
import type * as SchedulerModule from '../../src/client/scheduler.js';
import type * as IOModule from '../../src/output/io.js';
import type * as SecretsModule from '../../src/output/secrets.js';
import { type CliResult, cliTranscript, recordTranscript } from './run-cli.js';

/**
 * Runs a `store` command through oclif inside the test's own process, with its own streams (like gh's
 * `iostreams.Test()`): the same built dist/ as the binary, without a Node and oclif start-up per run (about
 * 0.5–1.5 s each). It answers like `runCli`: the exit code the binary would end with, stdout and stderr.
 *
 * What a new process would start without is reset before each run: the environment (the test's own plus
 * `opts.env`, as `runCli` passes it), the known secrets, the store's display language, the rate scheduler's
 * buckets (a clock of its own: schedulers are per clock). Runs take turns: the environment, the console and
 * the working directory are the process's. What needs a process of its own stays on `runCli`: start-up,
 * signals, a real terminal, processes running at once (a lock, a shared bucket), `--version` (answered by
 * bin/run.js before oclif), Node options.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * dist/ is loaded natively (vitest.config.ts externalizes it), so these are the very modules oclif loads for
 * the commands: setting BaseCommand's factory here is seen by them.
 */
async function loadCli() {
  const dist = (path: string) => new URL(`../../dist/${path}`, import.meta.url).href;
  const [oclif, handle, base, io, secrets, read, scheduler, credentials] = await Promise.all([
    import('@oclif/core'),
    import('@oclif/core/handle'),
    import(/* @vite-ignore */ dist('cli/base-command.js')) as Promise<typeof BaseCommandModule>,
    import(/* @vite-ignore */ dist('output/io.js')) as Promise<typeof IOModule>,
    import(/* @vite-ignore */ dist('output/secrets.js')) as Promise<typeof SecretsModule>,
    import(/* @vite-ignore */ dist('api/read.js')) as Promise<typeof ReadModule>,
    import(/* @vite-ignore */ dist('client/scheduler.js')) as Promise<typeof SchedulerModule>,
    import(/* @vite-ignore */ dist('auth/credentials.js')) as Promise<typeof CredentialsModule>,
  ]);
  return { oclif, Exit: handle.Exit, handle: handle.handle, base, io, secrets, read, scheduler, credentials };
}

let cli: ReturnType<typeof loadCli> | undefined;
/** The run in progress: the next waits for it. */
let turn: Promise<unknown> = Promise.resolve();

export interface InProcessOptions {
  env?: NodeJS.ProcessEnv;
  /** Standard input (a pipe that ends after it, as `runCli` gives). */
  input?: string;
  /** Working directory of the run. */
  cwd?: string;
  /** Which streams look like a terminal (default: none, as under `runCli`). */
  isTTY?: { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  /** The terminal's width (COLUMNS in `env` still wins, as in the binary). */
  columns?: number;
  /** Colour on or off whatever the environment says (default: NO_COLOR, FORCE_COLOR, TERM and the TTY decide). */
  color?: boolean;
  serverEchoesSecrets?: boolean;
  /** Called with everything printed on stdout so far, each time more arrives (to act while it runs). */
  onStdout?: (stdoutSoFar: string) => void;
  /** The same for stderr. */
  onStderr?: (stderrSoFar: string) => void;
}

export function runInProcess(args: string[], opts: InProcessOptions = {}): Promise<CliResult> {
  const run = turn.then(() => runOnce(args, opts));
  turn = run.catch(() => undefined);
  return run;
}

/** A stream that keeps what is written to it; like a process's stdout, it cannot be ended (a pipe into it leaves it open). */
class Capture extends Writable {
  text = '';
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly onText: ((soFar: string) => void) | undefined,
    readonly isTTY: boolean,
    readonly columns: number | undefined,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    this.onText?.(this.text);
    done();
  }

  override end(...args: unknown[]): this {
    const [chunk] = args;
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) this.write(chunk);
    const callback = args.find((a) => typeof a === 'function') as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return this;
  }
}

async function runOnce(args: string[], opts: InProcessOptions): Promise<CliResult> {
  const { oclif, Exit, handle, base, io, secrets, read, scheduler, credentials } = await (cli ??= loadCli());
  const stdout = new Capture(opts.onStdout, opts.isTTY?.stdout ?? false, opts.columns);
  const stderr = new Capture(opts.onStderr, opts.isTTY?.stderr ?? false, opts.columns);
  const stdin = Object.assign(Readable.from(opts.input ? [Buffer.from(opts.input)] : []), { isTTY: opts.isTTY?.stdin ?? false });
  const streams: IOModule.IOStreams = { stdin, stdout, stderr, color: opts.color };

  const restoreEnv = useEnvironment({ NO_COLOR: '1', ...opts.env });
  const cwd = process.cwd();
  if (opts.cwd) process.chdir(opts.cwd);
  // oclif prints help, its own errors and warnings with console.log / console.error.
  const consoleMethods = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
  console.log = console.info = console.debug = (...data: unknown[]) => void stdout.write(`${format(...data)}\n`);
  console.warn = console.error = (...data: unknown[]) => void stderr.write(`${format(...data)}\n`);
  const exit = Exit.exit;
  const exitCodeBefore = process.exitCode;
  process.exitCode = undefined;
  let code: number | undefined;
  // oclif's error handler ends the process through Exit.exit: here it only records the code.
  Exit.exit = ((c = 0) => {
    code = c;
  }) as typeof Exit.exit;
  secrets.forgetSecrets();
  read.setDisplayLanguage(undefined);
  io.useIO(streams);
  base.BaseCommand.factory = { ...base.processFactory, clock: { ...scheduler.keepAliveClock } };
  try {
    // A new oclif Config each run (about 2 ms from the manifest), as each process has: one reused across runs
    // is reloaded by oclif from the first, which stops finding commands after a `--help` run.
    await oclif.run(args, ROOT);
  } catch (error) {
    await handle(error as Error);
  } finally {
    base.BaseCommand.factory = base.processFactory;
    io.useIO(io.processIO);
    delete (globalThis as Record<symbol, unknown>)[credentials.EXIT_WHEN_DONE];
    const exitCode = process.exitCode;
    process.exitCode = exitCodeBefore;
    Exit.exit = exit;
    Object.assign(console, consoleMethods);
    if (opts.cwd) process.chdir(cwd);
    restoreEnv();
    code ??= typeof exitCode === 'number' ? exitCode : Number(exitCode ?? 0);
  }
  const result = { code, stdout: stdout.text, stderr: stderr.text };
  cliTranscript.push(result);
  recordTranscript(args, opts.env, result, opts.serverEchoesSecrets ?? false);
  return result;
}

/** Sets the variables a child process would get (undefined: unset), and returns how to put the process's back. */
function useEnvironment(env: NodeJS.ProcessEnv): () => void {
  const before = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return () => {
    for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
    Object.assign(process.env, before);
  };
}

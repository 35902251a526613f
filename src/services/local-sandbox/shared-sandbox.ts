import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { xdgDir } from '../../util/files.js';
import { claimPidFile } from '../../util/pid-file.js';
import { pidAlive } from '../../util/process.js';
import { withoutTrailingSlash } from '../../util/url.js';

/**
 * The shared local sandbox (docs/sandbox.md "The shared sandbox"): one detached `store sandbox serve` per user, found through
 * `$XDG_STATE_HOME/store/sandbox.json`, started on demand by the first command that needs it.
 *
 * Concurrent callers serialise on a lock file created exclusively (`sandbox.lock`, holding the owner's pid, so a
 * lock left by a killed process is taken over). The server writes its one JSON line to a ready file rather than
 * a pipe, and runs with its stdio detached from the caller, so it never holds a caller's pipe open (a
 * `store … | head` must not hang). Its state lives in `$XDG_DATA_HOME/store/sandbox`: the demo seed only fills an
 * empty state, so a restarted server reloads the same data and the same token.
 *
 * Only node built-ins at the top level: this module is loaded by every command of the sandbox profile.
 */

export interface SandboxInfo {
  api_url: string;
  auth_url: string;
  store_id: number;
  app_name: string;
  client_id: string;
  client_secret: string;
  access_token: string;
  pid: number;
}

export interface SharedOptions {
  env?: NodeJS.ProcessEnv;
  /** How long to wait for the lock and for a new server to be ready. Default 30 s. */
  timeoutMs?: number;
}

export interface SharedPaths {
  /** `$XDG_STATE_HOME/store` */
  stateHome: string;
  infoFile: string;
  lockFile: string;
  /** The server's stderr, kept for diagnosing a start that failed. */
  logFile: string;
  /** `$XDG_DATA_HOME/store/sandbox`: journal and snapshot. */
  dataDir: string;
}

export class SharedSandboxError extends Error {
  override name = 'SharedSandboxError';
}

const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url));
const IDLE_TIMEOUT_SECONDS = 1800;
const HEALTH_TIMEOUT_MS = 2_000;
const POLL_MS = 50;

/** `$XDG_DATA_HOME/store/sandbox` (fallback `~/.local/share/store/sandbox`): the default state dir of `serve`. */
export function defaultSandboxDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(xdgDir('data', env), 'sandbox');
}

function sharedPaths(env: NodeJS.ProcessEnv = process.env): SharedPaths {
  const stateHome = xdgDir('state', env);
  return {
    stateHome,
    infoFile: path.join(stateHome, 'sandbox.json'),
    lockFile: path.join(stateHome, 'sandbox.lock'),
    logFile: path.join(stateHome, 'sandbox.log'),
    dataDir: defaultSandboxDataDir(env),
  };
}

function readInfo(file: string): SandboxInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as SandboxInfo;
    return typeof info.api_url === 'string' && typeof info.access_token === 'string' ? info : undefined;
  } catch {
    return undefined;
  }
}

/** True when the server of `info` answers an authenticated request (a 429 counts: it is alive, just busy). */
async function sandboxAnswers(info: SandboxInfo, timeoutMs = HEALTH_TIMEOUT_MS): Promise<boolean> {
  try {
    const res = await fetch(`${withoutTrailingSlash(info.api_url)}/v1/${info.store_id}/store`, {
      headers: {
        authentication: `bearer ${info.access_token}`,
        'user-agent': `${info.app_name} (${info.client_id})`,
        accept: 'application/json',
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer();
    return res.ok || res.status === 429;
  } catch {
    return false;
  }
}

/**
 * Returns the running shared sandbox, starting it when none answers. Safe to call from many processes at once:
 * exactly one of them starts the server, the others wait for the lock and reuse it.
 */
export async function ensureSharedSandbox(opts: SharedOptions = {}): Promise<SandboxInfo> {
  const env = opts.env ?? process.env;
  const paths = sharedPaths(env);
  const current = readInfo(paths.infoFile);
  if (current && (await sandboxAnswers(current))) return current;

  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  const release = await acquireLock(paths, deadline, async () => {
    // While waiting, another process may have started it.
    const info = readInfo(paths.infoFile);
    return info && (await sandboxAnswers(info)) ? info : undefined;
  });
  if (!('release' in release)) return release.info;
  try {
    const info = readInfo(paths.infoFile);
    if (info && (await sandboxAnswers(info))) return info;
    if (info) await stopProcess(info.pid);
    return await startShared(paths, env, deadline);
  } finally {
    release.release();
  }
}

/** Stops the shared sandbox (SIGTERM, then SIGKILL if it lingers) and forgets it. */
export async function stopSharedSandbox(opts: SharedOptions = {}): Promise<{ stopped: boolean; info?: SandboxInfo }> {
  const paths = sharedPaths(opts.env ?? process.env);
  const info = readInfo(paths.infoFile);
  const stopped = info ? await stopProcess(info.pid) : false;
  fs.rmSync(paths.infoFile, { force: true });
  return { stopped, info };
}

export interface SharedStatus {
  running: boolean;
  info?: SandboxInfo;
  paths: SharedPaths;
}

export async function sharedSandboxStatus(opts: SharedOptions = {}): Promise<SharedStatus> {
  const paths = sharedPaths(opts.env ?? process.env);
  const info = readInfo(paths.infoFile);
  return { running: info ? await sandboxAnswers(info) : false, info, paths };
}

/**
 * Restores the demo data of the shared sandbox and keeps its app and token: stops the server, has `resetState`
 * reset the store in its state dir (the sandbox's own offline reset, journaled like any change), and starts it
 * again, all under the lock, so that no other command starts the server in between.
 */
export async function resetSharedSandbox(opts: SharedOptions & { resetState: (dataDir: string) => Promise<void> }): Promise<SandboxInfo> {
  const env = opts.env ?? process.env;
  const paths = sharedPaths(env);
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  const lock = await acquireLock(paths, deadline, async () => undefined);
  if (!('release' in lock)) throw new SharedSandboxError('Could not take the sandbox lock.');
  try {
    const info = readInfo(paths.infoFile);
    if (info) await stopProcess(info.pid);
    fs.rmSync(paths.infoFile, { force: true });
    await opts.resetState(paths.dataDir);
    // The same port as before, so the profile's URL and README's examples keep working; a free one if it was taken meanwhile.
    const port = info ? Number(new URL(info.api_url).port) || 0 : 0;
    if (port) {
      const again = await startShared(paths, env, deadline, port).catch(() => undefined);
      if (again) return again;
    }
    return await startShared(paths, env, deadline);
  } finally {
    lock.release();
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

type LockResult = { release: () => void } | { info: SandboxInfo };

/**
 * Takes `sandbox.lock` (a pid file: util/pid-file.ts), waiting while a live process holds it. While waiting,
 * `check` may find that the owner finished the job, which ends the wait.
 */
async function acquireLock(paths: SharedPaths, deadline: number, check: () => Promise<SandboxInfo | undefined>): Promise<LockResult> {
  fs.mkdirSync(paths.stateHome, { recursive: true, mode: 0o700 });
  for (;;) {
    const claim = claimPidFile(paths.lockFile);
    if ('release' in claim) return claim;
    const info = await check();
    if (info) return { info };
    if (Date.now() > deadline) {
      throw new SharedSandboxError(`Timed out waiting for the sandbox lock ${paths.lockFile} (held by process ${claim.holder || 'unknown'}).`);
    }
    await sleep(POLL_MS * 2);
  }
}

async function startShared(paths: SharedPaths, env: NodeJS.ProcessEnv, deadline: number, port = 0): Promise<SandboxInfo> {
  fs.mkdirSync(paths.stateHome, { recursive: true, mode: 0o700 });
  const readyFile = path.join(paths.stateHome, `sandbox.ready.${randomBytes(6).toString('hex')}.json`);
  const log = fs.openSync(paths.logFile, 'a', 0o600);
  let exited: string | undefined;
  try {
    const child = spawn(
      process.execPath,
      [
        BIN,
        'sandbox',
        'serve',
        '--seed',
        'demo',
        '--plan',
        'enterprise',
        '--json',
        '--idle-timeout',
        String(IDLE_TIMEOUT_SECONDS),
        '--state',
        paths.dataDir,
        '--ready-file',
        readyFile,
        ...(port ? ['--port', String(port)] : []),
      ],
      { detached: true, stdio: ['ignore', 'ignore', log], env: { ...env, NO_COLOR: '1' } },
    );
    child.on('exit', (code, signal) => (exited = signal ? `signal ${signal}` : `exit code ${code}`));
    child.on('error', (error) => (exited = error.message));
    child.unref();
    for (;;) {
      const info = readInfo(readyFile);
      if (info) {
        await writeFileAtomic(paths.infoFile, `${JSON.stringify(info)}\n`);
        return info;
      }
      if (exited !== undefined) {
        const tail = readText(paths.logFile).trim().split('\n').slice(-3).join(' ');
        throw new SharedSandboxError(`The sandbox server stopped at start (${exited})${tail ? `: ${tail}` : ''}.`);
      }
      if (Date.now() > deadline) {
        if (child.pid) await stopProcess(child.pid);
        throw new SharedSandboxError(`The sandbox server did not start in time; see ${paths.logFile}.`);
      }
      await sleep(POLL_MS);
    }
  } finally {
    fs.closeSync(log);
    fs.rmSync(readyFile, { force: true });
  }
}

/**
 * True unless the pid is known to run something else: a recorded pid may have been reused by an unrelated
 * process after the server died, and that one must not be signalled. (Where /proc is missing, trust the record.)
 */
function isSandboxServer(pid: number): boolean {
  const cmdline = readText(`/proc/${pid}/cmdline`);
  if (cmdline === '') return !fs.existsSync('/proc/self/cmdline');
  const args = cmdline.split('\0');
  return args.includes('sandbox') && args.includes('serve');
}

/** SIGTERM, wait up to 10 s, then SIGKILL. Resolves true when a live sandbox server was stopped. */
async function stopProcess(pid: number): Promise<boolean> {
  if (!pidAlive(pid) || pid === process.pid || !isSandboxServer(pid)) return false;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return false;
  }
  const until = Date.now() + 10_000;
  while (pidAlive(pid)) {
    if (Date.now() > until) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone in the meantime
      }
      await sleep(POLL_MS);
      break;
    }
    await sleep(POLL_MS);
  }
  return true;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

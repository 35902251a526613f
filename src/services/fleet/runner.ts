import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIGNAL_EXIT_CODES } from '../../util/process.js';
import type { FleetMember } from './members.js';
import type { StoreResult } from './results.js';

/**
 * The environment a store's run reads to know it is one store of a fleet (docs/fleet.md): the profile, and the
 * file it leaves its result in. The child adds the STORE column to its tables and counts what it printed.
 */
export const FLEET_MEMBER_VARIABLE = 'STORE_FLEET_MEMBER';
export const FLEET_RESULT_VARIABLE = 'STORE_FLEET_RESULT';

/** How one store's run is started: the same program, its own arguments and environment. */
export interface MemberCommand {
  /** node's arguments: the script and the command line. */
  argv: string[];
  env: NodeJS.ProcessEnv;
  /** Its standard output into this file (`--output-dir`) instead of to `onLine`. */
  stdoutFile?: string;
}

export interface FleetRunOptions {
  /** The fleet as lanes (`lanesOf`): one lane's stores one after another, lanes side by side. */
  lanes: FleetMember[][];
  /** How many stores run at once. */
  concurrency: number;
  command(member: FleetMember): MemberCommand;
  onStart?(member: FleetMember): void;
  /** A whole line of a store's output (its end of line removed). */
  onLine(member: FleetMember, stream: 'stdout' | 'stderr', line: string): void;
  onDone?(member: FleetMember, result: StoreResult): void;
  /** Aborted: every running store is sent SIGTERM (it stops after the requests in flight, its journal kept). */
  signal?: AbortSignal;
}

/**
 * Runs every store of the fleet as its own process of this program: its own client and rate bucket, lock,
 * journal, ledger run and report, and a crash that stays its own. Never throws for a store's failure: each
 * store's outcome is its result, in the order of the fleet.
 */
export async function runFleet(options: FleetRunOptions): Promise<StoreResult[]> {
  const work = await mkdtemp(join(tmpdir(), 'store-fleet-'));
  const results = new Map<FleetMember, StoreResult>();
  const queue = [...options.lanes];
  const running = new Set<Promise<void>>();
  const runLane = async (lane: FleetMember[]) => {
    for (const member of lane) {
      if (options.signal?.aborted) {
        results.set(member, notRun(member, 'not started: the fleet run was stopped'));
        continue;
      }
      options.onStart?.(member);
      const result = await runMember(member, options, join(work, `${member.profile}.json`));
      results.set(member, result);
      options.onDone?.(member, result);
    }
  };
  try {
    while (queue.length > 0 || running.size > 0) {
      while (queue.length > 0 && running.size < Math.max(1, options.concurrency)) {
        const task: Promise<void> = runLane(queue.shift()!).finally(() => running.delete(task));
        running.add(task);
      }
      if (running.size > 0) await Promise.race(running);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return options.lanes.flat().map((m) => results.get(m) ?? notRun(m, 'not started'));
}

function notRun(member: FleetMember, why: string): StoreResult {
  return { ...emptyResult(member), exit_code: SIGNAL_EXIT_CODES.SIGTERM, error: why };
}

function emptyResult(member: FleetMember): StoreResult {
  return { store: member.profile, store_id: member.storeId, api_host: member.apiHost, exit_code: 0, rows: 0, writes: 0, failures: 0, requests: 0, rate_limited: 0, seconds: 0 };
}

async function runMember(member: FleetMember, options: FleetRunOptions, resultFile: string): Promise<StoreResult> {
  const started = Date.now();
  const { argv, env, stdoutFile } = options.command(member);
  const child = spawn(process.execPath, argv, {
    env: { ...env, [FLEET_MEMBER_VARIABLE]: member.profile, [FLEET_RESULT_VARIABLE]: resultFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const onAbort = () => child.kill('SIGTERM');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const written: Promise<void>[] = [];
  if (stdoutFile) {
    const file = createWriteStream(stdoutFile);
    child.stdout.pipe(file);
    written.push(new Promise((resolve, reject) => file.on('close', resolve).on('error', reject)));
  } else written.push(lines(child.stdout, (line) => options.onLine(member, 'stdout', line)));
  written.push(lines(child.stderr, (line) => options.onLine(member, 'stderr', line)));
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  options.signal?.removeEventListener('abort', onAbort);
  let outputError: string | undefined;
  await Promise.all(written).catch((error: Error) => {
    outputError = `its output could not be written (${error.message})`;
  });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const reported = await readFile(resultFile, 'utf8').then((text) => JSON.parse(text) as Partial<StoreResult>).catch(() => undefined);
  const base = { ...emptyResult(member), ...reported, store: member.profile, store_id: member.storeId, api_host: member.apiHost, seconds };
  if (ended.error) return { ...base, exit_code: 1, error: `could not start: ${ended.error.message}` };
  const exitCode = ended.code ?? (ended.signal ? (SIGNAL_EXIT_CODES as Record<string, number>)[ended.signal] ?? 128 + 9 : 1);
  if (!reported) return { ...base, exit_code: exitCode || 1, error: `ended without a result (${ended.signal ? `killed by ${ended.signal}` : `exit ${ended.code}`})` };
  if (outputError) return { ...base, exit_code: Math.max(exitCode, 1), error: outputError };
  return { ...base, exit_code: exitCode };
}

/** Calls `onLine` with each whole line of `stream`, the last one too when it has no end of line. */
function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      for (const part of parts) onLine(part.replace(/\r$/, ''));
    });
    stream.on('end', () => {
      if (rest !== '') onLine(rest);
      resolve();
    });
    stream.on('error', reject);
  });
}

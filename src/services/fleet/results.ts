import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic-file.js';

/** What one store's run ended with: a line of the fleet summary, and the file `--results-dir` writes for it. */
export interface StoreResult {
  /** The profile. */
  store: string;
  store_id: string;
  api_host: string;
  exit_code: number;
  /** The sentence the store's run ended with, when it failed. */
  error?: string;
  /** Records printed, or rows of the file a bulk command read. */
  rows: number;
  /** Requests that wrote (retries included). */
  writes: number;
  /** Rows of a bulk file that failed. */
  failures: number;
  requests: number;
  rate_limited: number;
  seconds: number;
  /** The shard that ran it (`--shard`), as "i/N". */
  shard?: string;
}

/**
 * Which exit code is worse, from best to worst (docs/fleet.md): success, some rows failed, stopped by a brake
 * before writing, failed, the token refused (a person must log in again), the command itself wrong, terminated,
 * interrupted. Any other code ranks with 1.
 */
export const EXIT_ORDER = [0, 3, 5, 1, 4, 2, 143, 130] as const;

function rank(code: number): number {
  const i = (EXIT_ORDER as readonly number[]).indexOf(code);
  return i === -1 ? EXIT_ORDER.indexOf(1) : i;
}

/** The fleet's exit code: the worst of its stores' (0 for none). */
export function worstExitCode(codes: readonly number[]): number {
  return codes.reduce((worst, code) => (rank(code) > rank(worst) ? code : worst), 0);
}

/** A result file's name: the profile, which is a safe file name (auth/config.ts checks profile names). */
function resultFile(dir: string, profile: string): string {
  return join(dir, `${profile}.json`);
}

/** The file a sharded run leaves beside its stores' results, so a merge can tell a missing shard. */
export interface ShardManifest {
  shard: string;
  /** Every store of the whole fleet (all shards) and the stores this shard ran. */
  fleet_size: number;
  stores: string[];
}

export async function writeResult(dir: string, result: StoreResult): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(resultFile(dir, result.store), `${JSON.stringify(result, null, 2)}\n`);
}

export async function writeShardManifest(dir: string, manifest: ShardManifest): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(join(dir, `shard-${manifest.shard.replace('/', '-of-')}.manifest`), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** What `store fleet merge DIR` reads: every store's result, and what the shards' manifests say is missing. */
export interface MergedResults {
  results: StoreResult[];
  /** Sentences about what is missing or doubled: a shard without its manifest, a store without its result. */
  problems: string[];
  exitCode: number;
}

/**
 * The results of a fleet run, from one directory (every shard's `--results-dir`, copied together): sorted by
 * store; a store counted once. A shard whose manifest is missing, or a store its manifest lists without a result,
 * is a problem (exit 1 at least: the run is not known to be complete).
 */
export async function mergeResults(dir: string): Promise<MergedResults> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (error) {
    throw new UsageError(`${dir}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  const results: StoreResult[] = [];
  const manifests: ShardManifest[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') && !name.endsWith('.manifest')) continue;
    let value: unknown;
    try {
      value = JSON.parse(await readFile(join(dir, name), 'utf8'));
    } catch (error) {
      throw new UsageError(`${join(dir, name)}: not a result file (${(error as Error).message}).`);
    }
    if (name.endsWith('.manifest')) manifests.push(value as ShardManifest);
    else if (isResult(value)) results.push(value);
    else throw new UsageError(`${join(dir, name)}: not a store's result (no store, store_id and exit_code).`);
  }
  if (results.length === 0 && manifests.length === 0) throw new UsageError(`${dir} holds no fleet results (*.json written by --results-dir).`);
  const problems = shardProblems(results, manifests);
  const codes = results.map((r) => r.exit_code);
  const exitCode = worstExitCode(problems.length > 0 ? [...codes, 1] : codes);
  return { results: results.sort((a, b) => a.store.localeCompare(b.store)), problems, exitCode };
}

function shardProblems(results: StoreResult[], manifests: ShardManifest[]): string[] {
  const problems: string[] = [];
  const byStore = new Map<string, StoreResult[]>();
  for (const r of results) {
    const key = `${r.store_id}@${r.api_host}`;
    byStore.set(key, [...(byStore.get(key) ?? []), r]);
  }
  for (const same of byStore.values()) {
    const shards = new Set(same.map((r) => r.shard ?? ''));
    if (shards.size > 1) problems.push(`Store ${same[0]!.store_id} ran in more than one shard (${[...shards].join(', ')}).`);
  }
  if (manifests.length === 0) return problems;
  const count = Number(manifests[0]!.shard.split('/')[1]);
  const have = new Set(manifests.map((m) => m.shard));
  for (let i = 1; i <= count; i++) if (!have.has(`${i}/${count}`)) problems.push(`Shard ${i}/${count} left no results.`);
  const done = new Set(results.map((r) => r.store));
  for (const m of manifests) for (const store of m.stores) if (!done.has(store)) problems.push(`Store ${store} (shard ${m.shard}) left no result.`);
  const fleetSize = manifests[0]!.fleet_size;
  const ran = manifests.reduce((n, m) => n + m.stores.length, 0);
  if (have.size === count && ran !== fleetSize) problems.push(`The shards ran ${ran} stores of a fleet of ${fleetSize}.`);
  return problems;
}

function isResult(value: unknown): value is StoreResult {
  const v = value as Partial<StoreResult> | null;
  return Boolean(v && typeof v.store === 'string' && typeof v.store_id === 'string' && typeof v.exit_code === 'number');
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { UsageError, unreadableFile } from '../../errors.js';
import { openAtomic } from '../../util/atomic-file.js';
import { configDir, type Env } from '../../util/files.js';

/**
 * A saved plan (`--plan-out FILE`, `store apply FILE`; docs/decisions.md "Saved plans"): the dry run's plan and
 * the store values it was computed against, one JSON object per line so a 100,000-variant plan is written and read
 * as a stream. The first line is the header, the last the seal: an HMAC-SHA256 of every line before it, keyed
 * with this user's plan key, so a plan edited by hand (or cut short) is refused. The key is
 * `$XDG_CONFIG_HOME/store/plan.key` (made at the first plan, mode 0600), or `STORE_PLAN_KEY` where plans are made
 * on one machine and applied on another.
 *
 *   {"format":"store-plan","version":1,"command":"variants sync",…}     header
 *   {"t":"…",…}                                                          the job's entries, in order
 *   {"t":"seal","entries":N,"hmac":"…"}                                  seal
 */

export const PLAN_FORMAT = 'store-plan';
export const PLAN_VERSION = 1;

export interface PlanHeader {
  format: typeof PLAN_FORMAT;
  version: number;
  /** The command that made it: `products import`, `variants sync`. */
  command: string;
  created_at: string;
  store: { store_id: string; api_host: string };
  /** The file the plan was made from. */
  source: { file: string };
  /** The job's options that shaped the plan (mode, only, zero-missing…). */
  options: Record<string, unknown>;
  /** The store's size as the plan saw it: what `store apply`'s percentage brakes are of. */
  catalog: { records: number; products?: number; stockVariants: number };
  /** The counts of the dry run (created, updated…), as it printed them. */
  counts: Record<string, number>;
}

export interface PlanEntry {
  t: string;
  [field: string]: unknown;
}

/** The key plans are sealed with. */
async function planKey(env: Env): Promise<Buffer> {
  if (env.STORE_PLAN_KEY) return Buffer.from(env.STORE_PLAN_KEY, 'utf8');
  const path = join(configDir(env), 'plan.key');
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing && existing.trim() !== '') return Buffer.from(existing.trim(), 'utf8');
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('hex');
  // 'wx': two plans made at once agree on one key (the loser reads the winner's).
  await writeFile(path, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return Buffer.from((await readFile(path, 'utf8')).trim(), 'utf8');
}

/** Writes a plan: the header, each entry, the seal; atomically (a half-written plan never stands as one). */
export async function writePlanFile(path: string, header: PlanHeader, entries: Iterable<PlanEntry>, env: Env = process.env): Promise<void> {
  const hmac = createHmac('sha256', await planKey(env));
  const file = await openAtomic(path, { mode: 0o600 });
  let count = 0;
  try {
    const put = async (line: string) => {
      hmac.update(`${line}\n`);
      if (!file.out.write(`${line}\n`)) await new Promise<void>((resolve) => file.out.once('drain', resolve));
    };
    await put(JSON.stringify(header));
    for (const entry of entries) {
      await put(JSON.stringify(entry));
      count++;
    }
    file.out.write(`${JSON.stringify({ t: 'seal', entries: count, hmac: hmac.digest('hex') })}\n`);
    await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}

export interface PlanFile {
  header: PlanHeader;
  entries: PlanEntry[];
}

/**
 * Reads a plan and checks its seal. Refused (exit 2, naming the file): not a plan, a version this CLI does not
 * know, a line that is not JSON, a missing seal (cut short), a seal that does not match (edited by hand, or made
 * with another key).
 */
export async function readPlanFile(path: string, env: Env = process.env): Promise<PlanFile> {
  const hmac = createHmac('sha256', await planKey(env));
  const stream = createReadStream(path, 'utf8');
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  await opened.catch((error: unknown) => {
    throw unreadableFile(path, error);
  });
  let header: PlanHeader | undefined;
  const entries: PlanEntry[] = [];
  let seal: { entries: number; hmac: string } | undefined;
  let lineNo = 0;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    lineNo++;
    if (seal) throw refused(path, `line ${lineNo} follows the seal`);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw refused(path, `line ${lineNo} is not JSON`);
    }
    const record = value as PlanEntry;
    if (lineNo === 1) {
      header = readHeader(path, value);
      hmac.update(`${line}\n`);
    } else if (record?.t === 'seal') seal = record as unknown as { entries: number; hmac: string };
    else {
      hmac.update(`${line}\n`);
      entries.push(record);
    }
  }
  if (!header) throw refused(path, 'it is empty');
  if (!seal) throw refused(path, 'it has no seal: cut short, or not written by `--plan-out`');
  const expected = Buffer.from(hmac.digest('hex'), 'utf8');
  const given = Buffer.from(String(seal.hmac ?? ''), 'utf8');
  if (seal.entries !== entries.length || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw refused(path, 'its seal does not match its content: it was edited since `--plan-out` wrote it (or sealed with another key; see STORE_PLAN_KEY)');
  }
  return { header, entries };
}

function readHeader(path: string, value: unknown): PlanHeader {
  const header = value as Partial<PlanHeader> | null;
  if (!header || header.format !== PLAN_FORMAT) throw refused(path, 'it is not a plan written by `store … --plan-out`');
  if (header.version !== PLAN_VERSION) throw refused(path, `it is a plan of version ${String(header.version)}; this store reads version ${PLAN_VERSION}`);
  return header as PlanHeader;
}

function refused(path: string, why: string): UsageError {
  return new UsageError(`${path} cannot be applied: ${why}. Nothing was sent.`);
}

/** Refuses a plan made for another store than the one this command talks to. */
export function checkPlanStore(path: string, header: PlanHeader, target: { storeId: string | number; apiHost: string }): void {
  if (String(header.store.store_id) !== String(target.storeId) || header.store.api_host !== target.apiHost) {
    throw refused(path, `it was made for store ${header.store.store_id} at ${header.store.api_host}, not store ${target.storeId} at ${target.apiHost}`);
  }
}

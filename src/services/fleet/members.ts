import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { readConfig, type Config } from '../../auth/config.js';
import { UsageError } from '../../errors.js';
import type { Env } from '../../util/files.js';

/** One store of a fleet: the profile that reaches it, and what its command line gets of its own. */
export interface FleetMember {
  profile: string;
  storeId: string;
  /** The API's host (`api.example.com:443`): with the store id, what makes two profiles the same store. */
  apiHost: string;
  /** The fleet file's values for this store, by column (`{feed}` in the command's arguments); `profile` always. */
  vars: Record<string, string>;
  /** Arguments added to this store's command line (the fleet file's `args`). */
  args: string[];
  /** Where the fleet file named it ("stores.csv line 3"), for the sentences about it. */
  where: string;
}

/** How the fleet was named on the command line. */
export interface FleetSelection {
  profiles?: string;
  allProfiles?: boolean;
  fleetFile?: string;
}

/** The key of a store: two profiles with the same key are one store and never run at once. */
export function storeKey(member: Pick<FleetMember, 'storeId' | 'apiHost'>): string {
  return `${member.storeId}@${member.apiHost}`;
}

/**
 * The fleet's members in the order given (`--profiles`, the fleet file) or by name (`--all-profiles`), each
 * resolved against the profiles of config.json. A profile named twice, or one that does not exist, is refused
 * in one sentence before any store is reached.
 */
export async function fleetMembers(selection: FleetSelection, env: Env = process.env): Promise<FleetMember[]> {
  const config = await readConfig(env);
  let entries: Omit<FleetMember, 'storeId' | 'apiHost'>[];
  if (selection.fleetFile !== undefined) entries = await readFleetFile(selection.fleetFile);
  else if (selection.allProfiles) entries = Object.keys(config.profiles).sort().map((profile) => entry(profile, '--all-profiles'));
  else entries = (selection.profiles ?? '').split(',').map((p) => p.trim()).filter(Boolean).map((profile) => entry(profile, '--profiles'));
  if (entries.length === 0) {
    throw new UsageError(selection.allProfiles ? 'No profiles exist; run `store auth login --profile NAME` for each store first.' : 'The fleet names no profile.');
  }
  const seen = new Set<string>();
  return entries.map((e) => {
    if (seen.has(e.profile)) throw new UsageError(`${e.where}: profile "${e.profile}" is named twice; name each profile once.`);
    seen.add(e.profile);
    return { ...e, ...storeOf(config, e.profile, e.where) };
  });
}

function entry(profile: string, where: string): Omit<FleetMember, 'storeId' | 'apiHost'> {
  return { profile, vars: { profile }, args: [], where };
}

function storeOf(config: Config, profile: string, where: string): Pick<FleetMember, 'storeId' | 'apiHost'> {
  const found = config.profiles[profile];
  if (!found) {
    const known = Object.keys(config.profiles).sort();
    throw new UsageError(
      `${where}: no profile named "${profile}"${known.length > 0 ? `; the profiles are: ${known.join(', ')}` : '; run `store auth login --profile NAME` first'}.`,
    );
  }
  let apiHost: string;
  try {
    apiHost = new URL(found.api_url).host;
  } catch {
    apiHost = found.api_url;
  }
  return { storeId: found.store_id, apiHost };
}

/**
 * A fleet file (docs/fleet.md): JSON — an array of objects, or `{"stores": [...]}` — or CSV/TSV with a header
 * (the delimiter is sniffed from it). Each store has `profile`; `args` adds arguments to its command line (a JSON
 * array, or words separated by spaces); every other field is a value its command line names as `{field}`.
 */
export async function readFleetFile(file: string): Promise<Omit<FleetMember, 'storeId' | 'apiHost'>[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--fleet ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  text = text.replace(/^\uFEFF/, '');
  return /^\s*[[{]/.test(text) ? fromJson(file, text) : fromTable(file, text);
}

function fromJson(file: string, text: string): Omit<FleetMember, 'storeId' | 'apiHost'>[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--fleet ${file} is not valid JSON: ${(error as Error).message}.`);
  }
  const list = Array.isArray(raw) ? raw : (raw as { stores?: unknown }).stores;
  if (!Array.isArray(list)) throw new UsageError(`--fleet ${file}: expected an array of stores, or {"stores": [...]}.`);
  return list.map((item, i) => {
    const where = `${file} store ${i + 1}`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw new UsageError(`${where}: expected an object with "profile".`);
    const fields: Record<string, string> = {};
    let args: string[] = [];
    for (const [key, value] of Object.entries(item as Record<string, unknown>)) {
      if (key === 'args') {
        if (Array.isArray(value) && value.every((a) => typeof a === 'string' || typeof a === 'number')) args = value.map(String);
        else if (typeof value === 'string') args = words(value);
        else throw new UsageError(`${where}: "args" must be an array of strings.`);
      } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = String(value);
      else if (value !== null) throw new UsageError(`${where}: "${key}" must be a string or a number.`);
    }
    return member(where, fields, args);
  });
}

function fromTable(file: string, text: string): Omit<FleetMember, 'storeId' | 'apiHost'>[] {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = header.includes('\t') ? '\t' : header.includes(';') && !header.includes(',') ? ';' : ',';
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: true, delimiter, skip_empty_lines: true, trim: true, relax_column_count: false });
  } catch (error) {
    throw new UsageError(`--fleet ${file}: ${(error as Error).message}.`);
  }
  return rows.map((row, i) => {
    const { args = '', ...fields } = row;
    for (const key of Object.keys(fields)) if (fields[key] === '') delete fields[key];
    return member(`${file} line ${i + 2}`, fields, words(args));
  });
}

function member(where: string, fields: Record<string, string>, args: string[]): Omit<FleetMember, 'storeId' | 'apiHost'> {
  const profile = fields.profile?.trim();
  if (!profile) throw new UsageError(`${where}: no profile (every store of a fleet file names its profile).`);
  return { profile, vars: { ...fields, profile }, args, where };
}

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** `--shard i/N` (1 ≤ i ≤ N): the part of the fleet one machine runs. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * `--shard i/N`, or `--shard auto`: a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (from 0) with STORE_SHARD_COUNT
 * (its completions), or STORE_SHARD_INDEX (from 0: a GitHub Actions matrix's `strategy.job-index`) with
 * STORE_SHARD_COUNT (`strategy.job-total`), or STORE_SHARD as "i/N".
 */
export function parseShard(value: string, env: Env = process.env): Shard {
  if (value === 'auto') {
    if (env.STORE_SHARD) return parseShard(env.STORE_SHARD, {});
    const index = env.JOB_COMPLETION_INDEX ?? env.STORE_SHARD_INDEX;
    const count = env.STORE_SHARD_COUNT ?? env.JOB_COMPLETIONS;
    if (index === undefined || count === undefined) {
      throw new UsageError(
        '--shard auto: set JOB_COMPLETION_INDEX (a Kubernetes Indexed Job sets it) or STORE_SHARD_INDEX, and STORE_SHARD_COUNT; or STORE_SHARD=i/N.',
      );
    }
    return checked(Number(index) + 1, Number(count), `--shard auto (index ${index}, count ${count})`);
  }
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (!match) throw new UsageError(`--shard ${value}: expected i/N (e.g. 2/4, from 1) or auto.`);
  return checked(Number(match[1]), Number(match[2]), `--shard ${value}`);
}

function checked(index: number, count: number, what: string): Shard {
  if (!Number.isInteger(index) || !Number.isInteger(count) || count < 1 || index < 1 || index > count) {
    throw new UsageError(`${what}: the shard must be between 1 and its count (i/N with 1 ≤ i ≤ N).`);
  }
  return { index, count };
}

/**
 * The shard (1…N) a store belongs to: a stable hash of its store id and API host, so a store lands on the same
 * machine whatever else the fleet holds, and two profiles of one store are never on two machines.
 */
export function shardOf(member: Pick<FleetMember, 'storeId' | 'apiHost'>, count: number): number {
  const digest = createHash('sha256').update(storeKey(member)).digest();
  return (digest.readUInt32BE(0) % count) + 1;
}

/**
 * The fleet's members as lanes: the profiles of one store in one lane, run one after another (never two at once
 * against one store: one bucket, one lock); lanes run side by side.
 */
export function lanesOf(members: FleetMember[]): FleetMember[][] {
  const lanes = new Map<string, FleetMember[]>();
  for (const m of members) {
    const key = storeKey(m);
    const lane = lanes.get(key);
    if (lane) lane.push(m);
    else lanes.set(key, [m]);
  }
  return [...lanes.values()];
}

import { readFile, stat } from 'node:fs/promises';
import { UsageError, unreadableFile } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import type { Recorder } from '../../ledger/recorder.js';

/**
 * `store api`: one raw request through the shared HTTP core, shaped like `gh api`:
 * `-f key=value` adds a string, `-F key=value` a typed value (true/false/null/integers, `@file` reads a file),
 * `key[sub]=v` nests and `key[]=v` appends. Fields go to the query string of GET/DELETE, to the JSON body otherwise.
 */
export interface ApiRequestInput {
  method: string;
  path: string;
  rawFields: string[];
  typedFields: string[];
  input?: string;
  paginate: boolean;
  /** With paginate: an array of the pages (gh's --slurp) instead of one array of their records. */
  slurp?: boolean;
  /** Standard input whole, for `flag` (`--input -`, `--field k=@-`); at most MAX_INPUT_BYTES. */
  readStdin: (flag: string) => Promise<string>;
}

export interface ApiRequestResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The method and path of `store api [METHOD] PATH` (like gh: one argument is the path; the method defaults to
 * GET, or POST when the request has fields or a body). `--method` and a method argument cannot both be given.
 */
export function requestLine(
  first: string | undefined,
  second: string | undefined,
  opts: { method?: string; sendsBody: boolean },
): { method: string; path: string } {
  const [named, path] = second === undefined ? [undefined, first] : [first, second];
  if (path === undefined || path.trim() === '' || (second === undefined && METHODS.has(path))) {
    throw new UsageError('Missing argument PATH (see `store api --help`).');
  }
  if (named !== undefined && opts.method !== undefined) {
    throw new UsageError(`The method is given twice (${named} and --method ${opts.method}); give one.`);
  }
  return { method: named ?? opts.method ?? (opts.sendsBody ? 'POST' : 'GET'), path };
}

export async function runApiRequest(client: StoreClient, recorder: Recorder, req: ApiRequestInput): Promise<ApiRequestResult> {
  const method = req.method.toUpperCase();
  if (!METHODS.has(method)) {
    throw new UsageError(`Unknown method "${req.method}": use GET, POST, PUT, PATCH or DELETE.`);
  }
  const fields: Record<string, unknown> = {};
  for (const field of req.rawFields) setField(fields, field, '--raw-field', (v) => v);
  for (const field of req.typedFields) await setTypedField(fields, field, req.readStdin);

  const path = normalisePath(req.path);
  const hasFields = Object.keys(fields).length > 0;
  const fieldsInQuery = method === 'GET' || method === 'DELETE';
  let body: unknown;
  if (req.input !== undefined) {
    if (hasFields && !fieldsInQuery) {
      throw new UsageError('--input and body fields (-f/-F) cannot be combined on a request with a body.');
    }
    body = await readJsonInput(req.input, req.readStdin);
  } else if (hasFields && !fieldsInQuery) {
    body = fields;
  }
  const query = fieldsInQuery && hasFields ? toQuery(fields) : undefined;

  if (req.paginate) {
    if (method !== 'GET') throw new UsageError('--paginate works with GET requests only.');
    const items: unknown[] = [];
    for await (const page of client.paginate<unknown>(path, query, { perPage: 200 })) {
      if (req.slurp) items.push(page.items);
      else items.push(...page.items);
    }
    return { status: 200, headers: {}, body: items };
  }
  // A write is on the run ledger as the raw request it is: the CLI cannot tell which fields of what it changes.
  const record =
    method === 'GET'
      ? undefined
      : recorder.intend([{ resource: 'api', id: path, kind: 'request', field: method, ...(query ? { key: new URLSearchParams(query).toString() } : {}), after: body ?? null }]);
  const res = await client.request<unknown>({ method, path, query, body, record });
  return { status: res.status, headers: res.headers, body: res.body };
}

/**
 * Accepts `/orders`, `orders`, `/v1/123/orders` or `/2025-03/123/orders` (the store's own path, sent under the
 * client's version: `--api-version` decides it, not a pasted prefix) and full URLs.
 */
function normalisePath(path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  const versioned = withSlash.match(/^\/(?:v\d+|\d{4}-\d{2})\/[^/]+(\/.*)?$/);
  return versioned ? versioned[1] ?? '/' : withSlash;
}

function splitField(field: string, flag: string): [string[], string] {
  const eq = field.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} "${field}" must look like key=value.`);
  const key = field.slice(0, eq);
  const value = field.slice(eq + 1);
  const match = key.match(/^([^[\]]+)((?:\[[^[\]]*\])*)$/);
  if (!match) throw new UsageError(`${flag} "${field}": the key "${key}" is not of the form name, name[sub] or name[].`);
  const parts = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
  return [parts, value];
}

function setField(target: Record<string, unknown>, field: string, flag: string, convert: (v: string) => unknown): void {
  const [parts, raw] = splitField(field, flag);
  assign(target, parts, convert(raw), field, flag);
}

async function setTypedField(target: Record<string, unknown>, field: string, readStdin: (flag: string) => Promise<string>): Promise<void> {
  const [parts, raw] = splitField(field, '--field');
  let value: unknown;
  if (raw.startsWith('@')) {
    const file = raw.slice(1);
    value = file === '-' ? await readStdin('--field') : await readFileOrExplain(file, '--field');
  } else if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (raw === 'null') value = null;
  else if (/^-?\d+$/.test(raw) && Number.isSafeInteger(Number(raw))) value = Number(raw);
  else value = raw;
  assign(target, parts, value, field, '--field');
}

function assign(target: Record<string, unknown>, parts: string[], value: unknown, field: string, flag: string): void {
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const last = i === parts.length - 1;
    const nextIsArray = !last && parts[i + 1] === '';
    if (Array.isArray(node)) {
      if (part !== '') throw new UsageError(`${flag} "${field}": cannot name a key inside a list.`);
      if (last) node.push(value);
      else {
        // Like gh: `a[][x]=1 a[][y]=2` fills one object; a key it already has starts the next one.
        const tail: unknown = node[node.length - 1];
        const reusable: boolean =
          !nextIsArray && typeof tail === 'object' && tail !== null && !Array.isArray(tail) && !(parts[i + 1] in tail);
        const child: Record<string, unknown> | unknown[] = reusable ? (tail as Record<string, unknown>) : nextIsArray ? [] : {};
        if (!reusable) node.push(child);
        node = child;
      }
      continue;
    }
    if (part === '') throw new UsageError(`${flag} "${field}": [] must follow a name.`);
    if (last) {
      node[part] = value;
    } else {
      const existing: unknown = node[part];
      if (existing === undefined) node[part] = nextIsArray ? [] : {};
      else if (typeof existing !== 'object' || existing === null || Array.isArray(existing) !== nextIsArray) {
        throw new UsageError(`${flag} "${field}": "${part}" is already set to a different kind of value.`);
      }
      node = node[part] as Record<string, unknown> | unknown[];
    }
  }
}

function toQuery(fields: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    query[key] = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  }
  return query;
}

/**
 * The most a body given with --input or --field @FILE may be (a file, or standard input, which is read whole
 * into memory): 32 MiB, as much as the CLI reads of one reply (client/errors.ts MAX_REPLY_BYTES).
 */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/** An --input or @FILE past MAX_INPUT_BYTES, in one sentence. */
export function inputTooLarge(source: string, flag: string): UsageError {
  return new UsageError(`${flag} ${source} is larger than ${MAX_INPUT_BYTES / (1024 * 1024)} MiB, the most store sends as one request body.`);
}

async function readFileOrExplain(file: string, flag: string): Promise<string> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw unreadableFile(file, error, flag);
  }
  if (size > MAX_INPUT_BYTES) throw inputTooLarge(file, flag);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw unreadableFile(file, error, flag);
  }
}

async function readJsonInput(input: string, readStdin: (flag: string) => Promise<string>): Promise<unknown> {
  const text = input === '-' ? await readStdin('--input') : await readFileOrExplain(input, '--input');
  const source = input === '-' ? 'standard input' : input;
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    const offset = jsonErrorOffset(text, (error as Error).message);
    const before = text.slice(0, offset).split('\n');
    throw new UsageError(
      `--input ${source}: invalid JSON at line ${before.length}, column ${before[before.length - 1].length + 1} (${(error as Error).message.replace(/, (?:"|\.\.\.)[\s\S]*$/, '').replace(/ in JSON at[\s\S]*$/, '')}).`,
    );
  }
}

/**
 * Where JSON.parse gave up. Some of Node's messages carry "at position N"; the others ("Unexpected token
 * ','") do not, so we look for the shortest prefix of the text that fails with the same complaint: it ends
 * at the offending character (shorter prefixes fail only because they end too early).
 */
function jsonErrorOffset(text: string, message: string): number {
  const position = message.match(/at position (\d+)/);
  if (position) return Number(position[1]);
  // The complaint without the snippet of text V8 quotes after it (which differs for every prefix).
  const complaint = (m: string) => m.replace(/, (?:"|\.\.\.)[\s\S]*$/, '').split('\n')[0];
  const target = complaint(message);
  const failsTheSameWay = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      return complaint((error as Error).message) === target;
    }
  };
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (failsTheSameWay(mid + 1)) high = mid;
    else low = mid + 1;
  }
  return low;
}

import { ApiError, NotFoundError } from './errors.js';
import type { ResponseHeaders } from './scheduler.js';
import { MAX_PER_PAGE } from '../platform/pagination.js';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type Query = Record<string, QueryValue>;

export interface Page<T> {
  items: T[];
  /** 1-based page number. */
  page: number;
  /** From x-total-count, when the server sends it. */
  total?: number;
  /** The store's time when it answered (its `Date` header, ms), when it sends one. */
  date?: number;
}


type GetFn = <T>(options: { method: 'GET'; path: string; query?: Query }) => Promise<{ headers: ResponseHeaders; body: T }>;

/** Parses an RFC 8288 Link header into rel → URL. */
export function parseLinkHeader(value: string | string[] | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  const text = Array.isArray(value) ? value.join(', ') : value;
  if (!text) return links;
  for (const match of text.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = match[2]?.match(/rel\s*=\s*"?([^";]+)"?/i)?.[1];
    if (!rel) continue;
    for (const name of rel.trim().split(/\s+/)) links[name.toLowerCase()] ??= match[1]!;
  }
  return links;
}

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function pageOf(url: string): number | undefined {
  try {
    const page = Number(new URL(url).searchParams.get('page'));
    return Number.isInteger(page) && page > 0 ? page : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The platform answers an empty list, a filter that matches nothing and a page past the end with
 * 404 "Last page is N" (N is 0 for an empty list): every list read takes it as "no items", not as an error.
 */
function isPastLastPage(error: unknown): boolean {
  return error instanceof NotFoundError && /last page is \d+/i.test(error.description ?? '');
}

/**
 * One page of a list (the `--page` reads, lookups by handle, metafields): the platform's empty-list 404 is
 * an empty page; a body that is not a list is an error.
 */
export async function readPage<T>(
  get: GetFn,
  path: string,
  query: Query = {},
  warn?: (message: string) => void,
): Promise<Page<T>> {
  const page = Number(query.page ?? 1);
  let response: { headers: ResponseHeaders; body: unknown };
  try {
    response = await get<unknown>({ method: 'GET', path, query });
  } catch (error) {
    if (isPastLastPage(error)) return { items: [], page, total: page === 1 ? 0 : undefined, date: dateOf((error as NotFoundError).headers ?? {}) };
    throw error;
  }
  if (!Array.isArray(response.body)) {
    throw new ApiError(`The store answered GET ${path} with something that is not a list.`, {
      status: 200,
      method: 'GET',
      url: path,
      body: response.body,
    });
  }
  const items = withinPage(response.body as T[], Number(query.per_page ?? MAX_PER_PAGE), path, warn);
  return { items, page, total: totalCount(response.headers), date: dateOf(response.headers) };
}

/** The `Date` header (HTTP-date, whole seconds) in ms: the store's clock; undefined when absent or unreadable. */
export function dateOf(headers: ResponseHeaders): number | undefined {
  const raw = headerValue(headers, 'date');
  const ms = raw === undefined ? Number.NaN : Date.parse(raw);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * A page's records, at most as many as a page can hold (the per_page asked, and never less than the platform's
 * largest page): a server that sends two million records for a page of 30 is read for its first page's worth,
 * with a warning, instead of holding the command for minutes (docs/decisions.md "Bounded walks").
 */
function withinPage<T>(items: T[], perPage: number, path: string, warn?: (message: string) => void): T[] {
  const most = Math.max(Number.isFinite(perPage) ? perPage : 0, MAX_PER_PAGE);
  if (items.length <= most) return items;
  warn?.(`The store sent ${items.length} records in one page of GET ${path}, more than a page holds; only the first ${most} were read.`);
  return items.slice(0, most);
}

/** x-total-count: every item matching the filters; undefined when absent or not a number. */
function totalCount(headers: ResponseHeaders): number | undefined {
  const raw = headerValue(headers, 'x-total-count');
  if (raw === undefined || raw.trim() === '') return undefined;
  const total = Number(raw);
  // A negative or fractional count is no count: the walk is bounded as if the store had said nothing.
  return Number.isInteger(total) && total >= 0 ? total : undefined;
}

/**
 * The most records one walk reads, whatever x-total-count says (or when it says nothing): twice the largest list
 * the platform serves (a catalog of 100,000 products; an orders query stops at 10,000), 1,000 pages of 200.
 */
export const MAX_LIST_RECORDS = 200_000;

/**
 * Pages read at most from a list of `total` records (undefined: the store does not say; docs/decisions.md
 * "Bounded walks"): the pages it fills, plus a tenth and two more, so that a list that grows while it is read
 * (new orders arriving) is still read to its end, while a server that keeps offering pages is not followed for
 * ever; never more than MAX_LIST_RECORDS' worth.
 */
export function maxPagesFor(total: number | undefined, perPage: number): number {
  const size = Math.max(1, Number.isFinite(perPage) ? perPage : MAX_PER_PAGE);
  const absolute = Math.ceil(MAX_LIST_RECORDS / size);
  return total === undefined ? absolute : Math.min(absolute, Math.ceil((Math.max(0, total) * 1.1) / size) + 2);
}

/**
 * The warning of a walk stopped at its page cap (maxPagesFor) while the store still offered more: `capped` when
 * the cap came from x-total-count. One wording for every reader of a list (the generic walk, `allOrders`).
 */
export function walkCapWarning(path: string, pages: number, read: number, capped: boolean): string {
  return `The store kept offering pages of GET ${path}; stopped after ${pages} pages (${read} records read), the most read from ${capped ? 'a list of that x-total-count' : 'a list that does not say its size'}.`;
}

/** How a walk reads: its page size (unless the query says), and where it warns that the store kept offering more. */
export interface WalkOptions {
  perPage?: number;
  warn?: (message: string) => void;
}

/**
 * Walks a list page by page: follows `Link rel="next"` (absolute URLs), falls back to counting pages
 * when the server sends no Link header, and treats the 404 "Last page is N" as the end of the list.
 * Every walk ends (docs/decisions.md "Bounded walks"): at an empty page, once the records read reach the
 * latest x-total-count, or at a page cap derived from it (MAX_LIST_RECORDS' worth without one); `warn` is
 * told when the store was still offering more.
 */
export async function* paginate<T>(get: GetFn, path: string, query: Query = {}, options: WalkOptions = {}): AsyncGenerator<Page<T>> {
  const perPage = Number(query.per_page ?? options.perPage ?? MAX_PER_PAGE);
  let page = Number(query.page ?? 1);
  let next: { path: string; query?: Query } | undefined = { path, query: { ...query, page, per_page: perPage } };
  const seen = new Set<string>();
  // Records before the first page read (a walk may start at --page N): they count toward x-total-count.
  const before = Math.max(0, (page - 1) * (Number.isFinite(perPage) ? perPage : 0));
  let read = 0;
  let pages = 0;
  let maxPages = maxPagesFor(undefined, perPage);
  let capped = false;

  while (next) {
    let response: { headers: ResponseHeaders; body: unknown };
    try {
      response = await get<unknown>({ method: 'GET', ...next });
    } catch (error) {
      if (isPastLastPage(error)) return;
      throw error;
    }
    if (!Array.isArray(response.body)) {
      throw new ApiError(`The store answered GET ${path} with something that is not a list.`, {
        status: 200,
        method: 'GET',
        url: next.path,
        body: response.body,
      });
    }
    const items = withinPage(response.body as T[], perPage, path, options.warn);
    const total = totalCount(response.headers);
    pages += 1;
    read += items.length;
    if (total !== undefined && !capped) {
      maxPages = maxPagesFor(total - before, perPage);
      capped = true;
    }
    yield { items, page, total };

    const linkHeader = response.headers.link;
    const nextUrl = parseLinkHeader(linkHeader).next;
    if (items.length === 0) {
      next = undefined;
    } else if (nextUrl !== undefined) {
      // A server that links a page to itself would otherwise loop for ever.
      if (seen.has(nextUrl)) break;
      seen.add(nextUrl);
      next = { path: nextUrl };
      page = pageOf(nextUrl) ?? page + 1;
    } else if (linkHeader === undefined && items.length >= perPage) {
      page += 1;
      next = { path, query: { ...query, page, per_page: perPage } };
    } else {
      next = undefined;
    }
    if (!next) break;
    if (total !== undefined && before + read >= total) {
      // Counting pages without a Link is only a guess that there may be more: no warning then.
      if (nextUrl === undefined) return;
      options.warn?.(
        `The store kept offering pages of GET ${path} after the ${total} records its x-total-count announced; stopped after ${pages} ${pages === 1 ? 'page' : 'pages'} (${read} records read).`,
      );
      return;
    }
    if (pages >= maxPages) {
      options.warn?.(walkCapWarning(path, pages, read, capped));
      return;
    }
  }
}

/** A record's id as a walk by id reads it (a number or a numeric string); undefined when it has none. */
function recordId(record: unknown): number | undefined {
  const raw = record !== null && typeof record === 'object' ? (record as { id?: unknown }).id : undefined;
  const id = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * Walks a list by `since_id` (docs/platform.md §3 and §8): each request is the first page of the records whose id
 * is above the highest one read so far. A record deleted while the list is read (or one that stops matching its
 * filters) moves no other record into a page already read, as it does in a walk by page number (page 2 starts
 * one record later once a record of page 1 is gone, and that record is never seen): every record that matched
 * from the start of the walk to its end is read, once. It costs what the page walk costs, one request a page,
 * and ends at a page shorter than per_page or once a page holds all that x-total-count says is left.
 *
 * It relies on the store listing by id, ascending, which is what "since_id" means. A page that is not in that
 * order, that lists an id at or below since_id (a store ignoring the parameter) or a record without an id, is not
 * used: the rest of the list is read by page number (`paginate`, leaving out what was read), with a warning that
 * says what that costs. Bounded like every walk (maxPagesFor from the first x-total-count).
 */
export async function* paginateById<T>(get: GetFn, path: string, query: Query = {}, options: WalkOptions = {}): AsyncGenerator<Page<T>> {
  const perPage = Number(query.per_page ?? options.perPage ?? MAX_PER_PAGE);
  const start = recordId({ id: query.since_id }) ?? 0;
  let since = start;
  let pages = 0;
  let read = 0;
  let maxPages = maxPagesFor(undefined, perPage);
  let capped = false;
  for (;;) {
    const page = await readPage<T>(get, path, { ...query, ...(since > 0 ? { since_id: since } : {}), page: 1, per_page: perPage }, options.warn);
    const ids = page.items.map(recordId);
    const byId = ids.every((id, i) => id !== undefined && id > since && (i === 0 || id > ids[i - 1]!));
    if (!byId) {
      options.warn?.(
        `The store does not list ${path} in id order after since_id; the rest is read by page number, where a record deleted during the read can hide another.`,
      );
      // What the walk by id has read is every matching record up to `since`: the page walk leaves those out.
      for await (const rest of paginate<T>(get, path, query, options)) {
        const items = since > start ? rest.items.filter((item) => (recordId(item) ?? Number.POSITIVE_INFINITY) > since) : rest.items;
        yield { ...rest, items, page: pages + rest.page };
      }
      return;
    }
    pages += 1;
    read += page.items.length;
    if (page.total !== undefined && !capped) {
      maxPages = maxPagesFor(page.total, perPage);
      capped = true;
    }
    yield { ...page, page: pages };
    if (page.items.length < perPage || (page.total !== undefined && page.total <= page.items.length)) return;
    since = ids.at(-1)!;
    if (pages >= maxPages) {
      options.warn?.(walkCapWarning(path, pages, read, capped));
      return;
    }
  }
}

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DownloadResult, checkFeedUrl, download, shownUrl } from '../../client/download.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { xdgDir } from '../../util/files.js';
import { storeKey } from './journal.js';

/**
 * A bulk file published at a URL (`products import URL`, `variants sync URL`; docs/csv.md, "Feeds at a URL").
 * Downloaded to a private copy with a conditional GET; the validators (ETag, Last-Modified) and the digest of
 * what was downloaded are kept per feed, profile, store, command and settings under
 * `$XDG_STATE_HOME/store/feeds/`, and only once a run of it has finished with nothing failed: a feed that has
 * not changed since then is answered "unchanged" before the store is asked anything. What is kept names the URL
 * without its query and holds no header.
 */

/** The most a feed may be, decompressed: 100,000 products with long descriptions fit well under it. */
export const MAX_FEED_BYTES = 512 * 1024 * 1024;

export interface FeedRequest {
  url: string;
  /** `--header` values: sent to the feed's origin only, never kept or shown. */
  headers: Record<string, string>;
  /** What reads it ("import", "sync"): each keeps its own validators. */
  command: string;
  /** The flags that change what a run of it writes (--only, --mode, --map…): other flags, other validators. */
  settings: string;
  profile: string;
  apiUrl: string;
  storeId: string | number;
  /** A private directory the caller made and removes (on every exit, signals too): the copy is written there. */
  dir: string;
  /** Download it whole and run it even when it has not changed (`--refetch`): no validators are sent. */
  refetch?: boolean;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  maxBytes?: number;
}

/** What a finished run keeps of a feed, to know next time that it has not changed. */
interface FeedState {
  url: string;
  etag?: string;
  lastModified?: string;
  sha256: string;
  /** When the run that read it finished. */
  at: string;
}

export type FeedFetch =
  | {
      status: 'unchanged';
      /** How the feed is named in messages (the last part of its path). */
      name: string;
      url: string;
      /** When the last run that read it finished. */
      since: string;
      /** How it is known: the server said so (304), or it sent the same bytes again. */
      by: 'not-modified' | 'same-content';
    }
  | {
      status: 'downloaded';
      name: string;
      url: string;
      /** The private copy in the caller's directory, readable as often as the readers need. */
      path: string;
      bytes: number;
      /** Keeps the feed's validators: call once the run that read it finished with nothing failed. */
      remember(): Promise<void>;
    };

/** The file name a feed's rows are reported under: the last part of its path, else its host. */
export function feedName(url: URL): string {
  const last = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
  return last.replace(/[^\p{L}\p{N}._-]/gu, '_') || url.hostname;
}

export async function fetchFeed(request: FeedRequest): Promise<FeedFetch> {
  const url = checkFeedUrl(request.url);
  const name = feedName(url);
  const statePath = feedStatePath(request);
  const kept = request.refetch ? undefined : await readState(statePath);
  const path = join(request.dir, name);
  const result: DownloadResult = await download({
    url: request.url,
    headers: request.headers,
    etag: kept?.etag,
    lastModified: kept?.lastModified,
    maxBytes: request.maxBytes ?? MAX_FEED_BYTES,
    to: path,
    signal: request.signal,
  });
  if (result.status === 'unchanged') return { status: 'unchanged', name, url: shownUrl(url), since: kept!.at, by: 'not-modified' };
  const sha256 = await digest(path);
  // A server without validators (or one that changes its ETag for the same bytes) is still known by its bytes.
  if (kept && kept.sha256 === sha256) return { status: 'unchanged', name, url: shownUrl(url), since: kept.at, by: 'same-content' };
  const state: Omit<FeedState, 'at'> = { url: shownUrl(url), etag: result.etag, lastModified: result.lastModified, sha256 };
  return {
    status: 'downloaded',
    name,
    url: shownUrl(url),
    path,
    bytes: result.bytes,
    remember: () => writeFileAtomic(statePath, `${JSON.stringify({ ...state, at: new Date().toISOString() })}\n`),
  };
}

/** One file per feed, profile, store, command and settings; the URL is hashed whole (its query too), never written out. */
function feedStatePath(request: FeedRequest): string {
  const key = createHash('sha256').update(`${request.command}\n${request.profile}\n${request.settings}\n${request.url}`).digest('hex').slice(0, 16);
  return join(xdgDir('state', request.env), 'feeds', `${request.command}-${storeKey(request.apiUrl, request.storeId)}-${key}.json`);
}

async function readState(path: string): Promise<FeedState | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<FeedState>;
    if (typeof parsed.sha256 !== 'string' || typeof parsed.at !== 'string') return undefined;
    return {
      url: String(parsed.url ?? ''),
      etag: typeof parsed.etag === 'string' ? parsed.etag : undefined,
      lastModified: typeof parsed.lastModified === 'string' ? parsed.lastModified : undefined,
      sha256: parsed.sha256,
      at: parsed.at,
    };
  } catch {
    // None kept, or not readable: the feed is downloaded whole, as the first time.
    return undefined;
  }
}

async function digest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}


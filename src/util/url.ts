/**
 * An API or auth URL as `store` keys and joins it: without trailing slashes, so `https://api.example/` and
 * `https://api.example` name the same host root (profiles, the rate scheduler's key, journals).
 */
export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * An API URL pasted whole (`https://api.example.com/v1/123456/`, `…/2025-03`) as its host root: the version
 * segment (`v1`, `v2`…, or a dated `YYYY-MM`) and a store id after it are left out, since the client adds both
 * (`/v1/v1/…` otherwise). `removed` is what was left out, `storeId` the id it held.
 */
export function apiHostRoot(url: string): { url: string; removed?: string; storeId?: string } {
  const trimmed = withoutTrailingSlash(url);
  const match = /\/(?:v\d+|\d{4}-\d{2})(?:\/(\d+))?$/i.exec(trimmed);
  if (!match) return { url: trimmed };
  return { url: trimmed.slice(0, match.index), removed: match[0], storeId: match[1] };
}

/**
 * An API or auth URL as `store` keys and joins it: without trailing slashes, so `https://api.example/` and
 * `https://api.example` name the same host root (profiles, the rate scheduler's key, journals).
 */
export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Keeps secrets out of `--debug` lines: tokens, client secrets and OAuth codes must never reach a
 * terminal or a CI log (docs/decisions.md "HTTP client").
 */
const SECRET_KEYS = new Set([
  'access_token',
  'refresh_token',
  'client_secret',
  'code',
  'token',
  'password',
  'authorization',
  'authentication',
]);

export const REDACTED = '[REDACTED]';

/** A deep copy with every string under a secret-looking key replaced. */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // Only strings: numeric fields such as an error body's `code: 422` are harmless and useful.
    out[key] = SECRET_KEYS.has(key.toLowerCase()) && typeof inner === 'string' ? REDACTED : redactBody(inner);
  }
  return out;
}

/** The URL with its user:password and secret-looking query parameters replaced. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/\/\/[^/@\s]*@/, `//${REDACTED}@`);
  }
  const credentials = parsed.username !== '' || parsed.password !== '';
  parsed.username = '';
  parsed.password = '';
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_KEYS.has(key.toLowerCase())) parsed.searchParams.set(key, REDACTED);
  }
  const text = parsed.toString();
  return credentials ? text.replace('//', `//${REDACTED}@`) : text;
}

/** Headers that carry credentials: Authorization, Authentication, Cookie, Set-Cookie, X-Api-Key, X-Auth-Token… */
const SECRET_HEADER = /authori[sz]ation|authentication|cookie|api[-_]?key|token|secret|password|session/i;

function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/** A copy of `headers` with every credential-bearing header's value replaced and URLs (Location…) redacted. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const redact = (v: string) => (isSecretHeader(name) ? REDACTED : /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? redactUrl(v) : v);
    out[name] = Array.isArray(value) ? value.map(redact) : redact(value);
  }
  return out;
}

/** A one-line preview of a body for a debug line, redacted and cut to `max` characters. */
export function bodyPreview(body: unknown, max = 300): string {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return truncate(body.replace(/\s+/g, ' '), max);
    }
  }
  return truncate(JSON.stringify(redactBody(value)) ?? '', max);
}

/** Last line of defence: any literal occurrence of a known secret (e.g. echoed by a server) is replaced. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

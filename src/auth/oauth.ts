import { ApiError, AuthError, MAX_REPLY_BYTES, networkError, parseErrorBody, replyTooLarge } from '../client/errors.js';
import { withoutTrailingSlash } from '../util/url.js';

/** What `POST {auth_url}/apps/authorize/token` returns (docs/api-rules.md §5.18). */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  scope: string;
  /** The store id used in API paths. */
  user_id: string;
}

export function authorizeUrl(options: { authUrl: string; appId: string; state: string; redirectUri?: string }): string {
  const url = new URL(`${withoutTrailingSlash(options.authUrl)}/apps/${encodeURIComponent(options.appId)}/authorize`);
  url.searchParams.set('state', options.state);
  if (options.redirectUri) url.searchParams.set('redirect_uri', options.redirectUri);
  return url.toString();
}

export interface ExchangeOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  /** A line per HTTP exchange, for --debug; it never carries the code, secret or token. */
  debug?: (line: string) => void;
  timeoutMs?: number;
}

/**
 * Exchanges an authorization code for a token. Plain `fetch` is enough: this endpoint is not the store API,
 * is not rate-limited, and a code is single use, so a retry could only fail.
 */
export async function exchangeCode(options: ExchangeOptions): Promise<TokenResponse> {
  const url = `${withoutTrailingSlash(options.authUrl)}/apps/authorize/token`;
  options.debug?.(`POST ${url}`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        grant_type: 'authorization_code',
        code: options.code,
      }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const timedOut = (error as Error).name === 'TimeoutError';
    throw networkError(url, timedOut ? 'ETIMEDOUT' : cause?.code, cause?.message ?? (error as Error).message);
  }
  options.debug?.(`${response.status} POST ${url}`);
  const text = await boundedText(response, url);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: handled below as an unexpected reply
  }
  const details = { status: response.status, method: 'POST', url, body };
  if (!response.ok) throw tokenError(response.status, body, details);

  const token = body as Partial<Record<keyof TokenResponse, unknown>>;
  if (typeof token?.access_token !== 'string' || token.access_token === '' || token.user_id === undefined) {
    throw new ApiError('The authorization server sent a token reply without access_token or user_id.', details);
  }
  return {
    access_token: token.access_token,
    token_type: typeof token.token_type === 'string' ? token.token_type : 'bearer',
    scope: typeof token.scope === 'string' ? token.scope : '',
    user_id: String(token.user_id),
  };
}

function tokenError(status: number, body: unknown, details: ConstructorParameters<typeof ApiError>[1]): ApiError {
  const code = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  if (code === 'invalid_grant') {
    return new AuthError(
      'The authorization code was refused (expired after 5 minutes, already used, or mistyped); run `store auth login` again.',
      details,
    );
  }
  if (code === 'invalid_client') {
    return new AuthError('The client id or client secret was refused; check --client-id and --client-secret.', details);
  }
  const description = parseErrorBody(body).description;
  const because = description ? `: ${description.replace(/\.+$/, '')}` : '';
  if (status === 401 || status === 403) return new AuthError(`The authorization server refused the login (${status})${because}.`, details);
  return new ApiError(`The authorization server answered ${status}${because}.`, details);
}

/** Scopes as a list, whether the server separates them with commas or spaces. */
export function parseScopes(scope: string): string[] {
  return scope.split(/[\s,]+/).filter(Boolean);
}

/** The reply's text, refused past MAX_REPLY_BYTES while it streams (decompressed), like every store reply. */
async function boundedText(response: Response, url: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REPLY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw replyTooLarge('POST', new URL(url), MAX_REPLY_BYTES, "The authorization server's");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

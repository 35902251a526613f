/**
 * The HTTP errors of the client: an exchange that ended badly (ApiError and its kinds by status) or never
 * happened (NetworkError), each one sentence and an exit code (docs/exit-codes.md).
 */
import { StoreError, stripPeriod } from '../errors.js';
import { VERSION_SEGMENT } from '../platform/api-versions.js';

export interface ApiErrorDetails {
  status: number;
  method: string;
  url: string;
  description?: string;
  fieldErrors?: Record<string, string[]>;
  /** The parsed JSON body when it is JSON, else the raw text. */
  body?: unknown;
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * An HTTP exchange that ended badly. Used directly (exit 1) for statuses without a subclass and for
 * replies that are not JSON. `status` is 0 when no HTTP exchange happened (e.g. missing credentials).
 */
export class ApiError extends StoreError {
  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly description?: string;
  readonly fieldErrors?: Record<string, string[]>;
  readonly body?: unknown;
  readonly headers?: Record<string, string | string[] | undefined>;

  constructor(message: string, details?: ApiErrorDetails, exitCode = 1) {
    super(message, exitCode);
    this.status = details?.status ?? 0;
    this.method = details?.method ?? '';
    this.url = details?.url ?? '';
    this.description = details?.description;
    this.fieldErrors = details?.fieldErrors;
    this.body = details?.body;
    this.headers = details?.headers;
  }
}

/** 401, 403, or no credentials at all. */
export class AuthError extends ApiError {
  override readonly exitCode: number = 4;
}

export class NotFoundError extends ApiError {}

/** 422: the store refused the data. */
export class ValidationError extends ApiError {
  override readonly exitCode: number = 2;
}

/** 429 still answered after every retry. */
export class RateLimitError extends ApiError {}

/** 5xx after every retry. */
export class ServerError extends ApiError {}

/** No HTTP answer at all (refused, reset, DNS, timeout). */
export class NetworkError extends StoreError {
  constructor(
    message: string,
    readonly host: string,
    readonly code?: string,
  ) {
    super(message, 1);
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The reason phrases above, lower case: a body's text that only names the status. */
const REASON_PHRASES = new Set(Object.values(REASONS).map((r) => r.toLowerCase()));

interface ParsedErrorBody {
  description?: string;
  fieldErrors?: Record<string, string[]>;
}

function isFieldMap(value: unknown): value is Record<string, unknown[]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.values(value);
  return entries.length > 0 && entries.every((v) => Array.isArray(v) || typeof v === 'string');
}

/**
 * The longest text of a server's shown in an error (a description, one field's problem: room for a list of the
 * values allowed, such as every webhook event), and how many fields and problems.
 */
const MAX_SHOWN_TEXT = 1000;
/** A plain-text (not JSON) body is shown as the description only when it is short: a long one is a page. */
const MAX_PLAIN_TEXT = 300;
const MAX_SHOWN_PROBLEMS = 20;

/** What a server said, cut to what a one-sentence error can show. */
function cut(text: string): string {
  return text.length > MAX_SHOWN_TEXT ? `${text.slice(0, MAX_SHOWN_TEXT)}…` : text;
}

function toFieldErrors(map: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, problems] of Object.entries(map).slice(0, MAX_SHOWN_PROBLEMS)) {
    out[cut(field)] = (Array.isArray(problems) ? problems : [problems])
      .slice(0, MAX_SHOWN_PROBLEMS)
      .map((p) => cut(typeof p === 'string' ? p : (JSON.stringify(p) ?? String(p))));
  }
  return out;
}

/** Reads the error body shapes of docs/api-rules.md §5.3, parsed or raw. */
export function parseErrorBody(body: unknown): ParsedErrorBody {
  let value = body;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return {};
    try {
      value = JSON.parse(text);
    } catch {
      // A short plain-text body is still the best description there is; HTML pages are not.
      return text.startsWith('<') || text.length > MAX_PLAIN_TEXT ? {} : { description: text };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' && record[key] !== '' ? (record[key] as string) : undefined);

  const known = ['code', 'message', 'description', 'errors', 'error', 'error_description'];
  if (!known.some((k) => k in record) && isFieldMap(record)) {
    return { fieldErrors: toFieldErrors(record) };
  }
  // The 2025-03 resources (fulfillment orders, docs/platform.md §10) answer `{description: "Bad Request", message:
  // "…"}`: the sentence is the message there, where the §1 envelope has it in description.
  const phrase = (t: string | undefined) => t !== undefined && REASON_PHRASES.has(t.toLowerCase());
  const sentence = phrase(text('description')) && text('message') !== undefined && !phrase(text('message')) ? text('message') : undefined;
  const description = sentence ?? text('description') ?? text('error_description') ?? text('error') ?? text('message');
  // Their validation answers name the fields under `messages`.
  const fields = isFieldMap(record.errors) ? record.errors : isFieldMap(record.messages) ? record.messages : undefined;
  const fieldErrors = fields ? toFieldErrors(fields) : undefined;
  return { description: description === undefined ? undefined : cut(description), fieldErrors };
}

const RESOURCE_NAMES: Record<string, string> = {
  orders: 'order',
  products: 'product',
  variants: 'variant',
  categories: 'category',
  locations: 'location',
  webhooks: 'webhook',
  metafields: 'metafield',
  images: 'image',
  'custom-fields': 'custom field',
  custom_fields: 'custom field',
  'fulfillment-orders': 'fulfillment order',
  'tracking-events': 'tracking event',
};

function singular(collection: string): string {
  return RESOURCE_NAMES[collection] ?? collection.replace(/[-_]/g, ' ').replace(/ies$/, 'y').replace(/s$/, '');
}

const ID_PATTERN = /^(\d+|[0-9A-HJKMNP-TV-Z]{26}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The path below `/{version}/{store_id}`, split into segments. */
function resourceSegments(url: string): string[] {
  const pathname = safePathname(url);
  const segments = pathname.split('/').filter(Boolean).map(safeDecode);
  return VERSION_SEGMENT.test(segments[0] ?? '') ? segments.slice(2) : segments;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

/** "Order 1234567890", "Variant 34 of product 12", or undefined when the path names no id. */
function describeResource(url: string): string | undefined {
  const segments = resourceSegments(url);
  const pairs: { kind: string; id: string }[] = [];
  for (let i = 1; i < segments.length; i++) {
    const id = segments[i]!;
    if (ID_PATTERN.test(id) && !ID_PATTERN.test(segments[i - 1]!)) {
      pairs.push({ kind: singular(segments[i - 1]!), id });
    }
  }
  const last = pairs.at(-1);
  if (!last) return undefined;
  // A 404 on a collection below an id (GET /products/9/variants) means the parent is missing.
  const lastIdIsTarget = segments.at(-1) === last.id || !RESOURCE_NAMES[segments.at(-1)!];
  if (!lastIdIsTarget || pairs.length === 1) return capitalize(`${last.kind} ${last.id}`);
  const parent = pairs.at(-2)!;
  return capitalize(`${last.kind} ${last.id} of ${parent.kind} ${parent.id}`);
}

function parseIfJson(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
/** Builds the one typed error, with its one sentence, for an HTTP error response. */
export function errorFromResponse(
  method: string,
  url: string,
  status: number,
  body: unknown,
  options: {
    profile?: string;
    /**
     * The token came from STORE_TOKEN (true) or from a profile's own variable (its name, STORE_TOKEN_<PROFILE>), not
     * from a stored login: a 401 says so instead of sending the user to log in.
     */
    tokenFromEnv?: boolean | string;
    retryAfterSeconds?: number;
    headers?: Record<string, string | string[] | undefined>;
  } = {},
): ApiError {
  const { description, fieldErrors } = parseErrorBody(body);
  const details: ApiErrorDetails = {
    status,
    method,
    url,
    description,
    fieldErrors,
    body: parseIfJson(body),
    headers: options.headers,
  };
  const where = `${method} ${safePathname(url)}`;
  const reasonPhrase = REASONS[status] ?? 'Error';
  // "(403 Forbidden, Forbidden)" says nothing twice: a description that only repeats the reason is dropped.
  const detail = description && stripPeriod(description).toLowerCase() !== reasonPhrase.toLowerCase() ? stripPeriod(description) : undefined;
  const statusText = `${status} ${reasonPhrase}${detail ? `, ${detail}` : ''}`;
  const named = options.profile && !options.tokenFromEnv && options.profile !== 'default' ? options.profile : undefined;
  const ofProfile = named ? ` of profile ${named}` : '';
  const login = `store auth login${named ? ` --profile ${named}` : ''}`;

  if (status === 401) {
    if (typeof options.tokenFromEnv === 'string') {
      const variable = options.tokenFromEnv;
      return new AuthError(
        `The store rejected the token of profile ${options.profile} from the environment (${variable}); set a valid token in ${variable}, or unset it to use the profile's stored login.`,
        details,
      );
    }
    if (options.tokenFromEnv) {
      return new AuthError(
        'The store rejected the token from the environment (STORE_TOKEN); set a valid token, or unset STORE_TOKEN and STORE_ID to use a profile.',
        details,
      );
    }
    return new AuthError(`The store rejected the token${ofProfile}; run \`${login}\` to log in again.`, details);
  }
  if (status === 403) {
    // Scopes are granted to the app's installation in the store, not to a login: logging in again grants nothing.
    const scope = description?.match(/\b(?:read|write)_[a-z_]+\b/)?.[0];
    const app = `the app${options.tokenFromEnv ? ` of ${typeof options.tokenFromEnv === 'string' ? options.tokenFromEnv : 'STORE_TOKEN'}` : ofProfile ? ` of profile ${named}` : ''}`;
    if (scope) {
      return new AuthError(
        `The store refused ${where}: ${app} lacks the scope ${scope}; scopes belong to the app's installation, so the store's admin must grant ${scope} to the app (reinstall or update it), then the token works.`,
        details,
      );
    }
    return new AuthError(
      `The store refused ${where} (${statusText}): ${app} may lack a scope; scopes belong to the app's installation in the store, not to the login.`,
      details,
    );
  }
  if (status === 404) {
    const lastPage = description?.match(/last page is (\d+)/i)?.[1];
    if (lastPage !== undefined) {
      return new NotFoundError(`No such page for ${where}: the last page is ${lastPage}.`, details);
    }
    const resource = describeResource(url);
    return new NotFoundError(resource ? `${resource} not found.` : `No such path ${where}.`, details);
  }
  // A 400 naming fields is the 2025-03 resources' validation answer (docs/platform.md §10): invalid input, as a 422.
  if (status === 422 || (status === 400 && fieldErrors)) {
    const problems = fieldErrors
      ? Object.entries(fieldErrors).flatMap(([field, list]) =>
          list.map((problem) => (field === 'base' ? stripPeriod(problem) : `${field} ${stripPeriod(problem)}`)),
        )
      : [];
    // Errors only on `base` (the record as a whole) are a short note; the description, when there is one, is the
    // store's full sentence about the same refusal.
    const onlyBase = fieldErrors !== undefined && Object.keys(fieldErrors).every((field) => field === 'base');
    const text =
      problems.length > 0 && !(onlyBase && description)
        ? problems.slice(0, 10).join('; ') + (problems.length > 10 ? `; and ${problems.length - 10} more` : '')
        : stripPeriod(description ?? 'the store refused the data');
    return new ValidationError(`Invalid request: ${text}.`, details);
  }
  if (status === 429) {
    // Never a negative or fractional wait: "try again in -5 s" would be a lie.
    const seconds = options.retryAfterSeconds !== undefined && options.retryAfterSeconds > 0 ? Math.ceil(options.retryAfterSeconds) : 0;
    const wait = seconds > 0 ? `; try again in ${seconds} s` : '';
    return new RateLimitError(`The store's rate limit refused ${where} after every retry${wait}.`, details);
  }
  if (status >= 500) {
    return new ServerError(`The store failed on ${where} (${statusText}).`, details);
  }
  return new ApiError(`The store refused ${where} (${statusText}).`, details);
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'timed out',
  EADDRNOTAVAIL: 'address not available',
};

/** "Could not reach 127.0.0.1:4000: connection refused." (`afterAttempts`: " after 4 attempts over 7 s") */
export function networkError(url: string, code: string | undefined, detail?: string, afterAttempts = ''): NetworkError {
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the raw text: it is still the best name of the target
  }
  return new NetworkError(`Could not reach ${host}: ${networkReason(code, detail)}${afterAttempts}.`, host, code);
}

/** A network failure's cause in words ("connection refused"), else what the system said. */
export function networkReason(code: string | undefined, detail?: string): string {
  return stripPeriod((code && NETWORK_REASONS[code]) ?? detail ?? code ?? 'unknown network error');
}

/**
 * The largest reply body read, decompressed (docs/decisions.md "Bounded replies"): a 200-item page of the largest
 * records is a few MB; beyond this a reply is refused while it streams, so memory stays bounded whatever a
 * server sends (a gzip bomb included). The HTTP core and the OAuth token exchange both hold to it.
 */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** A reply refused for its size: one sentence that says so (never "could not reach"). */
export function replyTooLarge(method: string, url: URL, maxBytes: number, server = "The store's"): ApiError {
  return new ApiError(
    `${server} reply to ${method} ${url.pathname} was too large: more than ${formatBytes(maxBytes)} (the most this CLI reads in one reply).`,
    { status: 0, method, url: url.toString() },
  );
}

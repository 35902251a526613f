import { storedStems } from '../../src/platform/images.js';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/index.js';

/**
 * Starts an in-process sandbox on 127.0.0.1 (port 0) and talks to it over real HTTP with fetch, sending the
 * headers of spec §5 / DESIGN.md §3. Tests default to an empty store on the enterprise plan with the rate limit
 * off, so only the tests about the bucket pay for it.
 */

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Extra headers; a null value removes a default header. */
  headers?: Record<string, string | null>;
  /** Token to send instead of the sandbox's own. */
  token?: string;
  query?: Record<string, string | number | boolean | undefined>;
}

export interface TestSandbox {
  sandbox: RunningSandbox;
  /** `{api_url}/{version}/{store_id}` */
  base: string;
  /** Path relative to `/{version}/{store_id}` (starting with `/`), or an absolute URL. */
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
  del<T = any>(path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export const TEST_DEFAULTS: SandboxOptions = { seed: 'empty', plan: 'enterprise', rate: 'off' };

export async function startTestSandbox(opts: SandboxOptions = {}): Promise<TestSandbox> {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  const sandbox = await startSandbox({ ...TEST_DEFAULTS, host: '127.0.0.1', port: 0, ...opts });
  return clientFor(sandbox);
}

/** A client of the sandbox's API under one version's paths (docs/platform.md §12: `v1`, the default, or `2025-03`). */
export function clientFor(sandbox: RunningSandbox, version = 'v1'): TestSandbox {
  const base = `${sandbox.apiUrl}/${version}/${sandbox.storeId}`;
  const request = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const url = new URL(/^https?:\/\//.test(path) ? path : base + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      authentication: `bearer ${opts.token ?? sandbox.accessToken}`,
      'user-agent': `${sandbox.appName} (${sandbox.clientId})`,
      accept: 'application/json',
    };
    const hasBody = opts.body !== undefined;
    if (hasBody) headers['content-type'] = 'application/json';
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (v === null) delete headers[k.toLowerCase()];
      else headers[k.toLowerCase()] = v;
    }
    const res = await fetch(url, {
      method,
      headers,
      body: hasBody ? (typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)) : undefined,
      redirect: 'manual',
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: parseJson(text) as T, text };
  };
  return {
    sandbox,
    base,
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    put: (path, body, opts) => request('PUT', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    del: (path, opts) => request('DELETE', path, opts),
    close: () => sandbox.close(),
  };
}

/**
 * One sandbox for the whole test file: started in beforeAll, closed in afterAll.
 * Use the returned object's fields inside tests only (they are filled in by beforeAll).
 */
export function useSandbox(opts: SandboxOptions = {}): TestSandbox {
  const holder = {} as TestSandbox;
  beforeAll(async () => {
    Object.assign(holder, await startTestSandbox(opts));
  });
  afterAll(async () => {
    await holder.close?.();
  });
  return holder;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A request through node:http with exactly the given headers: fetch always adds a User-Agent and a
 * Content-Type for string bodies, which the §5.2 rows need to leave out.
 */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    // node frames a GET or DELETE body only when told its length; without it the body would read as a next request.
    const headers = { ...opts.headers };
    if (opts.body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(Buffer.byteLength(opts.body));
    }
    const req = http.request(url, { method: opts.method ?? 'GET', headers, setHost: true }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parseJson(text), text }));
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** A valid 44-digit fiscal access key (NF-e: mod-11 check digit, weights 2..9 from the right; 10 and 11 → 0). */
export function accessKey(prefix = '3526111234567800019955001'): string {
  let body = prefix;
  let n = 0;
  while (body.length < 43) body += String(n++ % 10);
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return body + String(dv >= 10 ? 0 : dv);
}

export const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2})$/;
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Asserts the §5.3 error body. */
export function errorShape(status: number): Record<string, unknown> {
  return { code: status, message: http.STATUS_CODES[status], description: expect.any(String) } as Record<string, unknown>;
}

/** The full default address of spec §2. */
export function address(city = 'Buenos Aires'): Record<string, unknown> {
  return {
    zipcode: '1425',
    street: 'Av. Santa Fe',
    number: '1234',
    floor: '2',
    locality: 'Palermo',
    city,
    province: { code: 'C', name: 'Ciudad Autónoma de Buenos Aires' },
    region: { code: 'AMBA', name: 'AMBA' },
    country: { code: 'AR', name: 'Argentina' },
    reference: 'Next to the bakery',
    between_streets: 'Scalabrini Ortiz y Godoy Cruz',
  };
}

/**
 * The environment that points the real `store` binary at a sandbox the way cron does (credentials from the
 * environment), with its own temp XDG dirs so no test touches another's config, state or data.
 */
export function cliEnv(sandbox: RunningSandbox, name = 'cli'): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), `store-${name}-`));
  return {
    STORE_TOKEN: sandbox.accessToken,
    STORE_ID: String(sandbox.storeId),
    STORE_API_URL: sandbox.apiUrl,
    STORE_APP_NAME: sandbox.appName,
    STORE_APP_ID: sandbox.clientId,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
  };
}

/** One request as the sandbox received it: method, path below `/{version}/{store_id}`, the query string and the version. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The path's API version (`v1`, `2025-03`: docs/platform.md §12); undefined outside the API. */
  version?: string;
}

/**
 * Records every request a sandbox receives (pass `onRequest` to startSandbox), so request-economy tests count
 * what reached the server, whatever the client believes it sent.
 */
export function requestRecorder() {
  const received: Received[] = [];
  return {
    received,
    onRequest({ method, url }: { method: string; url: string }): void {
      const parsed = new URL(url, 'http://sandbox');
      const versioned = /^\/(v\d+|\d{4}-\d{2})\/\d+(\/.*)?$/.exec(parsed.pathname);
      const path = versioned ? (versioned[2] ?? '') : parsed.pathname;
      received.push({ method, path, query: parsed.searchParams, version: versioned?.[1] });
    },
    /** Forgets what was recorded so far; returns the recorded requests. */
    take(): Received[] {
      return received.splice(0, received.length);
    },
  };
}

export const writesOf = (requests: Received[]): Received[] => requests.filter((r) => r.method !== 'GET');

/**
 * Images as the store names them: the sandbox keeps each under a CDN URL named after its file
 * (`https://img.example.com/a.jpg` → `…/products/a-640-0.jpg`, docs/platform.md §12), so tests compare the
 * file names' stems (`a`) of what was sent and what is stored.
 */
export function imageNames(srcs: readonly (string | null | undefined)[]): string[] {
  return srcs.map((s) => storedStems(s ?? '').at(-1)!);
}

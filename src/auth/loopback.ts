import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { AuthError } from '../client/errors.js';
import { UsageError } from '../errors.js';

export const DEFAULT_CALLBACK_PORT = 8976;
const DEFAULT_WAIT_MS = 10 * 60_000;

export interface CallbackListener<T> {
  redirectUri: string;
  /** Settles once: with the exchange's result, or with the reason the login failed. */
  result: Promise<T>;
  close(): Promise<void>;
}

export interface ListenOptions<T> {
  port: number;
  state: string;
  /** Runs on the first redirect that carries a code and the right state; its outcome is shown in the browser. */
  exchange: (code: string) => Promise<T>;
  waitMs?: number;
}

/**
 * The loopback end of the browser flow: `http://127.0.0.1:<port>/callback` receives the redirect with
 * `code` and `state`. A redirect whose state differs from this login's is refused and ends the login, since
 * it was not started by this CLI (a forged or stale redirect).
 */
export async function listenForCallback<T>(options: ListenOptions<T>): Promise<CallbackListener<T>> {
  let settle!: { resolve: (value: T) => void; reject: (error: Error) => void };
  const result = new Promise<T>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // The command may never await `result` if it fails earlier; that must not crash the process.
  result.catch(() => undefined);
  let settled = false;
  let timer: NodeJS.Timeout | undefined;

  const server = createServer((req, res) => {
    void handle(req, res);
  });

  const finish = (outcome: { value: T } | { error: Error }) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if ('error' in outcome) settle.reject(outcome.error);
    else settle.resolve(outcome.value);
    void close();
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      page(res, 404, 'Not found', 'This address only receives the login redirect of the store CLI.');
      return;
    }
    if (settled) {
      page(res, 409, 'Already done', 'This login has already finished; you can close this tab.');
      return;
    }
    const state = url.searchParams.get('state') ?? '';
    if (!sameSecret(state, options.state)) {
      page(res, 400, 'Login refused', 'This redirect does not belong to the login the CLI started; it was refused.');
      finish({
        error: new AuthError(
          'A browser redirect arrived with a state that does not match this login, so it was refused; run `store auth login` again.',
        ),
      });
      return;
    }
    const denied = url.searchParams.get('error');
    if (denied) {
      page(res, 400, 'Login cancelled', 'The authorization was not granted; you can close this tab.');
      finish({ error: new AuthError(`The authorization was not granted in the browser (${denied}).`) });
      return;
    }
    const code = url.searchParams.get('code');
    if (!code) {
      page(res, 400, 'Login failed', 'The redirect carried no authorization code.');
      finish({ error: new AuthError('The browser redirect carried no authorization code; run `store auth login` again.') });
      return;
    }
    settled = true;
    clearTimeout(timer);
    try {
      const value = await options.exchange(code);
      page(res, 200, 'Logged in', 'The store CLI is logged in; you can close this tab.');
      settle.resolve(value);
    } catch (error) {
      page(res, 400, 'Login failed', (error as Error).message);
      settle.reject(error as Error);
    }
    void close();
  }

  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new UsageError(
            `Port ${options.port} on 127.0.0.1 is in use; stop what holds it or pass --port (it must match the app's redirect URL).`,
          ),
        );
      } else reject(error);
    });
    server.listen(options.port, '127.0.0.1', () => resolve());
  });

  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  timer = setTimeout(() => {
    finish({
      error: new AuthError(
        `No login came back from the browser within ${Math.round(waitMs / 60_000)} minutes; run \`store auth login\` again.`,
      ),
    });
  }, waitMs);
  timer.unref();

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { redirectUri: `http://127.0.0.1:${port}/callback`, result, close };
}

function sameSecret(received: string, expected: string): boolean {
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', Connection: 'close' });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head>` +
      `<body><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>`,
  );
}

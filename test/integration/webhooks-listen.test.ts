import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { BIN } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';

/**
 * `store webhooks listen` and `store webhooks trigger` end to end: a sandbox in this process delivering real
 * signed notifications with fast retries, `listen` running as a long-lived child process (the real binary, ended
 * by signals) whose stdout lines are read as they come, and the other commands run in the test's process.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

interface Listener {
  child: ChildProcessWithoutNullStreams;
  url: string;
  lines: string[];
  stderr: () => string;
  /** Resolves with the first stdout line (already seen or to come) that matches. */
  waitForLine(match: (line: string) => boolean, what: string): Promise<string>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const listeners: Listener[] = [];

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms))),
  ]);
}

/** Starts `store webhooks listen …` and waits until it says where it listens (and, registering, what). */
async function listen(args: string[], childEnv: NodeJS.ProcessEnv = env): Promise<Listener> {
  const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', ...args], {
    env: { ...process.env, NO_COLOR: '1', ...childEnv },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const lines: string[] = [];
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  // Decoded as streams, not chunk by chunk: a character split between two chunks stays whole.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    let newline: number;
    while ((newline = stdout.indexOf('\n')) >= 0) {
      const line = stdout.slice(0, newline);
      stdout = stdout.slice(newline + 1);
      lines.push(line);
      for (const w of waiters.filter((w) => w.match(line))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const url = /Ready! Listening on (\S+?), [^\n]*\(Ctrl-C to quit\)\n/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    void exited.then((code) => reject(new Error(`listen exited with ${code}: ${stderr}`)));
  });
  const url = await within(ready, 30_000, 'the listener to start');
  const listener: Listener = {
    child,
    url,
    lines,
    stderr: () => stderr,
    waitForLine: (match, what) => {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return within(new Promise<string>((resolve) => waiters.push({ match, resolve })), 30_000, what);
    },
    stop: (signal = 'SIGINT') => {
      child.kill(signal);
      return within(exited, 30_000, 'the listener to stop');
    },
  };
  listeners.push(listener);
  return listener;
}

/** A receiver that answers each path's requests with the listed statuses in turn (then 200). */
async function receiver(plan: Record<string, number[]>) {
  const requests: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      const path = req.url ?? '';
      requests.push({ path, headers: req.headers, body });
      res.writeHead(plan[path]?.shift() ?? 200).end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const count = (path: string) => requests.filter((r) => r.path === path).length;
  return {
    base,
    requests,
    async waitFor(path: string, n: number) {
      while (count(path) < n) await within(new Promise<void>((resolve) => waiters.push(resolve)), 30_000, `${n} requests on ${path}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sign = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');

async function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.arrayBuffer();
  return res.status;
}

/** "Created order #201 (1000000102) for 1 × SKU …" → the order's number and id. */
function createdOrder(stdout: string): { number: number; id: number } {
  const match = /Created order #(\d+) \((\d{10})\)/.exec(stdout);
  expect(match, stdout).not.toBeNull();
  return { number: Number(match![1]), id: Number(match![2]) };
}

async function webhooksOnStore(): Promise<{ id: number; event: string; url: string }[]> {
  const res = await store('webhooks', 'list', '--json');
  expect(res.code).toBe(0);
  return JSON.parse(res.stdout);
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', webhookRetryBaseMs: 50, host: '127.0.0.1', port: 0 });
  env = { ...cliEnv(sandbox, 'webhooks-listen'), STORE_CLIENT_SECRET: sandbox.clientSecret };
});

afterEach(() => {
  for (const l of listeners.splice(0)) if (l.child.exitCode === null) l.child.kill('SIGKILL');
});

afterAll(async () => {
  await sandbox?.close();
});

describe('store webhooks listen + trigger', () => {
  it('registers on the sandbox, prints the order a trigger creates, and removes its webhooks on Ctrl-C', async () => {
    const listener = await listen([]);
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    // Every documented event (platform.md §7).
    expect(listener.stderr()).toBe(`Ready! Listening on ${listener.url}, 33 webhooks registered (Ctrl-C to quit)\n`);
    const registered = await webhooksOnStore();
    expect(registered).toHaveLength(33);
    expect(registered.map((w) => w.event)).toContain('order/packed');
    expect(new Set(registered.map((w) => w.url))).toEqual(new Set([listener.url]));

    const trigger = await store('webhooks', 'trigger', 'order/created');
    expect(trigger.code).toBe(0);
    const order = createdOrder(trigger.stdout);

    const line = await listener.waitForLine((l) => l.includes(`\torder/created\t${order.id}\t`), 'the order/created line');
    const [time, event, id, summary] = line.split('\t');
    expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$/);
    expect([event, id]).toEqual(['order/created', String(order.id)]);
    // Status and payment state, as the platform keeps them apart (platform.md §4).
    expect(summary).toMatch(new RegExp(`^#${order.number} open/pending \\d+\\.\\d{2} [A-Z]{3}$`));

    expect(await listener.stop('SIGINT')).toBe(0);
    expect(listener.stderr()).toContain('Removed 33 webhooks.');
    expect(await webhooksOnStore()).toEqual([]);
    // Each notification is printed once, although order/created was registered once and delivered at least once.
    expect(listener.lines.filter((l) => l.includes(`\t${order.id}\t`))).toHaveLength(1);
  });

  it('refuses a forged signature with 401, prints a duplicate delivery once (--json lines), and stops on SIGTERM', async () => {
    const listener = await listen(['--json', '--events', 'order/created,order/paid']);
    expect(listener.stderr()).toContain(', 2 webhooks registered (Ctrl-C to quit)\n');

    const trigger = await store('webhooks', 'trigger', 'order/paid');
    expect(trigger.code).toBe(0);
    expect(trigger.stdout).toContain('Marked order');
    const order = createdOrder(trigger.stdout);
    const paid = JSON.parse(await listener.waitForLine((l) => l.includes('"order/paid"'), 'the order/paid line'));
    expect(paid).toMatchObject({ store_id: sandbox.storeId, event: 'order/paid', id: order.id, summary: expect.stringMatching(/ open\/paid /) });
    expect(paid.resource).toMatchObject({ id: order.id, number: order.number, status: 'open', payment_status: 'paid' });
    expect(paid.delivery_id).toEqual(expect.any(String));

    const body = JSON.stringify({ store_id: sandbox.storeId, event: 'order/created', id: order.id });
    expect(await post(listener.url, body, { 'x-linkedstore-hmac-sha256': sign(body, 'not-the-secret'), 'x-store-delivery-id': 'forged' })).toBe(401);
    expect(await post(listener.url, body, { 'x-store-delivery-id': 'unsigned' })).toBe(401);

    const signed = { 'x-linkedstore-hmac-sha256': sign(body, sandbox.clientSecret), 'x-store-delivery-id': 'manual-1' };
    expect(await post(listener.url, body, signed)).toBe(200);
    expect(await post(listener.url, body, signed)).toBe(200);
    // A marker after the duplicate: once it is printed, anything the duplicate or the forgeries caused would be too.
    const marker = JSON.stringify({ store_id: sandbox.storeId, event: 'order/paid', id: order.id });
    expect(await post(listener.url, marker, { 'x-linkedstore-hmac-sha256': sign(marker, sandbox.clientSecret), 'x-store-delivery-id': 'marker' })).toBe(200);
    await listener.waitForLine((l) => l.includes('"delivery_id":"marker"'), 'the marker line');

    const deliveries = listener.lines.map((l) => JSON.parse(l).delivery_id as string);
    expect(deliveries.filter((d) => d === 'manual-1')).toHaveLength(1);
    expect(deliveries).not.toContain('forged');
    expect(deliveries).not.toContain('unsigned');
    expect(listener.stderr()).toContain('Refused a request with 401');
    expect(listener.stderr()).toContain(`Ignored a duplicate of order/created ${order.id} (delivery manual-1).`);

    expect(await listener.stop('SIGTERM')).toBe(0);
    expect(await webhooksOnStore()).toEqual([]);
  });

  it("gets an event through the sandbox's retries to a receiver that answers 500 twice, directly and through --forward-to", async () => {
    const target = await receiver({ '/direct': [500, 500], '/forwarded': [500, 500] });
    try {
      const added = await store('webhooks', 'add', 'order/paid', `${target.base}/direct`, '--header', 'X-Test=direct', '--json');
      expect(added.code).toBe(0);
      const direct = JSON.parse(added.stdout) as { id: number };
      const listener = await listen(['--events', 'order/created', '--forward-to', `${target.base}/forwarded`]);

      const trigger = await store('webhooks', 'trigger', 'order/paid');
      expect(trigger.code).toBe(0);
      const order = createdOrder(trigger.stdout);
      await target.waitFor('/direct', 3);
      await target.waitFor('/forwarded', 3);

      for (const path of ['/direct', '/forwarded']) {
        const attempts = target.requests.filter((r) => r.path === path);
        expect(attempts).toHaveLength(3);
        const event = path === '/direct' ? 'order/paid' : 'order/created';
        for (const a of attempts) {
          expect(JSON.parse(a.body)).toEqual({ store_id: sandbox.storeId, event, id: order.id });
          expect(a.headers['x-linkedstore-hmac-sha256']).toBe(sign(a.body, sandbox.clientSecret));
        }
        // One notification retried: the same delivery id on every attempt.
        expect(new Set(attempts.map((a) => a.headers['x-store-delivery-id'])).size).toBe(1);
      }
      expect(target.requests.find((r) => r.path === '/direct')!.headers['x-test']).toBe('direct');

      // The listener printed the event once, although the store sent it three times.
      await listener.waitForLine((l) => l.includes(`\torder/created\t${order.id}\t`), 'the order/created line');
      expect(listener.lines.filter((l) => l.includes(`\t${order.id}\t`))).toHaveLength(1);
      expect(listener.stderr()).toContain('the store will retry');

      expect(await listener.stop()).toBe(0);
      expect((await webhooksOnStore()).map((w) => w.id)).toEqual([direct.id]);
      expect((await store('webhooks', 'delete', String(direct.id), '--yes')).code).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('prints notifications without an id (domain/updated) and with the theme change (theme/updated), triggered on the sandbox', async () => {
    // A well-formed event it does not know: warned about, sent, and the sandbox's refusal ends the listener after
    // removing what it had registered.
    const refused = await store('webhooks', 'listen', '--events', 'domain/updated,order/shipped');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Warning: order/shipped is not a documented event; --help lists them. Sending it anyway.');
    expect(refused.stderr).toMatch(/Invalid request: event must be one of app\/uninstalled, /);
    expect(await webhooksOnStore()).toEqual([]);

    const json = await listen(['--json', '--events', 'domain/updated,theme/updated']);
    expect(json.stderr()).toContain(', 2 webhooks registered (Ctrl-C to quit)\n');
    const [domain, theme] = await Promise.all([store('webhooks', 'trigger', 'domain/updated'), store('webhooks', 'trigger', 'theme/updated')]);
    expect(domain.code, domain.stderr).toBe(0);
    expect(theme.code, theme.stderr).toBe(0);
    const domainLine = JSON.parse(await json.waitForLine((l) => l.includes('"domain/updated"'), 'the domain/updated line'));
    expect(domainLine).toMatchObject({ store_id: sandbox.storeId, event: 'domain/updated', summary: "the store's domain changed" });
    expect(domainLine).not.toHaveProperty('id');
    const themeLine = JSON.parse(await json.waitForLine((l) => l.includes('"theme/updated"'), 'the theme/updated line'));
    expect(themeLine.summary).toBe(`theme ${themeLine.data.old_theme} → ${themeLine.data.new_theme}`);

    // Hand-signed, without id, to the table output: "-" stands where the id would be.
    expect(await json.stop()).toBe(0);
    const table = await listen(['--no-register', '--events', 'domain/updated']);
    const body = JSON.stringify({ store_id: sandbox.storeId, event: 'domain/updated' });
    expect(await post(table.url, body, { 'x-linkedstore-hmac-sha256': sign(body, sandbox.clientSecret) })).toBe(200);
    const line = await table.waitForLine((l) => l.includes('\tdomain/updated\t'), 'the domain/updated line');
    expect(line.split('\t').slice(1)).toEqual(['domain/updated', '-', "the store's domain changed"]);
    expect(await table.stop()).toBe(0);
  });

  it("checks signatures with the profile's client secret when STORE_CLIENT_SECRET is not set", async () => {
    const { STORE_TOKEN: token, STORE_ID: storeId, STORE_API_URL: apiUrl, STORE_APP_NAME: appName, STORE_APP_ID: appId, STORE_CLIENT_SECRET: secret, ...xdg } = env;
    const login = await runInProcess(
      ['auth', 'login', '--with-token', '--profile', 'work', '--store-id', storeId!, '--api-url', apiUrl!, '--app-name', appName!, '--client-id', appId!, '--insecure-storage'],
      { env: { ...xdg, STORE_CLIENT_SECRET: secret }, input: `${token}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    const listener = await listen(['--profile', 'work', '--events', 'order/created'], { ...xdg, STORE_CLIENT_SECRET: '' });
    expect(listener.stderr()).toContain(', 1 webhook registered (Ctrl-C to quit)\n');

    const order = createdOrder((await store('webhooks', 'trigger', 'order/created')).stdout);
    await listener.waitForLine((l) => l.includes(`\torder/created\t${order.id}\t`), 'the order/created line');
    expect(listener.stderr()).not.toContain('Refused');
    const body = JSON.stringify({ store_id: sandbox.storeId, event: 'order/created', id: order.id });
    expect(await post(listener.url, body, { 'x-linkedstore-hmac-sha256': sign(body, 'not-the-secret') })).toBe(401);
    expect(await listener.stop()).toBe(0);
  });

  it('refuses to listen without a client secret (exit 4) and to trigger what the sandbox cannot do (exit 2)', async () => {
    const { STORE_CLIENT_SECRET: _omitted, ...withoutSecret } = env;
    const noSecret = await runInProcess(['webhooks', 'listen'], { env: { ...withoutSecret, STORE_CLIENT_SECRET: '' } });
    expect(noSecret.code).toBe(4);
    expect(noSecret.stderr).toContain('has no client secret to check signatures with; set STORE_CLIENT_SECRET');

    const uninstall = await store('webhooks', 'trigger', 'app/uninstalled');
    expect(uninstall.code).toBe(2);
    expect(uninstall.stderr).toContain("The sandbox cannot uninstall the CLI's own app");
    expect(uninstall.stderr).toContain('POST /sandbox/apps/CLIENT_ID/uninstall');

    const unknown = await store('webhooks', 'trigger', 'order/shipped');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('EVENT "order/shipped" is not a documented webhook event; --help lists them.');
    const typo = await store('webhooks', 'trigger', 'order/payed');
    expect(typo.stderr).toContain('EVENT "order/payed" is not a documented webhook event; did you mean order/paid or order/packed?');
  });

  it('refuses to trigger on a store that is not the sandbox', async () => {
    // A stand-in for a real store on loopback: it has no /sandbox/status.
    const notSandbox = http.createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 404, message: 'Not Found', description: 'No route' }));
    });
    await new Promise<void>((resolve) => notSandbox.listen(0, '127.0.0.1', resolve));
    try {
      const apiUrl = `http://127.0.0.1:${(notSandbox.address() as AddressInfo).port}`;
      const res = await runInProcess(['webhooks', 'trigger', 'order/created'], { env: { ...env, STORE_API_URL: apiUrl } });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('`store webhooks trigger` works only on the sandbox');
      expect(res.stdout).toBe('');
    } finally {
      await new Promise<void>((resolve) => notSandbox.close(() => resolve()));
    }
  });
});

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { BIN } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, imageNames, requestRecorder, writesOf } from '../helpers/sandbox.js';
import { hasScript, runOnTerminal } from '../helpers/terminal.js';

/**
 * Issue 16: nothing wrong reaches the store, nothing hostile reaches the terminal, no secret leaks. Each test
 * runs the real binary against a sandbox (or a hostile server) and fails on the behaviour before the fix.
 */

let sandbox: RunningSandbox;
let dir: string;
const recorder = requestRecorder();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hardening-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', onRequest: recorder.onRequest });
});
afterAll(async () => {
  await sandbox?.close();
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function run(args: string[], env: NodeJS.ProcessEnv = cliEnv(sandbox, 'hardening')) {
  recorder.take();
  const r = await runInProcess(args, { env });
  return { ...r, received: recorder.take() };
}

describe('money is never rounded', () => {
  it('variants sync: 2.500 is a row error with file, line and column; exit 2 and no request', async () => {
    const sku = sandbox.state.defaultStore()!.products.list().flatMap((p) => p.variants).find((v) => v.sku)!.sku!;
    const r = await run(['variants', 'sync', file('sync-price.csv', `sku,price\n${sku},2.500\n`)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('sync-price.csv, line 2, column 2 (price): "2.500" has 3 decimals');
    expect(r.stderr).toContain('2500? use 2500 or 2500.00');
    expect(r.received).toEqual([]);
  });

  it('products create and variants update flags: --price 0.004 / 10.005 exit 2 before any request', async () => {
    const created = await run(['products', 'create', '--name', 'Centavo', '--price', '0.004']);
    expect(created.code).toBe(2);
    expect(created.stderr).toMatch(/--price "0\.004" has 3 decimals.*Write 0\.00 or 0\.01/);
    expect(writesOf(created.received)).toEqual([]);
    const product = sandbox.state.defaultStore()!.products.list().find((p) => p.variants.length > 0)!;
    const updated = await run(['variants', 'update', String(product.id), String(product.variants[0]!.id), '--price', '10.005']);
    expect(updated.code).toBe(2);
    expect(updated.stderr).toMatch(/--price "10\.005" has 3 decimals/);
    expect(writesOf(updated.received)).toEqual([]);
  });

  it('every import dialect: a price with 3 decimals is exit 2 and nothing is sent', async () => {
    const fixtures = new URL('../fixtures/csv/malformed/', import.meta.url).pathname;
    for (const name of ['price-three-decimals.csv', 'admin-es-price-thousands-dot.csv', 'admin-pt-price-below-cent.csv', 'shopify-price-three-decimals.csv']) {
      const r = await run(['products', 'import', `${fixtures}${name}`]);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(new RegExp(`${name.replace('.', '\\.')}, line 2, column \\d+ \\([^)]+\\): "[\\d.,]+" has 3 decimals`));
      expect(r.received, name).toEqual([]);
    }
  });
});

describe('terminal safety', () => {
  it.skipIf(!hasScript)('orders list on a terminal prints no ESC byte from a hostile customer name; --json keeps it exact', async () => {
    const order = sandbox.state.defaultStore()!.orders.list()[0]!;
    const hostile = 'Eve\u001b]0;pwned\u0007\u001b[2J';
    (order as { customer: { name: string } }).customer.name = hostile;
    const tty = await runOnTerminal(['orders', 'list', '--all'], { ...cliEnv(sandbox, 'hardening'), COLUMNS: '400' }); // wide: the name is not cut
    expect(tty.code, tty.output).toBe(0);
    expect(tty.output).toContain('Eve\\x1b]0;pwned\\x07\\x1b[2J');
    // NO_COLOR: the CLI adds no escape sequence of its own, so any ESC would be the data's.
    expect(tty.output).not.toContain('\u001b');
    expect(tty.output).not.toContain('\u0007');
    const json = await run(['orders', 'get', String(order.id), '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain(JSON.stringify(hostile).slice(1, -1));
  });

  it('an error description with control characters is shown escaped', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 422, message: 'Unprocessable Entity', description: 'bad\u001b[2J\u001b]0;x\u0007 value' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await runInProcess(['products', 'get', '12'], { env: { ...cliEnv(sandbox, 'hardening'), STORE_API_URL: url } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('bad\\x1b[2J\\x1b]0;x\\x07 value');
      expect(r.stderr).not.toContain('\u001b');
    } finally {
      server.close();
    }
  });
});

describe('transport', () => {
  it('refuses plain http to a host other than loopback, naming it, unless --allow-insecure-http', async () => {
    const env = { ...cliEnv(sandbox, 'hardening'), STORE_API_URL: 'http://example.com' };
    const r = await runInProcess(['orders', 'list'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Refusing to send credentials over plain HTTP to example\.com \(STORE_API_URL\)/);
    const login = await runInProcess(['auth', 'login', '--with-token', '--store-id', '1', '--api-url', 'http://shop.example.com:8080'], {
      env: cliEnv(sandbox, 'hardening-login'),
      input: 'a-token-that-must-stay-home',
    });
    expect(login.code).toBe(2);
    expect(login.stderr).toMatch(/plain HTTP to shop\.example\.com:8080 \(--api-url\)/);
    // Allowed on purpose: the request is attempted (and fails to resolve/connect, not refused up front).
    const allowed = await runInProcess(['orders', 'list', '--allow-insecure-http'], { env: { ...env, STORE_API_URL: 'http://no-such-host.invalid' } });
    expect(allowed.stderr).not.toMatch(/Refusing/);
  });

  it('store api on a 3xx prints the status and Location and exits 1', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(301, { location: 'https://user:hunter22@elsewhere.example.com/v1/1/orders' });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await runInProcess(['api', 'GET', '/orders', '-i'], { env: { ...cliEnv(sandbox, 'hardening'), STORE_API_URL: url } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/with 301 \(a redirect to https:\/\/\[REDACTED\]@elsewhere\.example\.com\/v1\/1\/orders\)/);
      expect(r.stdout).toMatch(/^HTTP\/1\.1 301/);
      expect(r.stdout + r.stderr).not.toContain('hunter22');
    } finally {
      server.close();
    }
  });
});

describe('special files and signals', () => {
  it('a named pipe is read once its writer comes, and SIGTERM ends a wait for a writer that never comes', async () => {
    const fifo = join(dir, 'catalog.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // A writer that comes a second after the import started waiting.
    const writer = setTimeout(() => writeFileSync(fifo, 'handle,name,sku,price\nfifo-cap,Fifo Cap,FIFO-CAP-1,10.00\n'), 1000);
    const r = await run(['products', 'import', fifo, '--dry-run']);
    clearTimeout(writer);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Would import catalog\.fifo/);
    expect(r.code).toBe(0);
    expect(r.received.filter((q) => q.method !== 'GET')).toEqual([]);

    const lonely = join(dir, 'lonely.fifo');
    expect(spawnSync('mkfifo', [lonely]).status).toBe(0);
    const child = spawn(process.execPath, [BIN, 'products', 'import', lonely], { env: { ...process.env, NO_COLOR: '1', ...cliEnv(sandbox, 'hardening-fifo') } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const started = Date.now();
    child.kill('SIGTERM');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
    // Still waiting for its input, nothing to flush: it ends by the signal itself (a shell sees 143 either way).
    expect(code === 143 || signal === 'SIGTERM', `exit ${code}, signal ${signal}`).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('SIGTERM during an import exits 143 and leaves the journal and no lock', async () => {
    const slow = await startSandbox({ seed: 'empty', rate: 'off', faults: 'latency=150' });
    try {
      const env = { ...process.env, NO_COLOR: '1', ...cliEnv(slow, 'hardening-term') };
      const rows = Array.from({ length: 40 }, (_, i) => `termino-${i},Termino ${i},T-${i},10\n`).join('');
      const csv = file('sigterm.csv', `handle,name,sku,price\n${rows}`);
      const child = spawn(process.execPath, [BIN, 'products', 'import', csv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const imports = join(env.XDG_STATE_HOME!, 'store', 'imports');
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // Once the journal exists, writes are under way.
      while (!(existsSync(imports) && readdirSync(imports).some((f) => f.endsWith('.jsonl') && statSync(join(imports, f)).size > 200))) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(143);
      expect(readdirSync(imports).filter((f) => f.endsWith('.lock'))).toEqual([]);
      const resumed = await runInProcess(['products', 'import', csv, '--resume'], { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(slow.state.defaultStore()!.products.list().filter((p) => String(Object.values(p.handle)[0]).startsWith('termino-'))).toHaveLength(40);
    } finally {
      await slow.close();
    }
  });
});

describe('one import per store, however it is reached', () => {
  it('an import through localhost is refused while one through 127.0.0.1 runs', async () => {
    const target = new URL(sandbox.apiUrl);
    // The first import goes through a proxy that holds its writes, so it keeps the lock as long as needed.
    const heldWrites: (() => void)[] = [];
    const proxy = createServer((req, res) => {
      const forward = () => {
        const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        req.pipe(upstream);
      };
      if (req.method === 'GET') forward();
      else heldWrites.push(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const env = { ...process.env, NO_COLOR: '1', ...cliEnv(sandbox, 'hardening-lock') };
      const csv = file('parallel.csv', 'handle,name,sku,price\nparalela,Paralela,PAR-1,10\n');
      const first = spawn(process.execPath, [BIN, 'products', 'import', csv], {
        env: { ...env, STORE_API_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const firstDone = new Promise<number | null>((resolve) => first.on('close', (code) => resolve(code)));
      while (heldWrites.length === 0) await new Promise((r) => setTimeout(r, 25));
      const viaLocalhost = { ...env, STORE_API_URL: sandbox.apiUrl.replace('127.0.0.1', 'localhost') };
      const second = await run(['products', 'import', csv], viaLocalhost);
      expect(second.code, second.stdout + second.stderr).toBe(1);
      expect(second.stderr).toMatch(/Another `store products import` for this store is running \(pid \d+/);
      expect(writesOf(second.received)).toEqual([]);
      for (const release of heldWrites.splice(0)) release();
      const releaser = setInterval(() => heldWrites.splice(0).forEach((release) => release()), 20);
      expect(await firstDone).toBe(0);
      clearInterval(releaser);
      const made = sandbox.state.defaultStore()!.products.list().filter((p) => Object.values(p.handle).includes('paralela'));
      expect(made).toHaveLength(1);
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });
});

describe('a concurrent writer on another machine', () => {
  it('an image it added at the same time is found on the product twice and reported (exit 3), at no cost otherwise', async () => {
    const target = new URL(sandbox.apiUrl);
    const src = 'https://img.example.com/concurrente.jpg';
    let raced = false;
    // Another writer adds the same image just before this import's own image request reaches the store.
    const proxy = createServer((req, res) => {
      const forward = () => {
        const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        req.pipe(upstream);
      };
      if (!raced && req.method === 'POST' && /\/products\/\d+\/images$/.test(req.url ?? '')) {
        raced = true;
        fetch(`${sandbox.apiUrl}${req.url}`, {
          method: 'POST',
          headers: { authentication: `bearer ${sandbox.accessToken}`, 'user-agent': 'Other (1)', 'content-type': 'application/json' },
          body: JSON.stringify({ src }),
        }).then(forward, forward);
        return;
      }
      forward();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const env = { ...cliEnv(sandbox, 'hardening-race'), STORE_API_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
      // The first 9 images ride in the product's POST; the 10th is the image request the other writer races.
      const first = Array.from({ length: 9 }, (_, i) => `https://img.example.com/carrera-${i}.jpg`).join('|');
      const csv = file('race.csv', `handle,name,sku,price,images\ncarrera,Carrera,CAR-1,10,${first}|${src}\n`);
      const r = await runInProcess(['products', 'import', csv], { env });
      expect(r.code, r.stdout + r.stderr).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`race\\.csv, line 2 \\(carrera\\): image ${src.replace(/[.]/g, '\\.')} is on product \\d+ 2 times: another import added it at the same time`));
      const product = sandbox.state.defaultStore()!.products.list().find((p) => Object.values(p.handle).includes('carrera'))!;
      expect(imageNames(product.images.map((i) => i.src)).filter((n) => n === imageNames([src])[0])).toHaveLength(2);
      // Without a concurrent writer the same import reads nothing more: a re-import is unchanged, exit 0.
      const again = await run(['products', 'import', csv]);
      expect(again.code, again.stderr).toBe(0);
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });
});

describe('sandbox', () => {
  it('keeps its data directory 0700 and every file in it 0600', async () => {
    const stateDir = join(dir, 'sandbox-data');
    const own = await startSandbox({ seed: 'demo', rate: 'off', stateDir });
    await own.close();
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    const files = readdirSync(stateDir);
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(statSync(join(stateDir, name)).mode & 0o777, name).toBe(0o600);
  });

  it('admin endpoints refuse a body that is not application/json (415), so a web page cannot post to them', async () => {
    const apps = () => sandbox.state.apps.list().length;
    const before = apps();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await fetch(`${sandbox.apiUrl}/sandbox/apps`, { method: 'POST', headers: { 'content-type': type }, body: '{"name":"Evil"}' });
      expect(res.status, type).toBe(415);
    }
    const none = await fetch(`${sandbox.apiUrl}/sandbox/stores`, { method: 'POST', body: '{"name":"Evil"}' });
    expect(none.status).toBe(415);
    expect(apps()).toBe(before);
    const ok = await fetch(`${sandbox.apiUrl}/sandbox/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Fine"}' });
    expect(ok.status).toBe(201);
  });
});

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv, requestRecorder, type TestSandbox } from '../helpers/sandbox.js';
import { type OrderJson, ndjsonOrders, versionKey } from '../helpers/order-versions.js';

/**
 * `store orders follow` against a real sandbox: orders created and updated between polls, each version
 * (id, updated_at) delivered once across runs and in updated_at order, a failing --exec that holds the
 * checkpoint, one request for a poll with nothing new, and SIGKILL at random moments of the real binary.
 */


let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
const recorder = requestRecorder();
const store = (...args: string[]) => runInProcess(args, { env });

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0, onRequest: recorder.onRequest });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'follow');
});
afterAll(() => sandbox?.close());

const key = versionKey;
const lines = ndjsonOrders;

/** Every order's current version, as the API lists it. */
async function serverVersions(): Promise<Set<string>> {
  const versions = new Set<string>();
  for (let page = 1; ; page++) {
    const res = await api.get<OrderJson[]>('/orders', { query: { page, per_page: 200 } });
    if (res.status === 404) return versions;
    for (const o of res.body) versions.add(key(o));
    if (res.body.length < 200) return versions;
  }
}

let variantId: number;
async function stockedVariant(): Promise<number> {
  if (variantId) return variantId;
  const products = (await api.get<{ variants: { id: number; stock: number | null; stock_management: boolean }[] }[]>('/products', { query: { per_page: 200 } })).body;
  const variant = products.flatMap((p) => p.variants).find((v) => !v.stock_management || (v.stock ?? 0) >= 500);
  variantId = variant?.id ?? products.flatMap((p) => p.variants).find((v) => !v.stock_management)!.id;
  return variantId;
}

async function createOrder(): Promise<OrderJson> {
  const res = await api.post<OrderJson>('/orders', { customer: { name: 'Follow Buyer', email: 'follow@example.com' }, products: [{ variant_id: await stockedVariant(), quantity: 1 }] });
  expect(res.status).toBe(201);
  return res.body;
}

async function touch(id: number, note: string): Promise<OrderJson> {
  const res = await api.put<OrderJson>(`/orders/${id}`, { owner_note: note });
  expect(res.status).toBe(200);
  return res.body;
}

const times = (orders: OrderJson[]) => orders.map((o) => Number(key(o).split('@')[1]));

describe('store orders follow', () => {
  it('delivers every version once, oldest first, across runs with orders created and updated between polls', async () => {
    const first = await store('orders', 'follow', '--once', '--name', 'feed', '--since', '2000-01-01');
    expect(first.code).toBe(0);
    const firstOrders = lines(first.stdout);
    expect(new Set(firstOrders.map(key))).toEqual(await serverVersions());
    expect(times(firstOrders)).toEqual([...times(firstOrders)].sort((a, b) => a - b));

    const created = await createOrder();
    // A second later, so the update is a new version (updated_at has whole seconds).
    await new Promise((r) => setTimeout(r, 1100));
    const updated = await touch(firstOrders[0]!.id, 'changed between polls');
    const second = await store('orders', 'follow', '--once', '--name', 'feed');
    expect(second.code).toBe(0);
    expect(lines(second.stdout).map(key)).toEqual([key(created), key(updated)]);

    const third = await store('orders', 'follow', '--once', '--name', 'feed');
    expect(third.stdout).toBe('');
  });

  it('a poll with nothing new sends exactly one request', async () => {
    await store('orders', 'follow', '--once', '--name', 'quiet', '--since', '2000-01-01');
    recorder.take();
    const again = await store('orders', 'follow', '--once', '--name', 'quiet');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    const requests = recorder.take();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe('/orders');
    expect(requests[0]!.query.get('per_page')).toBe('200');
    expect(requests[0]!.query.get('updated_at_min')).not.toBeNull();
  });

  it('a failing --exec stops the feed, exits 1 and leaves the checkpoint where it was; the order is offered again', async () => {
    await store('orders', 'follow', '--once', '--name', 'exec', '--since', '2000-01-01', '--exec', 'cat > /dev/null');
    const checkpointDir = join(env.XDG_STATE_HOME!, 'store', 'follow');
    const file = join(checkpointDir, readdirSync(checkpointDir)[0]!, 'exec.json');
    const before = readFileSync(file, 'utf8');
    const order = await createOrder();
    const failed = await store('orders', 'follow', '--once', '--name', 'exec', '--exec', 'cat > /dev/null; exit 7');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`--exec exited with 7 on order ${order.id}`);
    expect(readFileSync(file, 'utf8')).toBe(before);

    const retried = await store('orders', 'follow', '--once', '--name', 'exec', '--exec', 'cat; echo " id=$STORE_ORDER_ID"');
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain(`"id":${order.id}`);
    expect(retried.stdout).toContain(` id=${order.id}`);
    expect(readFileSync(file, 'utf8')).not.toBe(before);
  });

  it('--output: lines appended but not checkpointed (a kill in between) are recorded, a line cut short is removed and delivered again', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'store-follow-recover-')), 'orders.ndjson');
    const follow = () => store('orders', 'follow', '--once', '--name', 'recover', '--since', '2000-01-01', '--output', out);
    expect((await follow()).code).toBe(0);
    const checkpointDir = join(env.XDG_STATE_HOME!, 'store', 'follow');
    const checkpoint = join(checkpointDir, readdirSync(checkpointDir)[0]!, 'recover.json');
    const before = { checkpoint: readFileSync(checkpoint, 'utf8'), file: readFileSync(out, 'utf8') };
    const order = await createOrder();
    expect((await follow()).code).toBe(0);
    const after = readFileSync(out, 'utf8');
    expect(after.slice(before.file.length)).toContain(`"id":${order.id},`);

    // Killed after the append, before the checkpoint: the next run finds the line and delivers nothing again.
    writeFileSync(checkpoint, before.checkpoint);
    expect((await follow()).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(after);

    // Killed in the middle of the append: the half line goes, the version comes again whole.
    writeFileSync(checkpoint, before.checkpoint);
    writeFileSync(out, after.slice(0, before.file.length + 40));
    expect((await follow()).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(after);
  });

  it('refuses a bad --interval, --name or --since before any request', async () => {
    recorder.take();
    for (const args of [['--interval', '0s'], ['--name', '../x'], ['--since', 'last week']]) {
      const result = await store('orders', 'follow', '--once', ...args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(args[0]);
    }
    expect(recorder.take()).toHaveLength(0);
  });
});

describe('store orders follow on a store past what a poll holds in memory', () => {
  it('5,000 changed orders: delivered once each, in updated_at order, from one read of the store (past 2,000 held on disk); then one request', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const bigRecorder = requestRecorder();
    const big = await startSandbox({ seed: 'empty', rate: 'off', host: '127.0.0.1', port: 0, orders: 5000, onRequest: bigRecorder.onRequest });
    try {
      const bigEnv = cliEnv(big, 'follow-big');
      const first = await runInProcess(['orders', 'follow', '--once', '--since', '2000-01-01'], { env: bigEnv });
      expect(first.code, first.stderr).toBe(0);
      const orders = lines(first.stdout);
      expect(orders).toHaveLength(5000);
      expect(new Set(orders.map((o) => o.id)).size).toBe(5000);
      const at = times(orders);
      expect(at).toEqual([...at].sort((a, b) => a - b));
      // One read: the pages of 5,000 orders (each re-listing the one order of its cursor's second), nothing read twice.
      const reads = bigRecorder.take().filter((r) => r.path === '/orders');
      expect(reads.every((r) => !r.query.has('updated_at_max'))).toBe(true);
      expect(reads.length).toBeLessThanOrEqual(Math.ceil(5000 / 199) + 1);
      const again = await runInProcess(['orders', 'follow', '--once'], { env: bigEnv });
      expect(again.stdout).toBe('');
      expect(bigRecorder.take()).toHaveLength(1);
    } finally {
      await big.close();
    }
  }, 120_000);
});

describe('store orders follow as a long-running follower (real binary)', () => {
  it('SIGTERM between polls ends it with exit 0, its checkpoint holding what it delivered', async () => {
    const runEnv = cliEnv(sandbox, 'follow-term');
    const child = spawn(process.execPath, [BIN, 'orders', 'follow', '--name', 'term', '--since', '2000-01-01', '--interval', '1h'], {
      env: { ...process.env, ...runEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const code = await new Promise<number | null>((resolve) => {
      child.on('close', resolve);
      // The first poll's versions are out: it now waits for the next poll.
      const check = setInterval(() => {
        if (stdout.split('\n').length - 1 >= 100) {
          clearInterval(check);
          setTimeout(() => child.kill('SIGTERM'), 200);
        }
      }, 20);
    });
    expect(code).toBe(0);
    const again = await runCli(['orders', 'follow', '--name', 'term', '--once'], { env: runEnv });
    expect(again.code).toBe(0);
    // Whatever the signal left undelivered comes in the next run, and nothing twice.
    const both = [...lines(stdout), ...lines(again.stdout)].map(key);
    expect(both.length).toBe(new Set(both).size);
    expect(new Set(both)).toEqual(await serverVersions());
  }, 60_000);
});

describe('store orders follow under SIGKILL (real binary)', () => {
  /** Starts the follower, kills it with SIGKILL after `ms`; resolves when it is gone. */
  function killedRun(args: string[], runEnv: NodeJS.ProcessEnv, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...runEnv }, stdio: 'ignore' });
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      child.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  it('every version the server had is in the output once, in updated_at order within each run', async () => {
    const runEnv = cliEnv(sandbox, 'follow-kill');
    const out = join(mkdtempSync(join(tmpdir(), 'store-follow-out-')), 'orders.ndjson');
    const args = ['orders', 'follow', '--name', 'kill', '--output', out, '--since', '2000-01-01'];
    const expected = new Set<string>();
    const runs: OrderJson[][] = [];
    let linesBefore = 0;
    const completeLines = () => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').slice(0, -1) : []);
    const collect = () => {
      const all = completeLines();
      runs.push(all.slice(linesBefore).map((l) => JSON.parse(l) as OrderJson));
      linesBefore = all.length;
    };
    // Seeded, so a failure can be replayed.
    let seed = 21;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 2; i++) await createOrder();
      const all = [...(await serverVersions())];
      for (let i = 0; i < 2; i++) await touch(Number(all[Math.floor(random() * all.length)]!.split('@')[0]), `round ${round}`);
      for (const v of await serverVersions()) expected.add(v);
      await killedRun([...args, '--interval', '1s'], runEnv, Math.floor(random() * 1500));
      // The lines the killed run completed belong to it; a line cut short is the next run's to remove.
      const all2 = completeLines();
      runs.push(all2.slice(linesBefore).map((l) => JSON.parse(l) as OrderJson));
      linesBefore = all2.length;
      // A run that is not killed delivers whatever the killed one did not.
      const drain = await runCli([...args, '--once'], { env: runEnv });
      expect(drain.code, drain.stderr).toBe(0);
      collect();
    }

    const emitted = runs.flat().map(key);
    expect(emitted.length).toBe(new Set(emitted).size);
    expect(new Set(emitted)).toEqual(expected);
    for (const run of runs) expect(times(run)).toEqual([...times(run)].sort((a, b) => a - b));
    // The whole file is whole lines.
    expect(readFileSync(out, 'utf8').endsWith('\n')).toBe(true);
  }, 120_000);
});

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { BIN } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { imageNames, requestRecorder } from '../helpers/sandbox.js';

/**
 * The nightly import must end with exactly the file's catalog whatever happens on the way: injected 5xx,
 * connection resets and "committed but the answer was lost", or the process being SIGKILLed and resumed.
 * The catalog is checked in the sandbox's own state (not through the faulty API).
 */

interface Expected {
  handle: string;
  skus: string[];
  images: string[];
  category: string;
  stock: Record<string, number>;
}

/** A catalog of `count` products: every 4th with three variants, every 10th with an image, in three categories. */
function catalog(count: number): { csv: string; expected: Expected[] } {
  const lines = ['handle,name,categories,images,option1_name,option1_value,sku,price,stock'];
  const expected: Expected[] = [];
  const categories = ['Ropa > Remeras', 'Hogar', 'Ropa'];
  for (let i = 1; i <= count; i++) {
    const handle = `producto-${i}`;
    const category = categories[i % 3]!;
    const image = i % 10 === 0 ? `https://img.example.com/${i}.jpg` : '';
    if (i % 4 === 0) {
      const sizes = ['S', 'M', 'L'];
      const skus = sizes.map((s) => `P${i}-${s}`);
      sizes.forEach((size, k) => {
        const first = k === 0;
        lines.push(
          `${handle},${first ? `Producto ${i}` : ''},${first ? category : ''},${first ? image : ''},Talle,${size},${skus[k]},${100 + i}.50,${k + 1}`,
        );
      });
      expected.push({ handle, skus, images: image ? [image] : [], category, stock: Object.fromEntries(skus.map((s, k) => [s, k + 1])) });
    } else {
      lines.push(`${handle},Producto ${i},${category},${image},,,P${i},${100 + i},${i % 7}`);
      expected.push({ handle, skus: [`P${i}`], images: image ? [image] : [], category, stock: { [`P${i}`]: i % 7 } });
    }
  }
  return { csv: `${lines.join('\n')}\n`, expected };
}

/** The sandbox's state is exactly the expected catalog: every product once, no duplicate variant, image or category. */
function checkStore(sandbox: RunningSandbox, expected: Expected[]): void {
  const store = sandbox.state.defaultStore()!;
  const products = store.products.list();
  const categories = store.categories.list();
  expect(categories.map((c) => `${c.parent === null ? '' : '>'}${Object.values(c.name)[0]}`).sort()).toEqual(['>Remeras', 'Hogar', 'Ropa']);
  const pathOf = (id: number): string => {
    const c = categories.find((x) => x.id === id)!;
    const name = Object.values(c.name)[0]!;
    return c.parent === null ? name : `${pathOf(c.parent)} > ${name}`;
  };
  expect(products).toHaveLength(expected.length);
  const byHandle = new Map(products.map((p) => [Object.values(p.handle)[0]!, p]));
  for (const e of expected) {
    const p = byHandle.get(e.handle);
    expect(p, e.handle).toBeDefined();
    expect(p!.variants.map((v) => v.sku), e.handle).toEqual(e.skus);
    expect(imageNames(p!.images.map((i) => i.src)), e.handle).toEqual(imageNames(e.images));
    expect(p!.categories.map(pathOf), e.handle).toEqual([e.category]);
    for (const v of p!.variants) expect(v.inventory_levels.reduce((n, l) => n + l.stock, 0), v.sku!).toBe(e.stock[v.sku!]);
  }
}

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function envFor(s: RunningSandbox, dir: string) {
  return {
    STORE_TOKEN: s.accessToken,
    STORE_ID: String(s.storeId),
    STORE_API_URL: s.apiUrl,
    STORE_APP_NAME: s.appName,
    STORE_APP_ID: s.clientId,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
  };
}

describe('products import under faults', () => {
  it('1,000 products through 10% 5xx, resets and lost answers end as exactly the catalog of the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-faults-'));
    const recorder = requestRecorder();
    sandbox = await startSandbox({ seed: 'empty', rate: 'off', faults: '5xx=0.1,reset=0.03,lost=0.03,seed=11', onRequest: recorder.onRequest });
    const { csv, expected } = catalog(1000);
    const file = join(dir, 'catalog.csv');
    writeFileSync(file, csv);
    const r = await runInProcess(['products', 'import', file], { env: envFor(sandbox, dir) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1000 created, 0 updated, 0 unchanged, 0 failed/);
    // Faults did happen, and were absorbed.
    expect(Number(/\((\d+) retried\)/.exec(r.stdout)?.[1])).toBeGreaterThan(0);
    // Creates whose answer was lost were looked up by handle before being sent again.
    const received = recorder.take();
    const lookups = received.filter((q) => q.method === 'GET' && q.path === '/products' && q.query.has('handle'));
    expect(lookups.length).toBeGreaterThan(0);
    expect(received.filter((q) => q.method === 'POST' && q.path === '/products').length).toBeGreaterThanOrEqual(1000);
    checkStore(sandbox, expected);
  }, 180_000);
});

describe('products import killed and resumed', () => {
  it('SIGKILL at 5 random points, then --resume each time, ends as exactly the catalog of the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-kill-'));
    // A little latency so that the kills land in the middle of the work.
    sandbox = await startSandbox({ seed: 'empty', rate: 'off', faults: 'latency=2-6' });
    const { csv, expected } = catalog(300);
    const file = join(dir, 'catalog.csv');
    writeFileSync(file, csv);
    const env = { ...process.env, NO_COLOR: '1', ...envFor(sandbox, dir) };
    const journalDir = join(dir, 'state', 'store', 'imports');
    const journalLines = () => {
      if (!existsSync(journalDir)) return 0;
      const name = readdirSync(journalDir).find((f) => f.endsWith('.jsonl'));
      return name ? readFileSync(join(journalDir, name), 'utf8').split('\n').length - 1 : 0;
    };
    // About 300 creates (each product with its variants and images in one POST) and 300 product ends are
    // journaled, beside the categories; kill at 5 random points among them.
    const points = Array.from({ length: 5 }, () => 20 + Math.floor(Math.random() * 520)).sort((a, b) => a - b);
    const kills: { at: number; lines: number; code: number | null; signal: string | null }[] = [];
    for (const [i, point] of points.entries()) {
      const args = [BIN, 'products', 'import', file, '--quiet', ...(i > 0 ? ['--resume'] : [])];
      const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.on('close', (code, signal) => resolve({ code, signal })),
      );
      const watch = setInterval(() => {
        if (journalLines() >= point) child.kill('SIGKILL');
      }, 3);
      const end = await ended;
      clearInterval(watch);
      kills.push({ at: point, lines: journalLines(), ...end });
      // Either killed, or it finished before reaching the point: never an error.
      expect(end.signal === 'SIGKILL' || end.code === 0, `${JSON.stringify(kills)} ${stderr}`).toBe(true);
    }
    expect(kills.filter((k) => k.signal === 'SIGKILL').length, JSON.stringify(kills)).toBeGreaterThanOrEqual(3);
    const last = await runInProcess(['products', 'import', file, '--resume'], { env: envFor(sandbox, dir) });
    expect(last.code, last.stderr).toBe(0);
    checkStore(sandbox, expected);
    // Nothing is left to do: a new import of the file plans no write.
    const again = await runInProcess(['products', 'import', file, '--dry-run'], { env: envFor(sandbox, dir) });
    expect(again.stdout, JSON.stringify(kills)).toMatch(/0 created, 0 updated, 300 unchanged, 0 failed/);
    expect(again.stdout).toMatch(/0 would be sent/);
  }, 180_000);
});

describe('products import interrupted with Ctrl-C', () => {
  it('stops after the requests in flight, journals the stop, exits 130; --resume finishes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-int-'));
    sandbox = await startSandbox({ seed: 'empty', rate: 'off', faults: 'latency=5-10' });
    const { csv, expected } = catalog(120);
    const file = join(dir, 'catalog.csv');
    writeFileSync(file, csv);
    const env = { ...process.env, NO_COLOR: '1', ...envFor(sandbox, dir) };
    const journalDir = join(dir, 'state', 'store', 'imports');
    const journal = () => {
      if (!existsSync(journalDir)) return [];
      const name = readdirSync(journalDir).find((f) => f.endsWith('.jsonl'));
      return name ? readFileSync(join(journalDir, name), 'utf8').split('\n').filter(Boolean) : [];
    };
    const child = spawn(process.execPath, [BIN, 'products', 'import', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const watch = setInterval(() => {
      if (journal().length >= 40) {
        clearInterval(watch);
        child.kill('SIGINT');
      }
    }, 3);
    const code = await ended;
    clearInterval(watch);
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/--resume/);
    expect(JSON.parse(journal().at(-1)!)).toMatchObject({ t: 'end', interrupted: true });
    expect(sandbox.state.defaultStore()!.products.list().length).toBeLessThan(120);
    const resumed = await runInProcess(['products', 'import', file, '--resume'], { env: envFor(sandbox, dir) });
    expect(resumed.code, resumed.stderr).toBe(0);
    checkStore(sandbox, expected);
  }, 120_000);
});


describe('products import at the rate limit', () => {
  it('uses the bucket without meeting a 429: the burst at once, the rest at the leak rate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-rate-'));
    // The standard bucket (40, 2/s): 45 creates and 4 list pages overflow it by a few requests.
    sandbox = await startSandbox({ seed: 'empty' });
    const lines = ['handle,name,sku,price,stock'];
    for (let i = 1; i <= 45; i++) lines.push(`rate-${i},Rate ${i},R-${i},${i},1`);
    const file = join(dir, 'catalog.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runInProcess(['products', 'import', file, '--json'], { env: envFor(sandbox, dir) });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ created: 45, failed: 0, requests: 49, rateLimited: 0 });
  }, 60_000);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/platform/clock.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { Persistence } from '../../../src/sandbox/persistence.js';
import { bootstrap } from '../../../src/sandbox/seed.js';
import { SandboxState, type StoreData } from '../../../src/sandbox/state.js';
import { type ProductRecord } from '../../../src/sandbox/records.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-'));
  dirs.push(dir);
  return dir;
}

function open(dir: string) {
  const state = new SandboxState(new FakeClock(1_700_000_000_000));
  const { persistence, loaded } = Persistence.open(dir, state);
  return { state, persistence, loaded };
}

function addProduct(state: SandboxState, store: StoreData, handle: string, sku: string): ProductRecord {
  return state.mutate('test.product', (tx) => {
    const id = tx.nextId(store, 'product');
    return tx.put(store.products, {
      id,
      name: { es: handle },
      description: {},
      handle: { es: handle },
      attributes: [],
      categories: [],
      images: [],
      variants: [
        {
          id: tx.nextId(store, 'variant'), product_id: id, image_id: null, sku, price: '1.00', promotional_price: null,
          cost: null, stock_management: true, weight: null, width: null, height: null, depth: null, mpn: null,
          age_group: null, gender: null, values: [], inventory_levels: [], custom_fields: [], created_at: 0, updated_at: 0,
        },
      ],
      seo_title: null,
      seo_description: null,
      published: true,
      created_at: 0,
      updated_at: 0,
    });
  });
}

describe('sandbox persistence', () => {
  it('replays the journal into an equal state, indexes and counters included', () => {
    const dir = tempDir();
    const first = open(dir);
    expect(first.loaded).toBe(false);
    const store = bootstrap(first.state, 'empty', 'b');
    addProduct(first.state, store, 'uno', 'SKU-1');
    const two = addProduct(first.state, store, 'dos', 'SKU-2');
    first.state.mutate('test.delete', (tx) => tx.delete(store.products, two.id));

    const second = open(dir);
    expect(second.loaded).toBe(true);
    const again = second.state.store(store.id)!;
    expect(again.record.plan).toBe('b');
    expect(again.products.size).toBe(1);
    expect(again.productByHandle('uno')?.variants[0]?.sku).toBe('SKU-1');
    expect(again.productsBySku('SKU-2')).toEqual([]);
    expect(second.state.tokens.list()).toEqual(first.state.tokens.list());
    // Counters survive: the deleted product's id is not handed out again.
    expect(addProduct(second.state, again, 'tres', 'SKU-3').id).toBe(3);
  });

  it('drops a torn last journal line and keeps appending after it', () => {
    const dir = tempDir();
    const first = open(dir);
    const store = bootstrap(first.state, 'empty', 'enterprise');
    addProduct(first.state, store, 'uno', 'SKU-1');
    const journal = path.join(dir, 'journal.jsonl');
    fs.appendFileSync(journal, '{"op":"test.product","at":1,"ch":[["products",');

    const second = open(dir);
    const again = second.state.store(store.id)!;
    expect(again.products.size).toBe(1);
    expect(fs.readFileSync(journal, 'utf8').endsWith('\n')).toBe(true);
    addProduct(second.state, again, 'dos', 'SKU-2');

    const third = open(dir);
    expect(third.state.store(store.id)!.products.size).toBe(2);
  });

  it('compacts into a snapshot, empties the journal, and loads snapshot plus later entries', () => {
    const dir = tempDir();
    const first = open(dir);
    const store = bootstrap(first.state, 'empty', 'enterprise');
    for (let i = 1; i <= 5; i++) addProduct(first.state, store, `p${i}`, `S${i}`);
    first.persistence.compact();
    expect(fs.statSync(path.join(dir, 'journal.jsonl')).size).toBe(0);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    addProduct(first.state, store, 'p6', 'S6');

    const second = open(dir);
    const again = second.state.store(store.id)!;
    expect(again.products.size).toBe(6);
    expect(again.productByHandle('p6')?.id).toBe(6);
    expect(again.productsBySku('S3').map((p) => p.id)).toEqual([3]);
  });

  it('replays a journal that repeats what the snapshot holds (crash between rename and truncation)', () => {
    const dir = tempDir();
    const first = open(dir);
    const store = bootstrap(first.state, 'empty', 'enterprise');
    addProduct(first.state, store, 'uno', 'SKU-1');
    const journal = fs.readFileSync(path.join(dir, 'journal.jsonl'));
    first.persistence.compact();
    fs.writeFileSync(path.join(dir, 'journal.jsonl'), journal);

    const second = open(dir);
    expect(second.state.store(store.id)!.products.size).toBe(1);
    expect(second.state.apps.size).toBe(1);
  });

  it('keeps the app, store and token of a sandbox across restarts', async () => {
    const dir = tempDir();
    const first = await startSandbox({ stateDir: dir, seed: 'empty' });
    const identity = { storeId: first.storeId, clientId: first.clientId, secret: first.clientSecret, token: first.accessToken };
    await first.close();
    const second = await startSandbox({ stateDir: dir, seed: 'demo' });
    expect({ storeId: second.storeId, clientId: second.clientId, secret: second.clientSecret, token: second.accessToken }).toEqual(identity);
    // The state existed, so the seed was not applied again.
    expect(second.state.store(second.storeId)!.products.size).toBe(0);
    await second.close();
  });
});

describe('sandbox persistence over HTTP', () => {
  it('has every answered change on disk before close, and ignores a half-written snapshot', async () => {
    const dir = tempDir();
    const sandbox = await startSandbox({ stateDir: dir, seed: 'empty' });
    const res = await fetch(`${sandbox.apiUrl}/v1/${sandbox.storeId}/products`, {
      method: 'POST',
      headers: { 'user-agent': 'T (1)', authentication: `bearer ${sandbox.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Persisted', sku: 'P-1', price: 5, stock: 2 }),
    });
    expect(res.status).toBe(201);
    fs.writeFileSync(path.join(dir, 'snapshot.jsonl.999.tmp'), '["products",');
    // Read the directory as a restart after SIGKILL would: the first server never closed.
    const reopened = open(dir);
    const product = reopened.state.store(sandbox.storeId)!.productByHandle('persisted');
    expect(product?.variants[0]?.inventory_levels.map((l) => l.stock)).toEqual([2]);
    expect(fs.readdirSync(dir).some((f) => f.endsWith('.tmp'))).toBe(false);
    reopened.persistence.close();
    await sandbox.close();
  });
});

import { describe, expect, it } from 'vitest';
import { DecimalNumber, stringifyBody } from '../../../../src/client/json.js';
import type { StoreClient } from '../../../../src/client/index.js';
import { INTEND_AHEAD, type VariantWrite, VariantWriter, batchWrites, minimumRequests } from '../../../../src/services/catalog-files/variant-writes.js';
import { NOT_SENT } from '../../../../src/ledger/recorder.js';
import { testLedger } from '../../../helpers/ledger.js';

const ledger = testLedger();

const write = (productId: number, variantId: number, body: VariantWrite['body']): VariantWrite => ({ productId, variantId, line: variantId, key: `S${variantId}`, body });

describe('batchWrites: the fewest documented requests', () => {
  it('puts price and stock changes 50 per stock-price request, across products', () => {
    const writes = Array.from({ length: 120 }, (_, i) => write(1 + Math.floor(i / 3), i, i % 2 ? { price: '1.00' } : { stock: i }));
    const batches = batchWrites(writes);
    expect(batches.map((b) => [b.kind, b.writes.length])).toEqual([
      ['stock-price', 50],
      ['stock-price', 50],
      ['stock-price', 20],
    ]);
    expect(batches.flatMap((b) => b.writes)).toEqual(writes);
  });

  it('sends all the changed variants of a product with another change in one PATCH, price and stock included', () => {
    const writes = [write(1, 10, { price: '2.00' }), write(2, 20, { stock: 3 }), write(1, 11, { cost: '1.00' }), write(1, 12, { stock: 1, price: '3.00' })];
    const batches = batchWrites(writes);
    expect(batches).toEqual([
      { kind: 'variants', productId: 1, writes: [writes[0], writes[2], writes[3]] },
      { kind: 'stock-price', writes: [writes[1]] },
    ]);
    expect(minimumRequests(writes)).toBe(2);
    expect(minimumRequests([])).toBe(0);
  });
});

describe('stringifyBody', () => {
  it('writes a DecimalNumber as the number literal of its text, never through a float', () => {
    const body = [{ id: 1, variants: [{ id: 2, price: new DecimalNumber('19.90'), note: 'x' }, { id: 3, price: new DecimalNumber('12345678901234567.10') }] }];
    const text = stringifyBody(body);
    expect(text).toBe('[{"id":1,"variants":[{"id":2,"price":19.90,"note":"x"},{"id":3,"price":12345678901234567.10}]}]');
    // Text that looks like a number stays a string.
    expect(stringifyBody({ a: '1.5', b: new DecimalNumber('2') })).toBe('{"a":"1.5","b":2}');
  });

  it('refuses text that is not a decimal', () => {
    expect(() => new DecimalNumber('1e5')).toThrow(/not a decimal/);
    expect(() => new DecimalNumber('12,50')).toThrow(/not a decimal/);
  });
});

describe('VariantWriter reads the stock-price answer tolerantly (docs/decisions.md, "Reading what the platform sends")', () => {
  /** A client whose PATCH /products/stock-price answers `answer`; records the bodies sent. */
  const answering = (answer: unknown) => {
    const sent: unknown[] = [];
    const client = {
      request: async (req: { body?: unknown }) => {
        sent.push(req.body);
        return { status: 200, headers: {}, body: answer };
      },
      warn: () => {},
    } as unknown as StoreClient;
    return { client, sent };
  };

  it('numeric-string ids, "true" and 1 as success, unknown fields: confirmed; false, left out, an unreadable record: failed rows, each with its reason', async () => {
    const { client } = answering([
      { id: '1', extra: { any: 'thing' }, variants: [{ id: '10', success: 'true', note: 'x' }, { id: 11, success: 1 }, { id: 12, success: false }] },
      { id: 'two', variants: [{ id: 20, success: true }] },
      { id: 3, variants: [{ success: true }] },
    ]);
    const writes = [write(1, 10, { price: '2.00' }), write(1, 11, { stock: 4 }), write(1, 12, { stock: 5 }), write(1, 13, { stock: 6 }), write(2, 20, { stock: 1 }), write(3, 30, { stock: 1 })];
    const done: number[] = [];
    const failed: [number, string][] = [];
    await new VariantWriter(client, { recorder: ledger.recorder, onDone: (w) => done.push(w.variantId), onFailed: (w, reason) => failed.push([w.variantId, reason]) }).send(writes);
    expect(done).toEqual([10, 11]);
    expect(failed.map(([id]) => id)).toEqual([12, 13, 20, 30]);
    expect(failed[0]![1]).toContain('"success": false');
    for (const [, reason] of failed.slice(1)) expect(reason).toContain('did not name this variant');
  });

  it('an answer that is not a list confirms nothing', async () => {
    const { client, sent } = answering({ ok: true });
    const failed: number[] = [];
    await new VariantWriter(client, { recorder: ledger.recorder, onFailed: (w) => failed.push(w.variantId) }).send([write(1, 10, { price: '2.00' }), write(2, 20, { stock: 3 })]);
    expect(sent).toHaveLength(1);
    expect(failed).toEqual([10, 20]);
  });
});

describe('VariantWriter intends requests ahead (INTEND_AHEAD: one ledger transaction for the next requests)', () => {
  /** A client that confirms every variant of a stock-price request, and calls `onRequest` with its number first. */
  const confirming = (onRequest: (n: number) => void) => {
    let n = 0;
    const client = {
      request: async (req: { body: { id: number; variants: { id: number }[] }[] }) => {
        onRequest(++n);
        return { status: 200, headers: {}, body: req.body.map((p) => ({ id: p.id, variants: p.variants.map((v) => ({ id: v.id, success: true })) })) };
      },
      warn: () => {},
    } as unknown as StoreClient;
    return client;
  };
  /** `count` stock changes, 5 variants a product: `count / 50` stock-price requests. */
  const stockWrites = (count: number) => Array.from({ length: count }, (_, i) => ({ ...write(1 + Math.floor(i / 5), 1000 + i, { stock: i }), before: { id: 1000 + i, product_id: 1 + Math.floor(i / 5), sku: `S${i}`, stock: 0 } as never }));

  it('has the first INTEND_AHEAD requests on the ledger before the first is sent, then the next ones at the next; every change confirmed once', async () => {
    const own = testLedger('variants sync');
    const onLedger: number[] = [];
    const client = confirming(() => onLedger.push(own.changes().length));
    const done: number[] = [];
    const writes = stockWrites(50 * (INTEND_AHEAD + 4));
    const result = await new VariantWriter(client, { recorder: own.recorder, concurrency: 1, onDone: (w) => done.push(w.variantId) }).send(writes);
    own.recorder.finish(0);
    expect(result).toEqual({ interrupted: false });
    expect(done).toHaveLength(writes.length);
    // What the ledger held as each request went out: the first group, then (from request INTEND_AHEAD + 1) all.
    expect(onLedger[0]).toBe(50 * INTEND_AHEAD);
    expect(onLedger[INTEND_AHEAD - 1]).toBe(50 * INTEND_AHEAD);
    expect(onLedger[INTEND_AHEAD]).toBe(writes.length);
    const changes = own.changes();
    expect(changes.map((c) => c.key)).toEqual(writes.map((w) => `S${w.variantId - 1000}`));
    expect(changes.every((c) => c.outcome === 'confirmed' && c.field === 'stock')).toBe(true);
  });

  it('settles failed ("not sent") what it intended ahead and never sent, when the job stops: nothing is left unknown', async () => {
    const own = testLedger('variants sync');
    const controller = new AbortController();
    // The third request stops the job: the ones after it, intended with it, are never sent.
    const client = confirming((n) => n === 3 && controller.abort());
    const writes = stockWrites(50 * (INTEND_AHEAD + 4));
    const result = await new VariantWriter(client, { recorder: own.recorder, concurrency: 1, signal: controller.signal }).send(writes);
    own.recorder.finish(130);
    expect(result).toEqual({ interrupted: true });
    const changes = own.changes();
    expect(changes).toHaveLength(50 * INTEND_AHEAD);
    expect(changes.slice(0, 150).every((c) => c.outcome === 'confirmed')).toBe(true);
    expect(changes.slice(150).every((c) => c.outcome === 'failed' && c.reason === NOT_SENT)).toBe(true);
  });
});

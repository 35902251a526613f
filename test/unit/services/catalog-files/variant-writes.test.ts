import { describe, expect, it } from 'vitest';
import { DecimalNumber, stringifyBody } from '../../../../src/client/json.js';
import type { StoreClient } from '../../../../src/client/index.js';
import { type VariantWrite, VariantWriter, batchWrites, minimumRequests } from '../../../../src/services/catalog-files/variant-writes.js';
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

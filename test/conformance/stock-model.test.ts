import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, variantStock } from './support.js';

/**
 * DESIGN.md §5.12 and §5.14 as a model: random sequences of orders, cancels (with and without restock), status
 * changes and stock updates on two variants, checked after every step against a model that only counts units.
 * Stock must never be lost or made up, every unit must sit at a location that exists, and every order must be
 * accepted exactly when the model has the units.
 */

const STATUSES = ['open', 'paid', 'closed', 'cancelled'] as const;

type Op =
  | { kind: 'order'; v: number; qty: number }
  | { kind: 'cancel'; pick: number; restock: boolean }
  | { kind: 'status'; pick: number; status: (typeof STATUSES)[number] }
  | { kind: 'stock'; v: number; levels: [number, number] };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('order' as const), v: fc.integer({ min: 0, max: 1 }), qty: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(), restock: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('status' as const), pick: fc.nat(), status: fc.constantFrom(...STATUSES) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('stock' as const),
      v: fc.integer({ min: 0, max: 1 }),
      levels: fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })),
    }),
  },
);

interface ModelOrder {
  id: number;
  v: number;
  qty: number;
  status: string;
  returned: boolean;
}

describe('stock under orders, cancels, status changes and stock updates (model-based)', () => {
  const t = useSandbox();

  it('the units the sandbox reports always equal the model\'s, at locations that exist', async () => {
    const [north, south] = [await createLocation(t, 'North'), await createLocation(t, 'South')];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const made = [
          await createSimpleProduct(t, { inventory_levels: [{ location_id: north.id, stock: 3 }, { location_id: south.id, stock: 2 }] }),
          await createSimpleProduct(t, { inventory_levels: [{ location_id: south.id, stock: 4 }] }),
        ];
        const stock = [5, 4];
        const orders: ModelOrder[] = [];
        for (const o of ops) {
          const step = JSON.stringify(o);
          if (o.kind === 'order') {
            const res = await createOrder(t, [{ variant_id: made[o.v]!.variant.id, quantity: o.qty }]);
            expect(res.status, `${step} ${res.text}`).toBe(o.qty <= stock[o.v]! ? 201 : 422);
            if (res.status === 201) {
              stock[o.v]! -= o.qty;
              orders.push({ id: res.body.id, v: o.v, qty: o.qty, status: 'open', returned: false });
            }
          } else if (o.kind === 'stock') {
            const { product, variant } = made[o.v]!;
            const res = await t.put(`/products/${product.id}/variants/${variant.id}`, {
              inventory_levels: [
                { location_id: north.id, stock: o.levels[0] },
                { location_id: south.id, stock: o.levels[1] },
              ],
            });
            expect(res.status, `${step} ${res.text}`).toBe(200);
            stock[o.v] = o.levels[0] + o.levels[1];
          } else if (orders.length > 0) {
            const order = orders[o.pick % orders.length]!;
            if (o.kind === 'cancel') {
              const res = await t.post(`/orders/${order.id}/cancel`, { restock: o.restock });
              expect(res.status, `${step} ${res.text}`).toBe(order.status === 'cancelled' ? 422 : 200);
              if (res.status === 200) {
                order.status = 'cancelled';
                if (o.restock && !order.returned) {
                  stock[order.v]! += order.qty;
                  order.returned = true;
                }
              }
            } else {
              const res = await t.put(`/orders/${order.id}`, { status: o.status });
              expect(res.status, `${step} ${res.text}`).toBe(200);
              order.status = o.status;
            }
          }
          for (const [i, { product, variant }] of made.entries()) {
            const seen = await variantStock(t, product.id, variant.id);
            expect(seen.stock, `${step}: variant ${i}`).toBe(stock[i]);
            expect(seen.inventory_levels.reduce((n: number, l: { stock: number }) => n + l.stock, 0)).toBe(stock[i]);
            for (const level of seen.inventory_levels) expect([north.id, south.id]).toContain(level.location_id);
          }
        }
      }),
      { numRuns: 25, seed: 3 },
    );
  }, 120_000);
});

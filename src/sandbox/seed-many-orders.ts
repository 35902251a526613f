import { createHash } from 'node:crypto';
import type { OrderStatus, PaymentStatus } from '../platform/orders.js';
import type { OrderShippingStatus } from '../platform/fulfillment.js';
import { seededRandom } from './random.js';
import { addressFor, ascii, FIRST_NAMES, LAST_NAMES, PAYMENTS, SHIPPING } from './seed-orders.js';
import type { SandboxState, StoreData } from './state.js';
import { ordersOf, unitPrice, type Customer, type OrderLine, type OrderRecord } from './store/orders.js';
import { fulfillmentOrdersOf, moveTo, newFulfillmentOrder } from './store/fulfillment-orders.js';
import { mainText } from './http.js';
import { createCustomer } from './store/customers.js';

/**
 * `store sandbox serve --orders N` and `store sandbox reset --orders N` (docs/sandbox.md, "A large store"): N more
 * orders spread over the year before now, so that the store is as large as a real one (past the 10,000-result cap
 * of GET /orders). Unlike the demo orders they are written as records, not through the order operations: no
 * stock is taken, and each order gets one fulfillment order at the default location (as a store with
 * `inventory_behaviour=bypass` makes, docs/platform.md §10): UNPACKED, PACKED for an open paid order, DISPATCHED
 * for a closed one; the order's shipping status follows (50,000 orders take a few seconds). Each batch of 1,000
 * orders is one journal entry, so the state stays quick to persist and replay. Times are whole seconds, several
 * orders share some seconds, as in a busy store. Channels, payment methods and providers, statuses, totals and
 * about one customer per five orders (each a customer record, made at their first order) vary so every filter of
 * GET /orders and GET /customers has something to find.
 */

const YEAR = 365 * 86_400_000;
const BATCH = 1000;
const CHANNELS = ['store', 'store', 'store', 'store', 'store', 'store', 'store', 'api', 'pos', 'meli', 'form'];

interface LineSource {
  product_id: number;
  variant_id: number;
  name: string;
  sku: string | null;
  price: string;
  variant_values: string[];
  weight: string | null;
  barcode: string | null;
}

function lineSources(store: StoreData): LineSource[] {
  const sources: LineSource[] = [];
  for (const product of store.products.list()) {
    for (const variant of product.variants) {
      const values = variant.values.map((v) => mainText(store, v)).filter((t) => t !== '');
      const name = mainText(store, product.name);
      sources.push({
        product_id: product.id,
        variant_id: variant.id,
        name: values.length ? `${name} (${values.join(', ')})` : name,
        sku: variant.sku,
        price: unitPrice(variant),
        variant_values: values,
        weight: variant.weight,
        barcode: (variant as { barcode?: string | null }).barcode ?? null,
      });
    }
  }
  if (sources.length > 0) return sources;
  // An empty store: lines of products that are not in the catalog (as orders of deleted products are).
  return Array.from({ length: 20 }, (_, i) => ({
    product_id: 900_000 + i,
    variant_id: 9_000_000 + i,
    name: `Producto ${i + 1}`,
    sku: `SKU-${String(i + 1).padStart(4, '0')}`,
    price: (1000 + i * 750).toFixed(2),
    variant_values: [],
    weight: '0.500',
    barcode: null,
  }));
}

/** Adds `count` orders to the store; returns how many it has now. */
export function seedManyOrders(state: SandboxState, storeId: number, count: number): number {
  const store = state.store(storeId);
  if (!store) throw new Error(`no store ${storeId}`);
  const sources = lineSources(store);
  const existing = ordersOf(store).size;
  const rnd = seededRandom(0x5eed + existing);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const now = Math.floor(state.storeNow() / 1000) * 1000;
  const customers: Customer[] = [];
  const customerCount = Math.max(20, Math.ceil(count / 5));
  const shipFrom = store.defaultLocation() ?? store.locationsByPriority()[0];

  // Oldest first, so that numbers grow with creation time as on the platform.
  const times = Array.from({ length: count }, () => now - Math.floor(rnd() * YEAR / 1000) * 1000).sort((a, b) => a - b);
  for (let start = 0; start < count; start += BATCH) {
    state.mutate('sandbox.seed.many-orders', (tx) => {
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        let customer: Customer;
        if (customers.length < customerCount && (customers.length === 0 || rnd() < 0.6)) {
          const n = existing + customers.length;
          const first = pick(FIRST_NAMES);
          const last = pick(LAST_NAMES);
          const phone = `+54 11 ${5000 + (n % 5000)}-${String(1000 + ((n * 37) % 9000))}`;
          const address = addressFor(`${first} ${last}`, phone, n, rnd);
          const record = createCustomer(
            tx,
            store,
            {
              name: `${first} ${last}`,
              email: `${ascii(first)}.${ascii(last)}.${n}@example.com`.toLowerCase(),
              phone,
              identification: String(30_000_000 + n * 7919),
              addresses: [address],
            },
            times[i]!,
          );
          customer = { id: record.id, name: record.name, email: record.email, phone, identification: record.identification, default_address: address };
          customers.push(customer);
        } else {
          customer = pick(customers);
        }
        const lines: OrderLine[] = [];
        const lineCount = 1 + Math.floor(rnd() * rnd() * 4);
        for (let l = 0; l < lineCount; l++) {
          const source = pick(sources);
          lines.push({ id: tx.nextId(store, 'order_line'), ...source, quantity: 1 + Math.floor(rnd() * rnd() * 3) });
        }
        const subtotal = lines.reduce((sum, line) => sum + Number(line.price) * line.quantity, 0);
        const discount = rnd() < 0.15 ? Math.round(subtotal * 0.1 * 100) / 100 : 0;
        const shipping = pick(SHIPPING);
        const payment = pick(PAYMENTS);
        const at = times[i]!;
        const roll = rnd();
        const status: OrderStatus = roll < 0.08 ? 'cancelled' : at < now - 14 * 86_400_000 ? 'closed' : roll < 0.6 ? 'open' : 'closed';
        const payment_status: PaymentStatus = status === 'cancelled' ? (roll < 0.03 ? 'refunded' : 'voided') : status === 'closed' ? 'paid' : roll < 0.3 ? 'pending' : 'paid';
        const shipping_status: OrderShippingStatus = status === 'closed' ? 'fulfilled' : status === 'open' && payment_status === 'paid' ? 'packed' : 'unpacked';
        const id = tx.nextSharedId('order', 1_000_000_001);
        const updated = Math.min(now, at + (status === 'open' ? 0 : 2 * 3_600_000));
        const order: OrderRecord = {
          id,
          number: tx.nextId(store, 'order_number', 100),
          token: createHash('sha1').update(`order:${store.id}:${id}`).digest('hex'),
          status,
          payment_status,
          shipping_status,
          owner_note: '',
          note: null,
          created_at: at,
          updated_at: updated,
          paid_at: payment_status === 'paid' || payment_status === 'refunded' ? Math.min(now, at + 3_600_000) : null,
          shipped_at: shipping_status === 'fulfilled' ? updated : null,
          closed_at: status === 'closed' ? updated : null,
          cancelled_at: status === 'cancelled' ? updated : null,
          cancel_reason: status === 'cancelled' ? 'customer' : null,
          stock_returned: status === 'cancelled',
          customer: { ...customer, default_address: customer.default_address ? { ...customer.default_address } : null },
          products: lines,
          shipping: { ...shipping, cost_owner: shipping.cost_customer },
          shipping_tracking_number: null,
          shipping_tracking_url: null,
          shipping_address: customer.default_address ? { ...customer.default_address } : null,
          payment: { ...payment },
          subtotal: subtotal.toFixed(2),
          discount: discount.toFixed(2),
          total: (subtotal - discount + Number(shipping.cost_customer)).toFixed(2),
          currency: store.record.currency,
          language: store.record.main_language,
          channel: pick(CHANNELS),
        };
        tx.put(ordersOf(store), order);
        if (shipFrom) {
          const fo = newFulfillmentOrder(id, shipFrom.id, lines.map((l) => ({ variant_id: l.variant_id, quantity: l.quantity })), at);
          if (shipping_status !== 'unpacked') moveTo(fo, shipping_status === 'fulfilled' ? 'DISPATCHED' : 'PACKED', updated);
          fo.updated_at = updated;
          tx.put(fulfillmentOrdersOf(store), fo);
        }
      }
    });
  }
  return ordersOf(store).size;
}

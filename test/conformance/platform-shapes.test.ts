import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/replay-server.js';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { expectOk } from './support.js';

/**
 * Issue 13: the sandbox sends the documented shapes (platform.md is its contract), so the client's tests
 * exercise them. Each resource of the demo store is compared with the hand-written fixtures of
 * test/fixtures/platform/: every field platform.md documents that a fixture holds must be in the sandbox's
 * records with a compatible JSON type. Compatible means the same type, or
 *   - null, for any field that is not an id (platform.md §0);
 *   - a number for a numeric string or the other way round, only for ids, quantities, `number` and stock (§0);
 *   - anything, where the fixture only shows null (it says nothing about the type).
 * Extra fields in the sandbox are fine. Each test lists every differing field at once.
 *
 * Paths: `a.b` a nested field, `a[]` each element of an array, `a{}` each value of an object keyed by
 * language, locale or code; a trailing `?` marks a field platform.md says may be absent.
 */

type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as Kind;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Found {
  where: string;
  present: boolean;
  value?: unknown;
}

/** The values at a path in one record (absent ones marked), skipping where a parent is absent or null. */
function valuesAt(record: unknown, path: string): Found[] {
  let current: Found[] = [{ where: '', present: true, value: record }];
  for (const token of path.replace(/\?$/, '').split('.')) {
    const [, name, ops] = /^([^[{]+)((?:\[\]|\{\})*)$/.exec(token)!;
    const next: Found[] = [];
    for (const entry of current) {
      if (!entry.present || !isRecord(entry.value)) continue;
      const where = entry.where ? `${entry.where}.${name}` : name!;
      if (!(name! in entry.value)) {
        next.push({ where, present: false });
        continue;
      }
      let items: Found[] = [{ where, present: true, value: entry.value[name!] }];
      for (const op of ops!.match(/\[\]|\{\}/g) ?? []) {
        items = items.flatMap((item) => {
          if (op === '[]') return Array.isArray(item.value) ? item.value.map((v, i) => ({ where: `${item.where}[${i}]`, present: true, value: v })) : [];
          return isRecord(item.value) ? Object.entries(item.value).map(([k, v]) => ({ where: `${item.where}.${k}`, present: true, value: v })) : [];
        });
      }
      next.push(...items);
    }
    current = next;
  }
  return current;
}

/** The last field name of a path (`products[].variant_id` → `variant_id`). */
const fieldName = (path: string) => path.replace(/\?$/, '').split('.').at(-1)!.replace(/(\[\]|\{\})+$/, '');
const isId = (name: string) => name === 'id' || name.endsWith('_id');
/** Where platform.md §0 accepts a number or a numeric string. */
const numberOrNumericString = (name: string) => isId(name) || ['quantity', 'total_quantity', 'number', 'stock'].includes(name);
const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

function compatible(value: unknown, fixtureKinds: Set<Kind>, name: string): boolean {
  const kind = kindOf(value);
  if (fixtureKinds.has(kind)) return true;
  if (kind === 'null') return !isId(name);
  if ([...fixtureKinds].every((k) => k === 'null')) return true;
  if (numberOrNumericString(name)) {
    if (kind === 'string' && NUMERIC.test(value as string) && fixtureKinds.has('number')) return true;
    if (kind === 'number' && fixtureKinds.has('string')) return true;
  }
  return false;
}

const preview = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/**
 * Every difference between the sandbox's records and the fixtures' on the documented paths, one line per
 * path: "orders: shipping is object ({"method":…}) at [0].shipping; the fixture has string".
 */
function differences(resource: string, fixtures: unknown[], sandbox: unknown[], paths: string[]): string[] {
  const out: string[] = [];
  if (sandbox.length === 0) return [`${resource}: the sandbox sent no record to compare`];
  for (const path of paths) {
    const optional = path.endsWith('?');
    const name = fieldName(path);
    const fixtureKinds = new Set<Kind>(fixtures.flatMap((r) => valuesAt(r, path).filter((f) => f.present).map((f) => kindOf(f.value))));
    if (fixtureKinds.size === 0) continue; // the fixtures do not show it: nothing to compare with
    const problems: string[] = [];
    sandbox.forEach((record, index) => {
      for (const found of valuesAt(record, path)) {
        const where = `[${index}].${found.where}`;
        if (!found.present) {
          if (!optional) problems.push(`missing at ${where}`);
        } else if (!compatible(found.value, fixtureKinds, name)) {
          problems.push(`${kindOf(found.value)} (${preview(found.value)}) at ${where}; the fixture has ${[...fixtureKinds].join(' or ')}`);
        }
      }
    });
    if (problems.length > 0) {
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
      out.push(`${resource}: ${path.replace(/\?$/, '')} ${problems[0]}${more}`);
    }
  }
  return out;
}

// What platform.md documents of each resource (the fixtures hold more, as a real store sends more).
const ADDRESS = ['zipcode', 'street', 'number', 'floor', 'locality', 'city', 'province', 'region', 'country', 'reference', 'between_streets'];
const VARIANT = [
  'id', 'product_id', 'image_id', 'price', 'promotional_price', 'cost', 'stock_management', 'stock', 'sku', 'values', 'values[]', 'values[]{}',
  'weight', 'width', 'height', 'depth', 'barcode', 'mpn', 'age_group', 'gender', 'created_at', 'updated_at',
];
const CATEGORY = [
  'id', 'name', 'name{}', 'description', 'handle', 'handle{}', 'parent', 'subcategories', 'google_shopping_category', 'seo_title',
  'seo_description', 'created_at', 'updated_at',
];
const PRODUCT = [
  'id', 'name', 'name{}', 'description', 'handle', 'handle{}', 'attributes', 'attributes[]', 'attributes[]{}',
  'categories', 'categories[]', ...CATEGORY.map((p) => `categories[].${p}`),
  'images', ...['id', 'product_id', 'src', 'position', 'alt', 'created_at', 'updated_at'].map((p) => `images[].${p}`),
  'variants', ...VARIANT.map((p) => `variants[].${p}`),
  'brand', 'video_url', 'seo_title', 'seo_description', 'published', 'free_shipping', 'created_at', 'updated_at',
];
const STORE = [
  'id', 'name', 'name{}', 'description', 'country', 'main_language', 'main_currency', 'languages', 'languages{}.currency',
  'languages{}.active', 'plan_name', 'admin_language', 'email', 'contact_email', 'domains', 'original_domain', 'customer_accounts',
  'current_theme', 'logo', 'phone', 'address', 'business_name', 'type', 'created_at',
];
const LOCATION = ['id', 'name', 'name{}', 'store_id', 'priority', 'address', ...ADDRESS.map((p) => `address.${p}`), 'address.verified_at', 'is_default', 'allows_pickup?'];
const ORDER = [
  'id', 'number', 'token', 'store_id', 'currency', 'language', 'subtotal', 'discount', 'total', 'status', 'payment_status',
  'shipping_status', 'gateway', 'gateway_name', 'payment_details', 'payment_details.method', 'payment_details.credit_card_company',
  'payment_details.installments', 'paid_at', 'shipping', 'shipping_option', 'shipping_option_code', 'shipping_cost_customer',
  'shipping_cost_owner', 'shipping_tracking_number', 'shipping_tracking_url', 'shipped_at', 'shipping_address', 'billing_name',
  'billing_address', 'billing_city', 'billing_zipcode', 'billing_country',
  'customer', ...['id', 'name', 'email', 'phone', 'identification', 'default_address'].map((p) => `customer.${p}`),
  'note', 'owner_note', 'cancel_reason', 'created_at', 'updated_at', 'completed_at', 'cancelled_at', 'closed_at', 'read_at',
  'products', ...['id', 'product_id', 'variant_id', 'quantity', 'name', 'sku?', 'price', 'variant_values', 'image', 'weight', 'barcode'].map((p) => `products[].${p}`),
];
const MONEY = (p: string) => [p, `${p}.value`, `${p}.currency`];
const FULFILLMENT_ORDER = [
  'id', 'number', 'status', 'total_quantity', 'total_weight', ...MONEY('total_price'),
  'assigned_location', 'assigned_location.location_id', 'assigned_location.name', 'assigned_location.address',
  'line_items', 'line_items[].id', 'line_items[].quantity', 'line_items[].variant', 'line_items[].variant.variant_id',
  'line_items[].product', 'line_items[].product.product_id', ...MONEY('line_items[].unit_price'),
  'recipient', 'shipping', 'shipping.type', 'shipping.carrier', 'shipping.option', 'shipping.merchant_cost', 'shipping.consumer_cost',
  'destination', 'status_history', 'status_history[].from_status', 'status_history[].to_status', 'status_history[].happened_at',
  'tracking_info', 'tracking_info.code', 'tracking_info.url', 'tracking_events',
  ...['id', 'status', 'description', 'address', 'geolocation', 'geolocation.longitude', 'geolocation.latitude', 'happened_at', 'estimated_delivery_at', 'created_at', 'updated_at'].map(
    (p) => `tracking_events[].${p}`,
  ),
  'fulfilled_at', 'created_at', 'updated_at',
];
const METAFIELD = ['id', 'namespace', 'key', 'value', 'description', 'owner_resource', 'owner_id', 'created_at', 'updated_at'];
const WEBHOOK = ['id', 'event', 'url', 'headers?', 'headers{}?', 'created_at', 'updated_at'];
const CUSTOMER_ADDRESS = ['id', 'address', 'number', 'floor', 'locality', 'city', 'province', 'zipcode', 'country', 'phone', 'default', 'created_at', 'updated_at'];
const CUSTOMER = [
  'id', 'name', 'email', 'phone', 'identification', 'note', 'default_address', ...CUSTOMER_ADDRESS.map((p) => `default_address.${p}`),
  'addresses', ...CUSTOMER_ADDRESS.map((p) => `addresses[].${p}`),
  ...['address', 'number', 'floor', 'locality', 'zipcode', 'city', 'province', 'country', 'phone'].map((p) => `billing_${p}`),
  'extra', 'total_spent', 'total_spent_currency', 'last_order_id', 'active', 'accepts_marketing', 'created_at', 'updated_at',
];
const CUSTOM_FIELD = ['id', 'name', 'description', 'value_type', 'owner_resource', 'read_only', 'values', 'created_at', 'updated_at'];

const TRACKING_STATUSES = [
  'dispatched', 'received_by_post_office', 'in_transit', 'out_for_delivery', 'delivery_attempt_failed', 'delayed',
  'ready_for_pickup', 'delivered', 'returned_to_sender', 'lost', 'failure',
];

let t: TestSandbox;

/** An image URL's file name without its extension and the CDN's `-640-0` size suffix (platform.md §12). */
function imageStem(src: string): string {
  const file = new URL(src).pathname.split('/').pop() ?? '';
  return file.replace(/\.[a-z0-9]+$/i, '').replace(/-\d+-\d+$/, '');
}

/** Fails with every difference, one per line (the lead hands them out by field). */
function expectNone(found: string[]): void {
  if (found.length > 0) expect.fail(`${found.length} differences from the platform fixtures:\n  ${found.join('\n  ')}`);
}

/** Every record of a sandbox list (200 a page); an empty list (404 Last page is 0) is []. */
async function all(path: string, query: Record<string, string | number> = {}): Promise<any[]> {
  const records: any[] = [];
  for (let page = 1; ; page++) {
    const res = await t.get(path, { query: { ...query, page, per_page: 200 } });
    if (res.status === 404 && /Last page is/.test(res.body?.description ?? '')) return records;
    expect(res.status, `GET ${path}: ${res.text.slice(0, 200)}`).toBe(200);
    records.push(...res.body);
    if (res.body.length < 200) return records;
  }
}

let orders: any[] = [];

beforeAll(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  orders = await all('/orders');
});
afterAll(() => t?.close());

describe('the demo sandbox sends the fields and types of the platform fixtures (platform.md)', () => {
  it('GET /store (§2)', async () => {
    const res = await t.get('/store');
    expectNone(differences('store', [fixture('store.json')], [res.body], STORE));
    expect(res.body).not.toHaveProperty('plan');
  });

  it('GET /products and /products/{id} (§3)', async () => {
    const products = await all('/products');
    const single = (await t.get(`/products/${products[0]?.id}`)).body;
    expectNone([
      ...differences('products', fixture('products.json'), products, PRODUCT),
      ...differences('product', [fixture('product.json')], [single], PRODUCT),
    ]);
  });

  it('GET /products/{id}/variants (§3)', async () => {
    const products = await all('/products');
    const variants = await all(`/products/${products.find((p) => p.variants?.length > 1)?.id ?? products[0].id}/variants`);
    expectNone(differences('variants', fixture('variants.json'), variants, VARIANT));
  });

  it('GET /categories (full objects, §3)', async () => {
    expectNone(differences('categories', fixture('categories.json'), await all('/categories'), CATEGORY));
  });

  it('GET /locations (§7)', async () => {
    expectNone(differences('locations', fixture('locations.json'), await all('/locations'), LOCATION));
  });

  it('GET /orders and /orders/{id} (§4)', async () => {
    const single = (await t.get(`/orders/${orders[0]?.id}`)).body;
    expectNone([
      ...differences('orders', fixture('orders.json'), orders, ORDER),
      ...differences('order', [fixture('order.json')], [single], ORDER),
    ]);
    expectNone(orders.flatMap((o) => ('payments' in o ? [`order ${o.id} has a payments array`] : [])).slice(0, 1));
  });

  it('GET /orders/{id}/fulfillment-orders and /{fo_id} (§5)', async () => {
    const fulfillmentOrders: any[] = [];
    let first: { orderId: unknown; foId: unknown } | undefined;
    for (const order of orders.slice(0, 60)) {
      const fos = await all(`/orders/${order.id}/fulfillment-orders`);
      if (fos[0] && !first) first = { orderId: order.id, foId: fos[0].id };
      fulfillmentOrders.push(...fos);
    }
    const fixtures = [...fixture('fulfillment-orders.json'), ...fixture('fulfillment-orders-dispatched.json')];
    const single = first ? [(await t.get(`/orders/${first.orderId}/fulfillment-orders/${first.foId}`)).body] : [];
    expectNone([
      ...differences('fulfillment orders', fixtures, fulfillmentOrders, FULFILLMENT_ORDER),
      ...differences('fulfillment order', fixtures, single, FULFILLMENT_ORDER),
      ...(fulfillmentOrders.some((fo) => fo.tracking_events?.length > 0) ? [] : ['fulfillment orders: none of the first 60 orders has one with tracking events']),
      ...fulfillmentOrders.filter((fo) => 'order_id' in fo).slice(0, 1).map((fo) => `fulfillment orders: ${fo.id} has order_id in its body`),
      ...fulfillmentOrders
        .filter((fo) => typeof fo.status !== 'string' || fo.status !== fo.status.toUpperCase())
        .slice(0, 1)
        .map((fo) => `fulfillment orders: status ${JSON.stringify(fo.status)} is not upper case`),
      ...fulfillmentOrders
        .flatMap((fo) => fo.tracking_events ?? [])
        .filter((e: any) => !TRACKING_STATUSES.includes(e.status))
        .slice(0, 1)
        .map((e: any) => `tracking events: status ${JSON.stringify(e.status)} is not one of the documented eleven`),
    ]);
  });

  it('GET /metafields/orders?owner_id= (§6): the nfe/list kind and the older nfe/key + nfe/link pair', async () => {
    const metafields: any[] = [];
    for (const order of orders) metafields.push(...(await all('/metafields/orders', { owner_id: order.id })));
    const fixtures = [...fixture('metafields-nfe-list.json'), ...fixture('metafields-nfe-key-link.json')];
    const kinds = new Set(metafields.filter((m) => m.namespace === 'nfe').map((m) => m.key));
    expectNone([
      ...differences('metafields', fixtures, metafields, METAFIELD),
      ...(kinds.has('list') ? [] : ['metafields: no order of the demo store has nfe/list invoices']),
      ...(kinds.has('key') && kinds.has('link') ? [] : ['metafields: no order of the demo store has the older nfe/key + nfe/link pair']),
    ]);
  });

  it('GET /webhooks (§7)', async () => {
    const created = await t.post('/webhooks', { event: 'order/created', url: 'https://erp.example.com/hooks/orders' });
    expect(created.status, created.text).toBe(201);
    try {
      expectNone(differences('webhooks', fixture('webhooks.json'), await all('/webhooks'), WEBHOOK));
    } finally {
      await t.del(`/webhooks/${created.body.id}`);
    }
  });

  it('GET /customers, /customers/{id} and fields= (§11)', async () => {
    const customers = await all('/customers');
    const single = (await t.get(`/customers/${customers[0]?.id}`)).body;
    const shown = fixture('customers-fields.json');
    const picked = (await t.get('/customers', { query: { fields: 'id,name,email', per_page: 200 } })).body;
    const keys = JSON.stringify(Object.keys(shown[0]).sort());
    expectNone([
      ...differences('customers', fixture('customers.json'), customers, CUSTOMER),
      ...differences('customer', [fixture('customer.json')], [single], CUSTOMER),
      ...differences('customers fields=', shown, picked, ['id', 'name', 'email']),
      ...picked.flatMap((c: any) => (JSON.stringify(Object.keys(c).sort()) === keys ? [] : [`customers fields=: record ${c.id} has ${Object.keys(c).join(',')}`])).slice(0, 1),
    ]);
  });

  it('GET /products/variants/custom-fields (§7)', async () => {
    expectNone(differences('custom fields', fixture('custom-fields.json'), await all('/products/variants/custom-fields'), CUSTOM_FIELD));
  });

  it('a bad timestamp filter on any list is a 422 with the documented envelope and a field map (§1)', async () => {
    // The sandbox's one parser answers every list alike (docs/sandbox.md "Lists"): the envelope's fields with the
    // fixture's types, and the field named in `errors` as the documented field map holds it (field → problems).
    const envelope = fixture('error-422-envelope.json') as Record<string, unknown>;
    const fieldMap = fixture('error-422-field-map.json') as Record<string, unknown[]>;
    for (const path of ['/products', '/orders', '/categories', '/webhooks']) {
      const res = await t.get(path, { query: { created_at_min: 'garbage' } });
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
      const envelopeKinds = Object.fromEntries(Object.entries(envelope).map(([k, v]) => [k, kindOf(v)]));
      expect(Object.fromEntries(Object.keys(envelope).map((k) => [k, kindOf(res.body[k])]))).toEqual(envelopeKinds);
      expect(res.body.code).toBe(422);
      expect(res.body.message).toBe(envelope.message);
      const problems = res.body.errors?.created_at_min;
      expect(kindOf(problems)).toBe(kindOf(Object.values(fieldMap)[0]));
      expect(problems.every((p: unknown) => typeof p === 'string')).toBe(true);
    }
  });

  it('an empty list is the documented 404 body (§1)', async () => {
    const res = await t.get('/webhooks');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(fixture('error-last-page-0.json'));
  });
});

describe('the demo store holds the cases a real store has (issue 13)', () => {
  it('9-digit order ids, order lines with numeric strings, +0000 timestamps', () => {
    expectNone([
      ...(orders.some((o) => String(o.id).length === 9) ? [] : ['orders: no order id of 9 digits']),
      ...(orders.some((o) => (o.products ?? []).some((p: any) => typeof p.quantity === 'string' || typeof p.variant_id === 'string'))
        ? []
        : ['orders: no order whose lines carry numeric strings']),
      ...(orders.some((o) => /[+-]\d{4}$/.test(String(o.created_at))) ? [] : ['orders: no +0000 timestamp']),
    ]);
  });

  it('a product whose options exist only in a non-main language, a product without SKU, variants without inventory_levels', async () => {
    const main = (await t.get('/store')).body.main_language;
    const products = await all('/products');
    const variants = products.flatMap((p) => p.variants ?? []);
    expectNone([
      ...(products.some((p) => (p.attributes ?? []).some((a: any) => a && typeof a === 'object' && !(main in a) && Object.keys(a).length > 0))
        ? []
        : [`products: none has option names lacking the main language (${main})`]),
      ...(variants.some((v: any) => v.sku === null) ? [] : ['products: no variant with sku null']),
      ...(variants.some((v: any) => !('inventory_levels' in v)) ? [] : ['products: every variant has inventory_levels']),
    ]);
  });
});

/**
 * platform.md §8: the batch endpoints take the documented requests of test/fixtures/platform/*-request.json and
 * answer the documented shapes (the fixtures' ids and location replaced by the sandbox's own). Beyond the types,
 * every field a fixture answer shows for a variant must hold the fixture's value: what the request sent is kept.
 */
describe('the batch endpoints take the documented requests and answer the documented shapes (platform.md §8)', () => {
  let s: TestSandbox;
  /** Fixture id or location → the sandbox's. */
  const ids = new Map<unknown, unknown>();
  const FIXTURE_LOCATION = '01GQ2ZHK064BQRHGDB7CCV0Y6N';
  const VARIANT_FIELDS = VARIANT.filter((p) => !['id', 'product_id', 'created_at', 'updated_at'].includes(p) && !p.startsWith('values'));

  /** A copy of a fixture with every id and location the sandbox has for it replaced. */
  const mapped = (value: unknown): any => {
    if (Array.isArray(value)) return value.map(mapped);
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapped(v)]));
    return ids.has(value) ? ids.get(value) : value;
  };

  /** The fields the fixture variant shows that differ in the sandbox's (ids and timestamps aside). */
  const valueDifferences = (what: string, fixtureVariants: any[], sandboxVariants: any[]): string[] =>
    fixtureVariants.flatMap((fv, i) =>
      [...VARIANT_FIELDS, 'values', 'inventory_levels']
        .filter((f) => f in fv && JSON.stringify(mapped(fv[f])) !== JSON.stringify(sandboxVariants[i]?.[f]))
        .map((f) => `${what}: variants[${i}].${f} is ${JSON.stringify(sandboxVariants[i]?.[f])}; the fixture has ${JSON.stringify(fv[f])}`),
    );

  beforeAll(async () => {
    s = await startTestSandbox();
    const location = await s.post('/locations', { name: 'Depósito', address: { zipcode: '1000', street: 'Calle', number: '1', city: 'CABA', province: { code: 'C', name: 'CABA' }, country: { code: 'AR' } } });
    expect(location.status, location.text).toBe(201);
    ids.set(FIXTURE_LOCATION, location.body.id);
  });
  afterAll(() => s?.close());

  it('POST /products with attributes, variants and images → 201 with the whole product', async () => {
    const res = await s.post('/products', mapped(fixture('product-create-request.json')));
    expect(res.status, res.text).toBe(201);
    const answer = fixture('product-create.json');
    ids.set(answer.id, res.body.id);
    answer.variants.forEach((v: any, i: number) => ids.set(v.id, res.body.variants[i]?.id));
    expectNone([
      ...differences('product create', [answer], [res.body], [...PRODUCT, 'variants[].inventory_levels', 'variants[].inventory_levels[].location_id', 'variants[].inventory_levels[].stock']),
      ...valueDifferences('product create', answer.variants, res.body.variants),
      // The platform keeps an image under its own CDN URL named after the file (platform.md §12): the file's
      // name and the position are what must match, not the URL.
      ...(JSON.stringify(res.body.images.map((i: any) => [imageStem(i.src), i.position])) ===
      JSON.stringify(answer.images.map((i: any) => [imageStem(i.src), i.position]))
        ? []
        : ['product create: images differ from the fixture']),
    ]);
  });

  it('GET /products?fields=id,variants → only those fields', async () => {
    const res = await s.get('/products', { query: { fields: 'id,variants' } });
    const shown = fixture('products-fields.json');
    expectNone([
      ...differences('products fields=', shown, res.body, ['id', 'variants', ...VARIANT.map((p) => `variants[].${p}`)]),
      ...res.body.flatMap((r: any) =>
        JSON.stringify(Object.keys(r).sort()) === JSON.stringify(Object.keys(shown[0]).sort()) ? [] : [`products fields=: record ${r.id} has ${Object.keys(r).join(',')}`],
      ),
    ]);
  });

  it('PATCH /products/{id}/variants → 200 with the product\'s whole variant collection', async () => {
    const productId = ids.get(fixture('product-create.json').id);
    const res = await s.patch(`/products/${productId}/variants`, mapped(fixture('variants-patch-request.json')));
    expect(res.status, res.text).toBe(200);
    const answer = fixture('variants-patch.json');
    expectNone([...differences('variants patch', answer, res.body, VARIANT), ...valueDifferences('variants patch', answer, res.body)]);
  });

  it('PATCH /products/stock-price → 200 answered per variant (an unknown variant fails alone)', async () => {
    const res = await s.patch('/products/stock-price', mapped(fixture('stock-price-request.json')));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(mapped(fixture('stock-price.json')));
  });

  it('POST /products/{id}/variants/stock (§12) → 200 with the variants it updated; an unknown action → the documented 422', async () => {
    const productId = ids.get(fixture('product-create.json').id);
    const res = await s.post(`/products/${productId}/variants/stock`, mapped(fixture('variants-stock-request.json')));
    expect(res.status, res.text).toBe(200);
    const answer = fixture('variants-stock.json');
    expectNone([...differences('variants stock', answer, res.body, VARIANT), ...valueDifferences('variants stock', answer, res.body)]);
    const refused = await s.post(`/products/${productId}/variants/stock`, { action: 'add', value: 1 });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(fixture('error-422-stock-action.json'));
  });

  it('the documented 422 bodies, word for word', async () => {
    const productId = ids.get(fixture('product-create.json').id) as number;
    const [first, second] = fixture('variants-patch.json').map((v: any) => ids.get(v.id));
    const answers = {
      'error-422-too-many-variants.json': await s.patch('/products/stock-price', [{ id: productId, variants: Array.from({ length: 51 }, () => ({ id: first, price: 1 })) }]),
      'error-422-validation-price.json': await s.patch('/products/stock-price', [{ id: productId, variants: [{ id: first, price: '1000' }] }]),
      'error-422-validation-stock.json': await s.patch('/products/stock-price', [{ id: productId, variants: [{ id: first, inventory_levels: [{ stock: -1 }] }] }]),
      'error-422-variants-repeated.json': await s.patch(`/products/${productId}/variants`, [{ id: second, values: [{ es: 'S' }, { es: 'Rojo' }] }]),
      'error-422-product-variants-limit.json': await s.post('/products', { name: 'Huge', attributes: [{ es: 'N' }], variants: Array.from({ length: 1001 }, (_, i) => ({ values: [{ es: String(i) }] })) }),
      'error-422-product-images-limit.json': await s.post('/products', { name: 'Gallery', images: Array.from({ length: 251 }, (_, i) => ({ src: `https://cdn.tienda.example/${i}.jpg` })) }),
    };
    expectNone(
      Object.entries(answers).flatMap(([name, res]) => {
        const expected = mapped(fixture(name));
        if (name === 'error-422-variants-repeated.json') expected.duplicate_variant_ids = [first, second];
        return res.status === 422 && JSON.stringify(res.body) === JSON.stringify(expected) ? [] : [`${name}: the sandbox answered ${res.status} ${res.text.slice(0, 200)}`];
      }),
    );
  });
});

/**
 * platform.md §4 and §9: what the orders module of the sandbox takes and answers beyond the plain list, against the
 * hand-written fixtures — `POST /orders` keeps what it is given (order-create-request.json → order-create.json),
 * `fields=` answers only those fields with `number` a numeric string (orders-fields.json), `channels` filters the
 * documented list (an unmatched channel is the empty-list 404), and `POST /orders/{id}/close|open` answer the order
 * (order-closed.json; reopened, order.json's open shape). The cap's 422 (error-422-order-query-limit.json) needs more
 * than 10,000 orders: test/conformance/orders-large-store.test.ts checks it.
 */
describe('the order and customer actions and queries take and answer the documented shapes (platform.md §4, §9, §11)', () => {
  /** What a create sends that the record must hold as sent (platform.md §4 names each field of the record). */
  const KEPT = [
    'shipping', 'shipping_option', 'shipping_option_code', 'shipping_cost_customer', 'shipping_cost_owner', 'shipping_pickup_type',
    'shipping_store_branch_name', 'note', 'billing_name', 'billing_phone', 'billing_address', 'billing_number', 'billing_floor',
    'billing_locality', 'billing_zipcode', 'billing_city', 'billing_province', 'billing_country',
  ];
  const ADDRESS_FIELDS = ['address', 'number', 'floor', 'locality', 'city', 'province', 'zipcode', 'country', 'phone', 'name'];

  /** The fields of `expected` (a fixture object) whose value differs in `actual`, named under `where`. */
  const sameValues = (where: string, expected: any, actual: any, fields: string[]): string[] =>
    fields
      .filter((f) => f in expected && JSON.stringify(expected[f]) !== JSON.stringify(actual?.[f]))
      .map((f) => `${where}.${f} is ${JSON.stringify(actual?.[f])}; the fixture has ${JSON.stringify(expected[f])}`);

  it('POST /orders with addresses, billing, customer document and shipping details → 201 keeping each of them', async () => {
    const products = await all('/products');
    const variant = products.flatMap((p) => p.variants ?? []).find((v: any) => v.stock === null || Number(v.stock) >= 1);
    expect(variant, 'a demo variant in stock').toBeDefined();
    const request = fixture('order-create-request.json');
    request.products = [{ variant_id: variant.id, quantity: 1 }];
    const res = await t.post('/orders', request);
    expect(res.status, res.text).toBe(201);
    const answer = fixture('order-create.json');
    expectNone([
      ...differences('order create', [answer], [res.body], ORDER),
      ...sameValues('order create', answer, res.body, KEPT),
      ...sameValues('order create: shipping_address', answer.shipping_address, res.body.shipping_address, ADDRESS_FIELDS),
      ...sameValues('order create: customer', answer.customer, res.body.customer, ['name', 'email', 'phone', 'identification']),
      ...sameValues('order create: customer.default_address', answer.customer.default_address, res.body.customer?.default_address, ADDRESS_FIELDS),
      ...sameValues('order create', { status: 'open', payment_status: 'pending' }, res.body, ['status', 'payment_status']),
    ]);
  });

  it('POST /customers (§11) → 201 keeping what was sent; DELETE of a customer with orders → the 422 of the documentation', async () => {
    const request = fixture('customer-create-request.json');
    const res = await t.post('/customers', request);
    expect(res.status, res.text).toBe(201);
    const answer = fixture('customer-create.json');
    const withOrders = (await all('/customers')).find((c) => c.last_order_id !== null);
    const refused = await t.del(`/customers/${withOrders.id}`);
    const refusal = fixture('error-422-customer-with-orders.json');
    expectNone([
      ...differences('customer create', [answer], [res.body], CUSTOMER),
      ...sameValues('customer create', answer, res.body, ['name', 'email', 'phone', 'identification', 'extra', 'billing_address', 'billing_number', 'billing_city', 'billing_province', 'billing_zipcode', 'billing_country', 'total_spent', 'last_order_id']),
      ...sameValues('customer create: default_address', answer.default_address, res.body.default_address, [...ADDRESS_FIELDS.filter((f) => f !== 'name'), 'default']),
      ...(JSON.stringify(res.body).includes(request.password) ? ['customer create: the password is in the answer'] : []),
      ...sameValues('customer delete', { status: 422, ...refusal }, { status: refused.status, ...refused.body }, ['status', 'code', 'message', 'description']),
    ]);
  });

  it('GET /orders?fields=id,number,total → only those fields, number a numeric string', async () => {
    const res = await t.get('/orders', { query: { fields: 'id,number,total', per_page: 200 } });
    expect(res.status, res.text).toBe(200);
    const shown = fixture('orders-fields.json');
    const keys = JSON.stringify(Object.keys(shown[0]));
    expectNone([
      ...differences('orders fields=', shown, res.body, ['id', 'number', 'total']),
      ...res.body.flatMap((r: any) => (JSON.stringify(Object.keys(r)) === keys ? [] : [`orders fields=: record ${r.id} has ${Object.keys(r).join(',')}`])).slice(0, 1),
      // §0 lets a reader take either form of `number`; under fields= the platform sends the string.
      ...res.body.flatMap((r: any) => (typeof r.number === 'string' && /^\d+$/.test(r.number) ? [] : [`orders fields=: record ${r.id} has number ${JSON.stringify(r.number)}`])).slice(0, 1),
    ]);
  });

  it('GET /orders?channels= → the documented list of those channels; a channel with no order → the empty-list 404', async () => {
    const store = await all('/orders', { channels: 'store' });
    const none = await t.get('/orders', { query: { channels: 'pos' } });
    expectNone([
      ...differences('orders channels=store', fixture('orders.json'), store, [...ORDER, 'storefront']),
      ...store.filter((o) => o.storefront !== 'store').slice(0, 1).map((o) => `orders channels=store: order ${o.id} has storefront ${JSON.stringify(o.storefront)}`),
    ]);
    expect(store.length).toBeGreaterThan(0);
    expect(none.status).toBe(404);
    expect(none.body).toEqual(fixture('error-last-page-0.json'));
  });

  it('POST /orders/{id}/close → the order, closed; POST /orders/{id}/open → the order, open again', async () => {
    const open = (await all('/orders', { status: 'open' }))[0];
    expect(open, 'an open order in the demo store').toBeDefined();
    const closed = await t.post(`/orders/${open.id}/close`);
    expect(closed.status, closed.text).toBe(200);
    const reopened = await t.post(`/orders/${open.id}/open`);
    expect(reopened.status, reopened.text).toBe(200);
    const closedFixture = fixture('order-closed.json');
    const openFixture = fixture('order.json');
    expectNone([
      ...differences('order close', [closedFixture], [closed.body], ORDER),
      ...sameValues('order close', closedFixture, closed.body, ['status']),
      ...(typeof closed.body.closed_at === 'string' ? [] : [`order close: closed_at is ${JSON.stringify(closed.body.closed_at)}`]),
      ...differences('order open', [openFixture], [reopened.body], ORDER),
      ...sameValues('order open', openFixture, reopened.body, ['status', 'closed_at']),
    ]);
  });
});

/**
 * platform.md §10: the shipping requests — `PATCH …/fulfillment-orders/{id}` to PACKED and to DISPATCHED with
 * tracking info, a `delivered` tracking event, a `custom_*` one — answer the documented shapes of the fixtures;
 * a forbidden move, a bad body, the 101st event and an identical event answer the 400 bodies of the fixtures (not the
 * §1 envelope); `aggregates=fulfillment_orders` puts the shipments inside the order; the notifications have the
 * fixtures' fields.
 */
describe('the shipping requests take the documented bodies and answer the documented shapes (platform.md §10)', () => {
  let s: TestSandbox;
  let order: any;
  let fos: any[];
  const HISTORY = [
    'status_history[].created_at?', 'tracking_info.notify_customer?', 'tracking_info_history', 'tracking_info_history[].from_tracking_info',
    'tracking_info_history[].to_tracking_info', 'tracking_info_history[].to_tracking_info.code', 'tracking_info_history[].to_tracking_info.url',
    'tracking_info_history[].happened_at', 'tracking_info_history[].created_at', 'tracking_info_history[].app_id',
  ];
  const EVENT = ['id', 'status', 'description', 'address', 'geolocation', 'happened_at', 'estimated_delivery_at', 'created_at', 'updated_at'];
  const path = (fo: any) => `/orders/${order.id}/fulfillment-orders/${fo.id}`;
  /** A fixture with the listed ones, whose forms platform.md leaves open (a location name as text or by locale). */
  const withListed = (name: string) => [fixture(name), ...fixture('fulfillment-orders.json'), ...fixture('fulfillment-orders-dispatched.json')];
  /** The keys of a body and the JSON kind of each. */
  const kinds = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, kindOf(v)]));

  beforeAll(async () => {
    s = await startTestSandbox();
    const address = { zipcode: '1000', street: 'Calle', number: '1', city: 'CABA', province: { code: 'C', name: 'CABA' }, country: { code: 'AR' } };
    const [a, b] = [(await s.post('/locations', { name: 'Depósito', address })).body, (await s.post('/locations', { name: 'Loja', address })).body];
    const product = await s.post('/products', { name: 'Camiseta', sku: 'CAM-1', price: 39.9, inventory_levels: [{ location_id: a.id, stock: 1 }, { location_id: b.id, stock: 1 }] });
    expect(product.status, product.text).toBe(201);
    const created = await s.post('/orders', { customer: { name: 'Mariana Lima', email: 'mariana@example.com' }, products: [{ variant_id: product.body.variants[0].id, quantity: 2 }] });
    expect(created.status, created.text).toBe(201);
    order = created.body;
    fos = (await s.get(`/orders/${order.id}/fulfillment-orders`)).body;
    expect(fos).toHaveLength(2);
  });
  afterAll(() => s?.close());

  it('PATCH {status: PACKED} and {status: DISPATCHED, tracking_info} → 200 with the fulfillment order, its histories and tracking info', async () => {
    const packed = await s.patch(path(fos[1]), fixture('fulfillment-order-pack-request.json'));
    expect(packed.status, packed.text).toBe(200);
    expectOk(await s.patch(path(fos[0]), { status: 'PACKED' }));
    const request = fixture('fulfillment-order-dispatch-request.json');
    const dispatched = await s.patch(path(fos[0]), request);
    expect(dispatched.status, dispatched.text).toBe(200);
    expectNone([
      ...differences('fulfillment order packed', withListed('fulfillment-order-packed.json'), [packed.body], [...FULFILLMENT_ORDER, ...HISTORY]),
      ...differences('fulfillment order dispatched', withListed('fulfillment-order-dispatched.json'), [dispatched.body], [...FULFILLMENT_ORDER, ...HISTORY]),
    ]);
    expect(packed.body.status).toBe('PACKED');
    expect(dispatched.body).toMatchObject({ status: 'DISPATCHED', tracking_info: { code: request.tracking_info.code, url: request.tracking_info.url } });
    expect(dispatched.body.tracking_info_history.map((h: any) => h.to_tracking_info)).toEqual([{ code: request.tracking_info.code, url: request.tracking_info.url }]);
  });

  it('a delivered tracking event → 201 with the event; the fulfillment order DELIVERED, fulfilled_at its happened_at; a custom_* event', async () => {
    const request = fixture('tracking-event-delivered-request.json');
    const custom = fixture('tracking-event-custom.json');
    const customEvent = await s.post(`${path(fos[0])}/tracking-events`, { status: custom.status, description: custom.description, address: custom.address, happened_at: custom.happened_at });
    const event = await s.post(`${path(fos[0])}/tracking-events`, request);
    expect(event.status, event.text).toBe(201);
    const after = (await s.get(path(fos[0]))).body;
    expectNone([
      ...differences('tracking event delivered', [fixture('tracking-event-delivered.json')], [event.body], EVENT),
      ...differences('tracking event custom', [custom], [customEvent.body], EVENT),
      ...differences('fulfillment order delivered', withListed('fulfillment-order-delivered.json'), [after], [...FULFILLMENT_ORDER, ...HISTORY]),
    ]);
    expect(customEvent.body.status).toBe(custom.status);
    expect(after.status).toBe('DELIVERED');
    expect(Date.parse(after.fulfilled_at)).toBe(Date.parse(request.happened_at));
  });

  it('a forbidden move, a bad body, the 101st event and an identical event → the 400 bodies of the fixtures', async () => {
    const move = await s.patch(path(fos[0]), { status: 'UNPACKED' });
    const validation = await s.patch(path(fos[1]), { status: 'SHIPPED', tracking_info: { url: 'nowhere' } });
    expect([move.status, validation.status]).toEqual([400, 400]);
    expect(kinds(move.body)).toEqual(kinds(fixture('error-400-fulfillment-order-move.json')));
    expect(kinds(validation.body)).toEqual(kinds(fixture('error-400-fulfillment-order-validation.json')));
    expect(Object.keys(validation.body.messages).sort()).toEqual(Object.keys(fixture('error-400-fulfillment-order-validation.json').messages).sort());
    expectOk(await s.patch(path(fos[1]), { status: 'DISPATCHED' }));
    const first = await s.post(`${path(fos[1])}/tracking-events`, { status: 'in_transit', description: 'Scan 0', happened_at: '2024-03-06T10:00:00Z' });
    expect(first.status, first.text).toBe(201);
    const identical = await s.post(`${path(fos[1])}/tracking-events`, { status: 'in_transit', description: 'Scan 0', happened_at: '2024-03-06T10:00:30Z' });
    expect({ status: identical.status, body: identical.body }).toEqual({ status: 400, body: fixture('error-400-tracking-event-identical.json') });
    for (let i = 1; i < 100; i++) expect((await s.post(`${path(fos[1])}/tracking-events`, { status: 'in_transit', description: `Scan ${i}`, happened_at: '2024-03-06T10:00:00Z' })).status).toBe(201);
    const limit = await s.post(`${path(fos[1])}/tracking-events`, { status: 'in_transit', description: 'Scan 100', happened_at: '2024-03-06T10:00:00Z' });
    expect({ status: limit.status, body: limit.body }).toEqual({ status: 400, body: fixture('error-400-tracking-events-limit.json') });
  });

  it('GET /orders/{id} and GET /orders with aggregates=fulfillment_orders → the orders with their shipments inside', async () => {
    const single = await s.get(`/orders/${order.id}`, { query: { aggregates: 'fulfillment_orders' } });
    const list = await s.get('/orders', { query: { aggregates: 'fulfillment_orders' } });
    const SHIPMENTS = ['fulfillment_orders', ...FULFILLMENT_ORDER.map((p) => `fulfillment_orders[].${p}`)];
    expectNone([
      ...differences('order aggregates', [fixture('order-fulfillment-orders.json')], [single.body], [...ORDER, ...SHIPMENTS]),
      ...differences('orders aggregates', fixture('orders-fulfillment-orders.json'), list.body, [...ORDER, ...SHIPMENTS]),
    ]);
    expect(single.body.shipping_status).toBe('fulfilled');
  });

  it('fulfillment_order/status_updated and tracking_event_created send the fixtures\' fields', async () => {
    const received: any[] = [];
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        received.push(JSON.parse(raw));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const event of ['fulfillment_order/status_updated', 'fulfillment_order/tracking_event_created']) expect((await s.post('/webhooks', { event, url })).status).toBe(201);
      const product = (await s.post('/products', { name: 'Boné', sku: 'BON-1', price: 20, stock: 1 })).body;
      const another = (await s.post('/orders', { customer: { name: 'Ana' }, products: [{ variant_id: product.variants[0].id, quantity: 1 }] })).body;
      const fo = (await s.get(`/orders/${another.id}/fulfillment-orders`)).body[0];
      expectOk(await s.patch(`/orders/${another.id}/fulfillment-orders/${fo.id}`, { status: 'DISPATCHED' }));
      expectOk(await s.post(`/orders/${another.id}/fulfillment-orders/${fo.id}/tracking-events`, { status: 'in_transit', happened_at: '2024-03-06T10:00:00Z' }));
      const deadline = Date.now() + 10_000;
      while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const byEvent = (event: string) => received.find((b) => b.event === event);
      expectNone([
        ...differences('status_updated', [fixture('webhook-fulfillment-order-status-updated.json')], [byEvent('fulfillment_order/status_updated')], ['store_id', 'event', 'order_id', 'fulfillment_id', 'status']),
        ...differences('tracking_event_created', [fixture('webhook-fulfillment-order-tracking-event-created.json')], [byEvent('fulfillment_order/tracking_event_created')], ['store_id', 'event', 'order_id', 'fulfillment_id', 'status', 'tracking_event_id']),
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CategorySchema, listCategories } from '../../../src/api/categories.js';
import { CustomFieldSchema, listCustomFields } from '../../../src/api/custom-fields.js';
import { FulfillmentOrderSchema, listFulfillmentOrders } from '../../../src/api/fulfillment-orders.js';
import { LocationSchema, listLocations } from '../../../src/api/locations.js';
import { MetafieldSchema } from '../../../src/api/metafields.js';
import { OrderSchema, getOrder, listOrdersPage } from '../../../src/api/orders.js';
import { ProductSchema, findProductBySku, getProduct, listProducts } from '../../../src/api/products.js';
import { parseTimestamp } from '../../../src/platform/timestamps.js';
import { StoreRecordSchema, getStore, storeInfo } from '../../../src/api/store.js';
import { VariantSchema, listVariants } from '../../../src/api/variants.js';
import { WebhookSchema, listWebhooks } from '../../../src/api/webhooks.js';
import { ValidationError, errorFromResponse } from '../../../src/client/errors.js';
import { createClient, type StoreClient } from '../../../src/client/index.js';
import type { Column } from '../../../src/output/format.js';
import { categoryRows } from '../../../src/services/catalog/categories.js';
import { readInvoices } from '../../../src/services/orders/order-invoices.js';
import { categoryColumns } from '../../../src/views/categories.js';
import { locationFields } from '../../../src/views/locations.js';
import { customerLabel, orderColumns, orderItemColumns, orderRecordFields, totalLabel } from '../../../src/views/orders.js';
import { productColumns, productFields } from '../../../src/views/products.js';
import { customFieldColumns, variantColumns, variantOptions } from '../../../src/views/variants.js';
import { webhookColumns } from '../../../src/views/webhooks.js';
import { type ReplayServer, fixture, startReplayServer } from '../../helpers/replay-server.js';

/**
 * Issue 13's contract: every client schema and every importable view reads the documented responses of
 * test/fixtures/platform/ (platform.md) without throwing, and picks the documented values. The second half runs
 * the api functions themselves over HTTP against the replay server, so the pieces between a response and a
 * schema (empty-list 404s, lookups by SKU, the older invoice pair) are covered too.
 */

/** Parses with a schema and says which field failed, not just that one did. */
function read<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    expect.fail(`${what}: ${issue.message} at ${issue.path.join('.')}`);
  }
  return result.data;
}

function readAll<S extends z.ZodType>(schema: S, file: string): z.infer<S>[] {
  return fixture<unknown[]>(file).map((record, i) => read(schema, record, `${file}[${i}]`));
}

/** A row of a table view as header → cell text. */
function cells<Row>(columns: Column<Row>[], row: Row): Record<string, string> {
  return Object.fromEntries(columns.map((c) => [c.header, String(c.get(row) ?? '')]));
}

describe('schemas and views over the documented responses', () => {
  it('GET /store: name in the main language, active languages main first, main_currency, plan_name', () => {
    const info = storeInfo(read(StoreRecordSchema, fixture('store.json'), 'store.json'));
    expect(info).toMatchObject({ id: 1234567, name: 'Loja Aurora', main_language: 'pt', currency: 'BRL', plan: 'Business' });
    expect(info.languages).toEqual(['pt', 'es']);
  });

  it('products: full category objects, images, options only in `en`, the SKU-less product, numeric strings', () => {
    const [shirt, cap, gift] = readAll(ProductSchema, 'products.json');
    expect(read(ProductSchema, fixture('product.json'), 'product.json').id).toBe(101234567);
    expect(cells(productColumns, shirt!)).toMatchObject({ id: '101234567', name: 'Camiseta Básica', sku: 'CAM-AZ-M', price: '49.90', variants: '3', stock: '17' });
    expect(cells(productColumns, gift!)).toMatchObject({ name: 'Vale-presente', sku: '', price: '100.00', stock: '∞' });
    const capFields = Object.fromEntries(productFields(cap!));
    expect(capFields.Options, 'option names only in en on a pt store').toBe('Size');
    expect(cap!.variants.map(variantOptions)).toEqual(['S', 'L']);
    const shirtFields = Object.fromEntries(productFields(shirt!));
    expect(shirtFields.Options).toBe('Cor, Tamanho');
    expect(String(shirtFields.Categories)).toMatch(/3001|Roupas/);
    expect(String(shirtFields.Images)).toContain('https://cdn.lojaaurora.example/camiseta-azul.jpg');
    // Ids and stock sent as numeric strings read as numbers.
    expect(Number(shirt!.variants[2]!.product_id)).toBe(101234567);
    expect(Number(cap!.variants[1]!.id)).toBe(401234512);
  });

  it('variants: values, prices, null cost/width, stock as a numeric string', () => {
    const variants = readAll(VariantSchema, 'variants.json');
    expect(variants.map((v) => cells(variantColumns, v))).toEqual([
      expect.objectContaining({ id: '401234501', options: 'Azul / M', sku: 'CAM-AZ-M', price: '49.90', promotional_price: '39.90', stock: '12' }),
      expect.objectContaining({ id: '401234502', options: 'Azul / G', sku: 'CAM-AZ-G', price: '49.90', promotional_price: '', stock: '5' }),
      expect.objectContaining({ id: '401234503', options: 'Branco / M', stock: '0' }),
    ]);
    expect(variants.every((v) => v.inventory_levels === undefined), 'absent inventory_levels stay absent').toBe(true);
  });

  it('categories: a name only in `es` on a `pt` store falls back, paths in the main language', () => {
    const rows = categoryRows(readAll(CategorySchema, 'categories.json'), 'pt');
    expect(rows.map((r) => cells(categoryColumns, r))).toEqual([
      expect.objectContaining({ id: '3001', name: 'Roupas', path: 'Roupas' }),
      expect.objectContaining({ id: '3002', name: 'Camisetas', path: 'Roupas > Camisetas', parent: '3001' }),
      expect.objectContaining({ id: '3003', name: 'Accesorios', path: 'Accesorios' }),
    ]);
  });

  it('locations: names keyed by locale, store_id a string, no allows_pickup on one', () => {
    const locations = readAll(LocationSchema, 'locations.json');
    // locationFields: the record page of a location (its signature is the same before and after the
    // fulfill branch, which turns the table columns into locationColumnsFor(mainLanguage)).
    expect(locations.map((l) => Object.fromEntries(locationFields(l)))).toEqual([
      expect.objectContaining({ ID: '01HQ7Z8K3M2N4P6R8T0V2W4Y6A', Name: 'Depósito São Paulo', Default: 'yes' }),
      expect.objectContaining({ ID: '01HQ7Z8K3M2N4P6R8T0V2W4Y6B', Name: 'Local Palermo', Default: 'no', Pickup: 'no' }),
    ]);
    expect(String(Object.fromEntries(locationFields(locations[0]!)).Address)).toContain('São Paulo');
  });

  it('orders: documented records (numbers and numeric strings, a line without SKU), the single order and the older shape', () => {
    const [a, b, c] = readAll(OrderSchema, 'orders.json');
    const single = read(OrderSchema, fixture('order.json'), 'order.json');
    const older = read(OrderSchema, fixture('order-older.json'), 'order-older.json');
    expect(Number(a!.id)).toBe(871254203);
    expect(Number(single.id)).toBe(871254203);
    expect(customerLabel(a!)).toContain('Mariana Lima');
    expect(totalLabel(a!)).toContain('144.70');
    expect(totalLabel(b!)).toContain('237.41');
    expect(totalLabel(c!)).toContain('65.80');
    expect(totalLabel(older), 'the older shape: the total from price').toContain('89.90');
    expect(b!.products.map((p) => [Number(p.variant_id), Number(p.quantity), p.sku ?? ''])).toEqual([
      [401234503, 3, 'CAM-BR-M'],
      [401234521, 1, ''],
    ]);
    expect(a).toMatchObject({ payment_status: 'paid', shipping_status: 'unfulfilled', shipping: 'correios', gateway: 'mercadopago' });
  });

  it('fulfillment orders: ULIDs, upper-case statuses, line_items with nested string ids, no order_id', () => {
    const fos = [...readAll(FulfillmentOrderSchema, 'fulfillment-orders.json'), ...readAll(FulfillmentOrderSchema, 'fulfillment-orders-dispatched.json')];
    expect(fos.map((fo) => [fo.id, fo.status])).toEqual([
      ['01HR2B4C6D8E0F2G4H6J8K0M2N', 'PACKED'],
      ['01HR2B4C6D8E0F2G4H6J8K0M2P', 'UNPACKED'],
      ['01HR2B4C6D8E0F2G4H6J8K0M2Q', 'DISPATCHED'],
    ]);
    expect(fos[2]!.tracking_events.map((e) => e.status)).toEqual(['dispatched', 'received_by_post_office', 'in_transit']);
  });

  it('metafields: nfe/list, the older nfe/key + nfe/link pair (owner_id a string), another app\'s', () => {
    const metafields = [...readAll(MetafieldSchema, 'metafields-nfe-list.json'), ...readAll(MetafieldSchema, 'metafields-nfe-key-link.json')];
    expect(metafields.map((m) => `${m.namespace}/${m.key}`)).toEqual(['nfe/list', 'nfe/key', 'nfe/link', 'erp/sync_id']);
  });

  it('webhooks: without headers, headers null, an id as a numeric string, documented events', () => {
    const webhooks = readAll(WebhookSchema, 'webhooks.json');
    expect(webhooks.map((w) => cells(webhookColumns, w))).toEqual([
      expect.objectContaining({ id: '9001', event: 'order/created', headers: 'X-Erp-Source' }),
      expect.objectContaining({ id: '9002', event: 'order/packed', headers: '' }),
      expect.objectContaining({ id: '9003', event: 'domain/updated', headers: '' }),
    ]);
  });

  it('custom fields: owner_resource, text_list/date/numeric, null values', () => {
    const fields = readAll(CustomFieldSchema, 'custom-fields.json');
    expect(fields.map((f) => cells(customFieldColumns, f))).toEqual([
      expect.objectContaining({ name: 'Material', type: 'text_list', values: 'Algodão, Linho, Poliéster' }),
      expect.objectContaining({ name: 'Lançamento', type: 'date' }),
      expect.objectContaining({ name: 'Peso bruto (g)', type: 'numeric', values: '' }),
    ]);
  });

  it('error bodies: a 422 bare field map names the field; a null description is no crash', () => {
    const invalid = errorFromResponse('POST', 'https://store.example/v1/1/products', 422, fixture('error-422-field-map.json'));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid.message).toContain("can't be blank");
    const limit = errorFromResponse('POST', 'https://store.example/v1/1/products', 422, fixture('error-422-envelope.json'));
    expect(limit.message).toContain('100000');
    expect(errorFromResponse('GET', 'https://store.example/v1/1/orders/5', 404, fixture('error-not-found.json')).exitCode).toBe(1);
  });
});

describe('order views over the documented records', () => {
  it('orders list columns: named as the API names them, status, payment and shipping state, total', () => {
    const [a, b, c] = readAll(OrderSchema, 'orders.json');
    expect(cells(orderColumns, a!)).toMatchObject({ id: '871254203', number: '1042', status: 'open', payment_status: 'paid', shipping_status: 'unfulfilled', total: '144.70' });
    expect(cells(orderColumns, b!)).toMatchObject({ id: '871254198', status: 'closed', payment_status: 'paid', shipping_status: 'shipped', total: '237.41' });
    expect(cells(orderColumns, c!)).toMatchObject({ status: 'cancelled', payment_status: 'voided', shipping_status: 'unpacked' });
    expect(cells(orderColumns, read(OrderSchema, fixture('order-older.json'), 'order-older.json')).total, 'the older shape: price').toBe('89.90');
  });

  it('orders get fields: payment from gateway/payment_details, shipping from shipping/shipping_option/cost, tracking', () => {
    const a = Object.fromEntries(orderRecordFields(read(OrderSchema, fixture('order.json'), 'order.json')));
    expect(String(a.payment)).toMatch(/paid/);
    expect(String(a.payment)).toMatch(/Mercado Pago|mercadopago/);
    expect(String(a.payment)).toMatch(/visa/);
    expect(String(a.shipping)).toMatch(/unfulfilled/);
    expect(String(a.shipping)).toContain('Correios - PAC');
    expect(String(a.shipping)).toContain('15.90');
    expect(String(a.total)).toContain('144.70');
    const b = Object.fromEntries(orderRecordFields(readAll(OrderSchema, 'orders.json')[1]!));
    expect(String(b.tracking)).toContain('1Z999AA10123456784');
  });

  it('order lines: numbers and numeric strings, a line without SKU', () => {
    const b = readAll(OrderSchema, 'orders.json')[1]!;
    expect(b.products.map((line) => cells(orderItemColumns, line))).toEqual([
      expect.objectContaining({ variant: '401234503', sku: 'CAM-BR-M', quantity: '3', price: '52.90' }),
      expect.objectContaining({ variant: '401234521', sku: '', name: 'Vale-presente', quantity: '1' }),
    ]);
  });
});

/**
 * "The client must follow the rules of platform.md, not the particular examples in test/fixtures": the same
 * fixtures, rewritten by the rules of §0 in random ways, must still read.
 */
describe('the rules of platform.md §0, beyond the fixtures\' examples', () => {
  const SCHEMAS: [string, z.ZodType, string[]][] = [
    ['store', StoreRecordSchema, ['store.json']],
    ['products', ProductSchema, ['products.json', 'product.json']],
    ['variants', VariantSchema, ['variants.json']],
    ['categories', CategorySchema, ['categories.json']],
    ['locations', LocationSchema, ['locations.json']],
    ['orders', OrderSchema, ['orders.json', 'order.json', 'order-older.json']],
    ['fulfillment orders', FulfillmentOrderSchema, ['fulfillment-orders.json', 'fulfillment-orders-dispatched.json']],
    ['metafields', MetafieldSchema, ['metafields-nfe-list.json', 'metafields-nfe-key-link.json']],
    ['webhooks', WebhookSchema, ['webhooks.json']],
    ['custom fields', CustomFieldSchema, ['custom-fields.json']],
  ];
  const records = (files: string[]) => files.flatMap((f) => {
    const value = fixture(f);
    return Array.isArray(value) ? value : [value];
  });
  const isId = (key: string) => key === 'id' || key.endsWith('_id');
  const LANGUAGE_KEYS = new Set(['pt', 'es', 'en', 'pt_BR', 'es_AR', 'en_US']);

  /** Where a leaf sits: the field holding it (a language key names its localized field) and whether it is an array element. */
  interface Leaf {
    key: string;
    path: string;
    inArray: boolean;
  }

  /** A copy of `value` with `change` applied to every leaf. */
  function mapLeaves(value: unknown, change: (leaf: unknown, at: Leaf) => unknown, at: Leaf = { key: '', path: '', inArray: false }): unknown {
    if (Array.isArray(value)) return value.map((v) => mapLeaves(v, change, { ...at, path: `${at.path}[]`, inArray: true }));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => {
          const key = LANGUAGE_KEYS.has(k) ? at.key : k;
          return [k, mapLeaves(v, change, { key, path: at.path ? `${at.path}.${k}` : k, inArray: false })];
        }),
      );
    }
    return change(value, at);
  }

  /** §0: "a number or a numeric string wherever a number is expected (ids, quantities, `number`, stock)". */
  const numberOrString = (name: string, at: Leaf) =>
    isId(at.key) || ['quantity', 'total_quantity', 'stock'].includes(at.key) || (name === 'orders' && at.path === 'number');

  for (const [name, schema, files] of SCHEMAS) {
    it(`${name}: ids, quantities, number and stock as numbers or numeric strings, in any mix`, () => {
      fc.assert(
        fc.property(fc.infiniteStream(fc.boolean()), (flips) => {
          const coin = flips[Symbol.iterator]();
          for (const record of records(files)) {
            const mixed = mapLeaves(record, (leaf, at) => {
              if (!numberOrString(name, at) || !coin.next().value) return leaf;
              if (typeof leaf === 'number') return String(leaf);
              if (typeof leaf === 'string' && /^\d+$/.test(leaf)) return Number(leaf);
              return leaf;
            });
            const result = schema.safeParse(mixed);
            if (!result.success) expect.fail(`${name} ${JSON.stringify((record as { id?: unknown }).id)}: ${result.error.issues[0]!.message} at ${result.error.issues[0]!.path.join('.')}`);
          }
        }),
        { numRuns: 25 },
      );
    });

    it(`${name}: null for any field that is not an id`, () => {
      fc.assert(
        fc.property(fc.infiniteStream(fc.boolean()), (flips) => {
          const coin = flips[Symbol.iterator]();
          for (const record of records(files)) {
            // Fields, not array elements (the ids of `subcategories`, the texts of `variant_values`).
            const nulled = mapLeaves(record, (leaf, at) => (leaf !== null && !at.inArray && !isId(at.key) && coin.next().value ? null : leaf));
            const result = schema.safeParse(nulled);
            if (!result.success) expect.fail(`${name} ${JSON.stringify((record as { id?: unknown }).id)}: ${result.error.issues[0]!.message} at ${result.error.issues[0]!.path.join('.')}`);
          }
        }),
        { numRuns: 25 },
      );
    });
  }

  it('every timestamp of the fixtures reads, in either offset form', () => {
    const stamps: string[] = [];
    for (const file of ['store.json', 'products.json', 'categories.json', 'locations.json', 'orders.json', 'order-older.json', 'fulfillment-orders.json', 'fulfillment-orders-dispatched.json', 'webhooks.json']) {
      mapLeaves(fixture(file), (leaf, at) => (at.key.endsWith('_at') && typeof leaf === 'string' ? stamps.push(leaf) : undefined));
    }
    expect(stamps.some((s) => s.endsWith('+0000'))).toBe(true);
    expect(stamps.some((s) => s.endsWith('-03:00'))).toBe(true);
    for (const stamp of stamps) {
      const date = parseTimestamp(stamp);
      expect(date, stamp).toBeDefined();
      const colon = stamp.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
      expect(parseTimestamp(colon)?.getTime(), colon).toBe(date!.getTime());
    }
  });

  it('a localized text without the main language falls back to another language in every catalog view', () => {
    const strip = (value: any): any => {
      if (Array.isArray(value)) return value.map(strip);
      if (value && typeof value === 'object') {
        const keys = Object.keys(value);
        const localized = keys.length > 1 && keys.every((k) => LANGUAGE_KEYS.has(k));
        return Object.fromEntries(Object.entries(value).filter(([k]) => !(localized && k === 'pt')).map(([k, v]) => [k, strip(v)]));
      }
      return value;
    };
    // Every localized object loses its `pt` key: the views must show the `es` (or `en`) text instead.
    for (const product of readAll(ProductSchema, 'products.json').map((p) => read(ProductSchema, strip(fixture<any[]>('products.json').find((raw) => Number(raw.id) === p.id)), 'stripped product'))) {
      expect(cells(productColumns, product).Name, `product ${product.id}`).not.toBe('');
      for (const variant of product.variants) {
        if (variant.values.length > 0) expect(variantOptions(variant), `variant ${variant.id}`).not.toBe('');
      }
      expect(String(Object.fromEntries(productFields(product)).Options).replace(/[, ]/g, '') !== '' || product.attributes.length === 0).toBe(true);
    }
    const rows = categoryRows(readAll(CategorySchema, 'categories.json').map((c) => read(CategorySchema, strip(c), 'stripped category')), 'pt');
    expect(rows.map((r) => r.name)).toEqual(['Ropa', 'Remeras', 'Accesorios']);
  });
});

describe('api functions over HTTP against the replay server', () => {
  let server: ReplayServer;
  let client: StoreClient;
  const warnings: string[] = [];

  beforeAll(async () => {
    server = await startReplayServer();
    client = createClient({
      apiUrl: server.url,
      storeId: server.storeId,
      token: server.token,
      appName: 'Contract unit',
      appId: '1',
      warn: (message) => warnings.push(message),
      retries: 0,
    });
  });
  afterAll(() => server?.close());

  it('GET /store', async () => {
    expect(await getStore(client)).toMatchObject({ name: 'Loja Aurora', plan: 'Business', currency: 'BRL', languages: ['pt', 'es'] });
  });

  it('orders: the list, each single order, and a filter matching nothing as an empty page', async () => {
    const page = await listOrdersPage(client, {}, 1, 30);
    expect(page.orders.map((o) => Number(o.id))).toEqual([871254203, 871254198, 871254190]);
    expect(page.total).toBe(3);
    for (const id of [871254203, 871254198, 871254190, 871254150]) expect(Number((await getOrder(client, id)).id)).toBe(id);
    const none = await listOrdersPage(client, { payment_status: 'abandoned' } as never, 1, 30);
    expect(none.orders).toEqual([]);
  });

  it('fulfillment orders: two, one, and none (404 Last page is 0)', async () => {
    expect((await listFulfillmentOrders(client, 871254203)).map((fo) => fo.id)).toEqual(['01HR2B4C6D8E0F2G4H6J8K0M2N', '01HR2B4C6D8E0F2G4H6J8K0M2P']);
    expect(await listFulfillmentOrders(client, 871254198)).toHaveLength(1);
    expect(await listFulfillmentOrders(client, 871254190)).toEqual([]);
  });

  it('invoices: nfe/list, the older nfe/key + nfe/link pair, and none', async () => {
    expect((await readInvoices(client, 871254203)).invoices.map((i) => i.key)).toEqual([
      '35240312345678000199550010000010421001234562',
      '35240312345678000199550010000010431701234562',
    ]);
    expect((await readInvoices(client, 871254198)).invoices).toEqual([
      expect.objectContaining({
        key: '35240212345678000199550010000010391101234565',
        link: 'https://nfe.fazenda.sp.gov.br/portal/consulta?chave=35240212345678000199550010000010391101234565',
      }),
    ]);
    expect((await readInvoices(client, 871254190)).invoices).toEqual([]);
  });

  it('products: the list and one product', async () => {
    const { products, total } = await listProducts(client, { perPage: 200 });
    expect(products.map((p) => p.id)).toEqual([101234567, 101234568, 101234569]);
    expect(total).toBe(3);
    expect((await getProduct(client, 101234568)).attributes).toEqual([{ en: 'Size' }]);
  });

  it('products: one SKU through GET /products/sku/{sku}', async () => {
    const before = server.requests.length;
    expect((await findProductBySku(client, 'BON-L'))?.id).toBe(101234568);
    expect(server.requests.slice(before).map((r) => r.path)).toContain('/products/sku/BON-L');
    expect(await findProductBySku(client, 'NO-SUCH-SKU')).toBeUndefined();
  });

  it('variants', async () => {
    expect((await listVariants(client, 101234567)).map((v) => v.sku)).toEqual(['CAM-AZ-M', 'CAM-AZ-G', 'CAM-BR-M']);
  });

  it('categories', async () => {
    expect((await listCategories(client)).map((c) => c.id)).toEqual([3001, 3002, 3003]);
  });

  it('locations', async () => {
    expect((await listLocations(client)).map((l) => l.id)).toEqual(['01HQ7Z8K3M2N4P6R8T0V2W4Y6A', '01HQ7Z8K3M2N4P6R8T0V2W4Y6B']);
  });

  it('webhooks', async () => {
    expect((await listWebhooks(client)).map((w) => Number(w.id))).toEqual([9001, 9002, 9003]);
  });

  it('custom fields', async () => {
    expect((await listCustomFields(client)).map((f) => f.name)).toEqual(['Material', 'Lançamento', 'Peso bruto (g)']);
  });

  it('no documented record was left out as unreadable', () => {
    expect(warnings.filter((w) => /could not be read/.test(w))).toEqual([]);
  });
});

/**
 * A large store's orders, served the way the platform documents them, written from docs/platform.md and
 * ../shared/spec/platform.md §1, §4 and §9 alone (node:http; it imports nothing of src/): an independent check
 * that the CLI reads a real store of more than 10,000 orders, not only the sandbox it was written beside.
 *
 *   const server = await startLargeStore({ orders: 12_100 });
 *   env: STORE_API_URL=server.url, STORE_ID=server.storeId, STORE_TOKEN=server.token
 *   server.orders     // every order, newest first (as GET /orders lists them)
 *   server.requests   // {query, status} of every GET /orders, in arrival order
 *
 * GET /v1/{storeId}/orders (token in `Authentication: bearer …`, else 401):
 *   - newest first by `created_at` (whole seconds; several orders share some), ties by id;
 *   - filters (§4): status, payment_status, shipping_status (each also `any`), created_at_min/max and
 *     updated_at_min/max (inclusive, ISO 8601 with either offset form), total_min/max (inclusive), customer_ids,
 *     channels (the order's `storefront`), payment_methods (payment_details.method), payment_provider (gateway),
 *     since_id (id greater), q (the number, or text in the customer's name or email, case aside);
 *     a filter value it cannot read is a 422 naming it;
 *   - `fields=a,b`: only those fields, `number` as a numeric string (§4);
 *   - page (from 1), per_page (default 30, at most 200, else 422); x-total-count (every match); Link with
 *     absolute next/prev/first/last;
 *   - §9: a page reaching past the 10,000th match → 422 "Query results are limited to 10000 items";
 *   - §1: nothing matches → 404 "Last page is 0"; a page past the end → 404 "Last page is N".
 * Orders as §4 draws them: money as strings, `shipping` a carrier code, lines whose ids and quantities are
 * numbers in some orders and numeric strings in others, timestamps with `-03:00` or `+0000`.
 *
 * `onList` runs before each GET /orders is answered (a test adds orders "while the CLI reads").
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LargeOrder {
  id: number;
  number: number;
  created_at: string;
  updated_at: string;
  status: string;
  payment_status: string;
  shipping_status: string;
  storefront: string;
  gateway: string;
  payment_details: { method: string; credit_card_company: string | null; installments: number };
  customer: { id: number; name: string; email: string; phone: string; identification: string };
  shipping_address: { name: string; address: string; number: string; floor: string | null; locality: string | null; city: string; province: string; zipcode: string; country: string };
  products: { id: number | string; product_id: number; variant_id: number | string; name: string; sku?: string; quantity: number | string; price: string }[];
  shipping: string;
  shipping_cost_customer: string;
  subtotal: string;
  discount: string;
  total: string;
  currency: string;
  [field: string]: unknown;
}

export interface LargeStoreOptions {
  orders?: number;
  /** This many more orders all created in one second (many orders at once: a sale's opening). */
  burst?: number;
  storeId?: number;
  token?: string;
  /** Days the orders are spread over, ending now (default 365). */
  days?: number;
}

export interface LargeStore {
  url: string;
  storeId: number;
  token: string;
  /** Newest first. */
  orders: LargeOrder[];
  requests: { query: Record<string, string>; status: number }[];
  /** Adds an order created now (it comes first). */
  addOrder(): LargeOrder;
  onList?: () => void;
  close(): Promise<void>;
}

const CAP = 10_000;
const STATUSES = ['open', 'closed', 'cancelled'];
const PAYMENT = ['pending', 'authorized', 'paid', 'abandoned', 'refunded', 'voided'];
const SHIPPING = ['unpacked', 'unfulfilled', 'fulfilled'];
const CHANNELS = ['store', 'store', 'store', 'api', 'pos', 'meli'];
const METHODS = [
  ['mercadopago', 'credit_card'],
  ['mercadopago', 'account_money'],
  ['pagonube', 'credit_card'],
  ['offline', 'bank_transfer'],
  ['offline', 'cash'],
] as const;
const NAMES = ['Ana Gómez', 'Bruno Díaz', 'Carla López', 'Diego Pérez', 'Elena Ruiz', 'Iñaki Núñez'];

/** xorshift: the same store for the same options. */
function random(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

/** Whole-second times in one of the two documented offset forms. */
function timeText(ms: number, compact: boolean): string {
  const local = new Date(ms - 3 * 3_600_000).toISOString().slice(0, 19);
  return compact ? `${new Date(ms).toISOString().slice(0, 19)}+0000` : `${local}-03:00`;
}

function parseTimeParam(text: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  if (!m) return undefined;
  const offset = m[3] === undefined || m[3] === 'Z' ? 'Z' : m[3].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}${offset}`);
  return Number.isNaN(ms) ? undefined : ms;
}

const timeOf = (text: string) => Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));

export async function startLargeStore(options: LargeStoreOptions = {}): Promise<LargeStore> {
  const storeId = options.storeId ?? 4_242_424;
  const token = options.token ?? 'large-store-token';
  const rnd = random(20_261_125);
  const now = Math.floor(Date.now() / 1000) * 1000;
  const span = (options.days ?? 365) * 86_400_000;
  let nextId = 300_000_001;
  let nextNumber = 1001;
  let nextLine = 1;

  const make = (at: number): LargeOrder => {
    const i = nextId - 300_000_001;
    const [gateway, method] = METHODS[Math.floor(rnd() * METHODS.length)]!;
    const name = NAMES[i % NAMES.length]!;
    const customerId = 5000 + (i % 997);
    const lineCount = 1 + Math.floor(rnd() * 3);
    const strings = i % 3 === 1;
    const products = Array.from({ length: lineCount }, (_, l) => {
      const quantity = 1 + Math.floor(rnd() * 3);
      const line = {
        id: strings ? String(nextLine) : nextLine,
        product_id: 700 + l,
        variant_id: strings ? String(9000 + l) : 9000 + l,
        name: `Remera ${l + 1}`,
        quantity: strings ? String(quantity) : quantity,
        price: (500 + l * 250).toFixed(2),
        ...(l === 2 ? {} : { sku: `REM-${l + 1}` }),
      };
      nextLine++;
      return line;
    });
    const subtotal = products.reduce((sum, p) => sum + Number(p.price) * Number(p.quantity), 0);
    const shippingCost = i % 4 === 0 ? 0 : 1500;
    const compact = i % 5 === 0;
    return {
      id: nextId++,
      number: nextNumber++,
      token: `t${i}`,
      created_at: timeText(at, compact),
      updated_at: timeText(Math.min(now, at + Math.floor(rnd() * 30) * 86_400_000), compact),
      status: STATUSES[i % STATUSES.length]!,
      payment_status: PAYMENT[i % PAYMENT.length]!,
      shipping_status: SHIPPING[i % SHIPPING.length]!,
      storefront: CHANNELS[i % CHANNELS.length]!,
      gateway,
      gateway_name: gateway,
      payment_details: { method, credit_card_company: method === 'credit_card' ? 'visa' : null, installments: 1 },
      customer: { id: customerId, name, email: `buyer${customerId}@example.com`, phone: '+54 11 5555-0000', identification: String(20_000_000 + customerId) },
      shipping_address: { name, address: 'Av. Siempre Viva', number: String(100 + (i % 900)), floor: null, locality: null, city: 'Rosario', province: 'Santa Fe', zipcode: '2000', country: 'AR' },
      products,
      shipping: 'correo-argentino',
      shipping_option: 'Correo Argentino',
      shipping_cost_customer: shippingCost.toFixed(2),
      shipping_cost_owner: shippingCost.toFixed(2),
      subtotal: subtotal.toFixed(2),
      discount: '0.00',
      total: (subtotal + shippingCost).toFixed(2),
      currency: 'ARS',
      language: 'es',
      note: null,
      owner_note: null,
    };
  };

  const count = options.orders ?? 12_100;
  // Oldest first, so numbers and ids grow with time; about one second in ten holds two or more orders.
  const times = Array.from({ length: count }, () => now - 60_000 - Math.floor((rnd() * span) / 10_000) * 10_000).sort((a, b) => a - b);
  const burstAt = now - span / 2;
  const all: LargeOrder[] = [];
  let burstLeft = options.burst ?? 0;
  for (const at of times) {
    if (burstLeft > 0 && at > burstAt) {
      for (; burstLeft > 0; burstLeft--) all.push(make(Math.floor(burstAt / 1000) * 1000));
    }
    all.push(make(at));
  }
  for (; burstLeft > 0; burstLeft--) all.push(make(Math.floor(burstAt / 1000) * 1000));
  const newestFirst = (list: LargeOrder[]) => list.sort((a, b) => timeOf(b.created_at) - timeOf(a.created_at) || b.id - a.id);
  newestFirst(all);

  const requests: LargeStore['requests'] = [];
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, description: string | null) =>
    send(res, status, { code: status, message: status === 404 ? 'Not Found' : status === 401 ? 'Unauthorized' : 'Unprocessable Entity', description });

  const store: LargeStore = {
    url: '',
    storeId,
    token,
    orders: all,
    requests,
    addOrder() {
      const order = make(Math.floor(Date.now() / 1000) * 1000);
      all.unshift(order);
      return order;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const auth = String(req.headers.authentication ?? req.headers.authorization ?? '');
    if (auth.replace(/^bearer\s+/i, '') !== token) return error(res, 401, 'Invalid access token');
    if (req.method !== 'GET' || url.pathname !== `/v1/${storeId}/orders`) return error(res, 404, `No route ${req.method} ${url.pathname}`);
    const query = Object.fromEntries(url.searchParams);
    const record = { query, status: 0 };
    requests.push(record);
    store.onList?.();
    const reply = (status: number, body: unknown, headers?: Record<string, string>) => {
      record.status = status;
      send(res, status, body, headers);
    };
    const refuse = (name: string, problem: string) => {
      record.status = 422;
      send(res, 422, { [name]: [problem] });
    };

    const filters: ((o: LargeOrder) => boolean)[] = [];
    for (const [name, values, read] of [
      ['status', STATUSES, (o: LargeOrder) => o.status],
      ['payment_status', PAYMENT, (o: LargeOrder) => o.payment_status],
      ['shipping_status', SHIPPING, (o: LargeOrder) => o.shipping_status],
    ] as const) {
      const value = query[name];
      if (value === undefined || value === 'any') continue;
      if (!(values as readonly string[]).includes(value)) return refuse(name, 'is not valid');
      filters.push((o) => read(o) === value);
    }
    for (const [field, read] of [
      ['created_at', (o: LargeOrder) => timeOf(o.created_at)],
      ['updated_at', (o: LargeOrder) => timeOf(o.updated_at)],
    ] as const) {
      for (const end of ['min', 'max'] as const) {
        const text = query[`${field}_${end}`];
        if (text === undefined) continue;
        const ms = parseTimeParam(text);
        if (ms === undefined) return refuse(`${field}_${end}`, 'is not a date');
        filters.push(end === 'min' ? (o) => read(o) >= ms : (o) => read(o) <= ms);
      }
    }
    for (const end of ['min', 'max'] as const) {
      const text = query[`total_${end}`];
      if (text === undefined) continue;
      if (!/^\d+(\.\d+)?$/.test(text)) return refuse(`total_${end}`, 'is not a number');
      const amount = Number(text);
      filters.push(end === 'min' ? (o) => Number(o.total) >= amount : (o) => Number(o.total) <= amount);
    }
    const set = (name: string) => (query[name] === undefined ? undefined : new Set(query[name]!.split(',').map((v) => v.trim())));
    const customers = set('customer_ids');
    if (customers) filters.push((o) => customers.has(String(o.customer.id)));
    const channels = set('channels');
    if (channels) filters.push((o) => channels.has(o.storefront));
    const methods = set('payment_methods');
    if (methods) filters.push((o) => methods.has(o.payment_details.method));
    if (query.payment_provider !== undefined) filters.push((o) => o.gateway === query.payment_provider);
    if (query.since_id !== undefined) {
      if (!/^\d+$/.test(query.since_id)) return refuse('since_id', 'is not an id');
      const since = Number(query.since_id);
      filters.push((o) => o.id > since);
    }
    if (query.q !== undefined) {
      const q = query.q.toLowerCase();
      filters.push((o) => String(o.number) === q || o.customer.name.toLowerCase().includes(q) || o.customer.email.toLowerCase().includes(q));
    }

    const page = Number(query.page ?? 1);
    const perPage = Number(query.per_page ?? 30);
    if (!Number.isInteger(page) || page < 1) return refuse('page', 'must be at least 1');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 200) return refuse('per_page', 'must be between 1 and 200');

    const matches = all.filter((o) => filters.every((f) => f(o)));
    const last = Math.ceil(matches.length / perPage);
    const first = (page - 1) * perPage;
    if (first < matches.length && Math.min(first + perPage, matches.length) > CAP) {
      record.status = 422;
      return send(res, 422, { code: 422, message: 'Unprocessable Entity', description: `Query results are limited to ${CAP} items` });
    }
    if (page > last) {
      record.status = 404;
      return error(res, 404, `Last page is ${last}`);
    }
    const link = (p: number, rel: string) => {
      const params = new URLSearchParams(url.searchParams);
      params.set('page', String(p));
      params.set('per_page', String(perPage));
      return `<${store.url}/v1/${storeId}/orders?${params}>; rel="${rel}"`;
    };
    const links = [...(page < last ? [link(page + 1, 'next')] : []), ...(page > 1 ? [link(page - 1, 'prev')] : []), link(1, 'first'), link(last, 'last')];
    let items: unknown[] = matches.slice(first, first + perPage);
    const fields = query.fields?.split(',').map((f) => f.trim()).filter(Boolean);
    if (fields?.length) {
      items = (items as LargeOrder[]).map((o) => Object.fromEntries(fields.filter((f) => f in o).map((f) => [f, f === 'number' ? String(o.number) : o[f]])));
    }
    reply(200, items, { 'x-total-count': String(matches.length), link: links.join(', ') });
  };

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      send(res, 500, { code: 500, message: 'Internal Server Error', description: String(err) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  store.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return store;
}

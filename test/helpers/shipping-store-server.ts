/**
 * A store's orders and their shipments, served the way the platform documents them, written from
 * ../shared/spec/platform.md §1, §2, §4, §5, §10 and §11 alone (node:http; it imports nothing of src/): an independent
 * check that the shipping commands work against a store that is not the sandbox they were written beside.
 *
 *   const server = await startShippingStore();
 *   const order = server.addOrder({ shipments: ['ship', 'ship'] });   // two fulfillment orders, UNPACKED
 *   env: STORE_API_URL=server.url, STORE_ID=server.storeId, STORE_TOKEN=server.token
 *   server.requests  // {method, path, query} of every request, in arrival order
 *
 * Below /v1/{storeId} (token in `Authentication: bearer …`, else 401):
 *   GET   /store                                      §2: name localized, main_language, languages keyed by code
 *   GET   /orders                                     §4: status, shipping_status (unpacked; unfulfilled = packing begun
 *                                                      or part sent; fulfilled), q (the number), page, per_page (≤ 200),
 *                                                      x-total-count; §1: nothing → 404 "Last page is 0"
 *   GET   /orders/{id}                                the order; 404 envelope for another id
 *   …?aggregates=fulfillment_orders                   §10: both GETs with the order's FOs inside
 *   GET   /orders/{id}/fulfillment-orders[/{fo}]       §5: ULID ids, upper-case status, no order_id
 *   PATCH /orders/{id}/fulfillment-orders/{fo}         §10: {status[, tracking_info {code, url, notify_customer}]};
 *                                                      the moves the text states (READY_FOR_PICKUP only for pickup,
 *                                                      non-shippable only to DELIVERED, back to UNPACKED only from
 *                                                      PACKED, never back once DISPATCHED, DELIVERED final): anything
 *                                                      else it forbids is a generic 400 {description, message};
 *                                                      DELIVERED sets fulfilled_at to now
 *   POST  /orders/{id}/fulfillment-orders/{fo}/tracking-events   §10: only a DISPATCHED FO (else 400); `delivered`
 *                                                      moves it to DELIVERED, fulfilled_at = the event's happened_at
 *   GET   /metafields/orders                          §1: 404 "Last page is 0" (no invoices)
 *   GET   /customers                                  §11: q (name, email or identification, any part, case aside),
 *                                                      email (2025-03: whole, case aside), page, per_page (≤ 200);
 *                                                      newest first (the order is not documented); nothing → 404
 *   GET   /customers/{id}                             §11: the customer; 404 envelope for another id
 *   GET   /orders?customer_ids=1,2                    §11: a customer's orders (order.customer is each order's own)
 * The order's `shipping_status` follows its FOs (§10): unpacked, partially_packed, packed, partially_fulfilled,
 * fulfilled.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type ShippingType = 'ship' | 'pickup' | 'non-shippable';

export interface ShippingStoreFO {
  id: string;
  number: string;
  status: string;
  shipping: { type: ShippingType; carrier: string; option: string };
  tracking_info: { code: string; url: string | null; notify_customer: boolean } | null;
  status_history: { from_status: string | null; to_status: string; happened_at: string }[];
  tracking_events: Record<string, unknown>[];
  fulfilled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ShippingStoreCustomer {
  id: number;
  name: string;
  email: string;
  identification: string | null;
  phone: string | null;
  created_at: string;
}

export interface ShippingStoreOrder {
  id: number;
  customer_id: number;
  number: number;
  status: string;
  payment_status: string;
  created_at: string;
  fos: ShippingStoreFO[];
}

export interface ShippingStore {
  url: string;
  storeId: number;
  token: string;
  orders: ShippingStoreOrder[];
  requests: { method: string; path: string; query: URLSearchParams }[];
  customers: ShippingStoreCustomer[];
  addCustomer(customer: { name: string; email: string; identification?: string }): ShippingStoreCustomer;
  /** `customerId` defaults to the first customer: Ana Souza, ana@example.com. */
  addOrder(options?: { shipments?: ShippingType[]; status?: string; customerId?: number }): ShippingStoreOrder;
  close(): Promise<void>;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulid = () => Array.from(randomBytes(26), (b) => CROCKFORD[b % 32]).join('');
const now = () => new Date().toISOString().replace(/\.\d+Z$/, '+0000');

/** §10: the order's shipping_status from its FOs. */
function shippingStatus(fos: ShippingStoreFO[]): string {
  const sent = fos.filter((f) => f.status === 'DISPATCHED' || f.status === 'DELIVERED').length;
  if (fos.length > 0 && sent === fos.length) return 'fulfilled';
  if (sent > 0) return 'partially_fulfilled';
  const packed = fos.filter((f) => f.status === 'PACKED' || f.status === 'READY_FOR_PICKUP').length;
  if (packed === 0) return 'unpacked';
  return packed === fos.length ? 'packed' : 'partially_packed';
}

/** The moves the platform's text forbids (§10); what it does not state is let through. */
function forbidden(fo: ShippingStoreFO, to: string): string | undefined {
  const from = fo.status;
  if (!['UNPACKED', 'PACKED', 'DISPATCHED', 'READY_FOR_PICKUP', 'DELIVERED'].includes(to)) return `Invalid status ${to}`;
  if (from === 'DELIVERED') return 'The fulfillment order is already delivered';
  if (to === 'READY_FOR_PICKUP' && fo.shipping.type !== 'pickup') return 'Only pickup fulfillment orders can be ready for pickup';
  if (fo.shipping.type === 'non-shippable' && to !== 'DELIVERED') return 'A non-shippable fulfillment order can only be delivered';
  if (to === 'UNPACKED' && from !== 'PACKED') return `Cannot go back to UNPACKED from ${from}`;
  return undefined;
}

export async function startShippingStore(options: { storeId?: number; token?: string } = {}): Promise<ShippingStore> {
  const storeId = options.storeId ?? 7_654_321;
  const token = options.token ?? 'shipping-store-token';
  const orders: ShippingStoreOrder[] = [];
  const requests: ShippingStore['requests'] = [];
  let nextId = 871_300_000;
  let nextNumber = 500;
  let nextCustomerId = 4_100_000;
  const customers: ShippingStoreCustomer[] = [];
  const addCustomer = (c: { name: string; email: string; identification?: string }): ShippingStoreCustomer => {
    const customer = { id: nextCustomerId++, name: c.name, email: c.email, identification: c.identification ?? null, phone: null, created_at: now() };
    customers.unshift(customer);
    return customer;
  };
  addCustomer({ name: 'Ana Souza', email: 'ana@example.com', identification: '123.456.789-09' });
  const presentCustomer = (c: ShippingStoreCustomer) => {
    const ordered = orders.filter((o) => o.customer_id === c.id);
    return {
      ...c,
      note: null,
      default_address: { address: 'Rua A', number: '10', city: 'São Paulo', zipcode: '01000-000', country: 'BR' },
      addresses: [],
      total_spent: `${ordered.length * 100}.00`,
      total_spent_currency: 'BRL',
      last_order_id: ordered[0]?.id ?? null,
      active: true,
      accepts_marketing: false,
      extra: {},
      updated_at: c.created_at,
    };
  };

  const presentOrder = (order: ShippingStoreOrder, withFos: boolean) => ({
    id: order.id,
    number: order.number,
    status: order.status,
    payment_status: order.payment_status,
    shipping_status: shippingStatus(order.fos),
    shipping: 'correios',
    currency: 'BRL',
    subtotal: '100.00',
    total: '100.00',
    customer: (({ id, name, email }) => ({ id, name, email }))(customers.find((c) => c.id === order.customer_id) ?? customers[customers.length - 1]!),
    products: [{ id: 1, product_id: 10, variant_id: 100, name: 'Camiseta', quantity: String(order.fos.length), price: '50.00' }],
    created_at: order.created_at,
    updated_at: order.created_at,
    ...(withFos ? { fulfillment_orders: order.fos } : {}),
  });

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  }
  const envelope = (res: ServerResponse, code: number, message: string, description: string | null) => send(res, code, { code, message, description });
  const refuse = (res: ServerResponse, description: string) => send(res, 400, { description, message: 'Bad Request' });

  async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  }

  function list(res: ServerResponse, query: URLSearchParams): void {
    const status = query.get('status') ?? 'any';
    const shipping = query.get('shipping_status') ?? 'any';
    const q = query.get('q')?.replace(/^#/, '');
    const customerIds = query.get('customer_ids')?.split(',').map(Number);
    const perPage = Number(query.get('per_page') ?? 30);
    const page = Number(query.get('page') ?? 1);
    if (!(perPage >= 1 && perPage <= 200)) return envelope(res, 422, 'Unprocessable Entity', 'per_page must be at most 200');
    const matches = orders.filter((o) => {
      const derived = shippingStatus(o.fos);
      if (status !== 'any' && o.status !== status) return false;
      if (shipping === 'unpacked' && derived !== 'unpacked') return false;
      if (shipping === 'unfulfilled' && !['partially_packed', 'packed', 'partially_fulfilled'].includes(derived)) return false;
      if (shipping === 'fulfilled' && derived !== 'fulfilled') return false;
      if (customerIds && !customerIds.includes(o.customer_id)) return false;
      return !(q !== undefined && String(o.number) !== q);
    });
    const last = Math.ceil(matches.length / perPage);
    if (page > last) return envelope(res, 404, 'Not Found', `Last page is ${last}`);
    const items = matches.slice((page - 1) * perPage, page * perPage).map((o) => presentOrder(o, query.get('aggregates') === 'fulfillment_orders'));
    send(res, 200, items, { 'x-total-count': String(matches.length) });
  }

  function customerList(res: ServerResponse, query: URLSearchParams): void {
    const q = query.get('q')?.toLowerCase();
    const email = query.get('email')?.toLowerCase();
    const perPage = Number(query.get('per_page') ?? 30);
    const page = Number(query.get('page') ?? 1);
    if (!(perPage >= 1 && perPage <= 200)) return envelope(res, 422, 'Unprocessable Entity', 'per_page must be at most 200');
    const matches = customers.filter(
      (c) =>
        (email === undefined || c.email.toLowerCase() === email) &&
        (q === undefined || [c.name, c.email, c.identification ?? ''].some((text) => text.toLowerCase().includes(q))),
    );
    const last = Math.ceil(matches.length / perPage);
    if (page > last) return envelope(res, 404, 'Not Found', `Last page is ${last}`);
    send(res, 200, matches.slice((page - 1) * perPage, page * perPage).map(presentCustomer), { 'x-total-count': String(matches.length) });
  }

  function move(res: ServerResponse, fo: ShippingStoreFO, input: Record<string, unknown>): void {
    const to = String(input.status ?? '');
    const why = forbidden(fo, to);
    if (why) return refuse(res, why);
    const at = now();
    fo.status_history.push({ from_status: fo.status, to_status: to, happened_at: at });
    fo.status = to;
    const tracking = input.tracking_info as { code?: string; url?: string; notify_customer?: boolean } | undefined;
    if (tracking?.code) fo.tracking_info = { code: tracking.code, url: tracking.url ?? null, notify_customer: tracking.notify_customer === true };
    if (to === 'DELIVERED') fo.fulfilled_at = at;
    fo.updated_at = at;
    send(res, 200, { ...fo, tracking_info_history: fo.tracking_info ? [fo.tracking_info] : [] });
  }

  function trackingEvent(res: ServerResponse, fo: ShippingStoreFO, input: Record<string, unknown>): void {
    if (fo.status !== 'DISPATCHED') return refuse(res, 'The fulfillment order must be dispatched to receive tracking events');
    const happened = typeof input.happened_at === 'string' ? input.happened_at : now();
    const event = { id: ulid(), status: input.status, description: input.description ?? null, happened_at: happened, created_at: now(), updated_at: now() };
    fo.tracking_events.push(event);
    if (input.status === 'delivered') {
      fo.status_history.push({ from_status: fo.status, to_status: 'DELIVERED', happened_at: happened });
      fo.status = 'DELIVERED';
      fo.fulfilled_at = happened;
    }
    send(res, 201, event);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://store');
    const method = req.method ?? 'GET';
    const prefix = `/v1/${storeId}`;
    const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
    requests.push({ method, path, query: url.searchParams });
    if (!/^bearer /i.test(req.headers.authentication as string ?? '') || (req.headers.authentication as string).slice(7) !== token) {
      return envelope(res, 401, 'Unauthorized', 'Invalid access token');
    }
    const parts = path.split('/').filter(Boolean);
    if (method === 'GET' && path === '/store') {
      return send(res, 200, { id: storeId, name: { pt: 'Loja' }, main_language: 'pt', main_currency: 'BRL', languages: { pt: { currency: 'BRL', active: true } } }, { 'x-main-language': 'pt' });
    }
    if (method === 'GET' && path === '/metafields/orders') return envelope(res, 404, 'Not Found', 'Last page is 0');
    if (parts[0] === 'customers' && method === 'GET') {
      if (parts.length === 1) return customerList(res, url.searchParams);
      const customer = customers.find((c) => String(c.id) === parts[1]);
      return customer && parts.length === 2 ? send(res, 200, presentCustomer(customer)) : envelope(res, 404, 'Not Found', null);
    }
    if (parts[0] !== 'orders') return envelope(res, 404, 'Not Found', `No route ${method} ${path}`);
    if (parts.length === 1 && method === 'GET') return list(res, url.searchParams);
    const order = orders.find((o) => String(o.id) === parts[1]);
    if (!order) return envelope(res, 404, 'Not Found', null);
    if (parts.length === 2 && method === 'GET') return send(res, 200, presentOrder(order, url.searchParams.get('aggregates') === 'fulfillment_orders'));
    if (parts[2] !== 'fulfillment-orders') return envelope(res, 404, 'Not Found', `No route ${method} ${path}`);
    if (parts.length === 3 && method === 'GET') return send(res, 200, order.fos);
    const fo = order.fos.find((f) => f.id === parts[3]);
    if (!fo) return envelope(res, 404, 'Not Found', null);
    if (parts.length === 4 && method === 'GET') return send(res, 200, fo);
    if (parts.length === 4 && method === 'PATCH') return move(res, fo, await body(req));
    if (parts.length === 5 && parts[4] === 'tracking-events' && method === 'POST') return trackingEvent(res, fo, await body(req));
    return envelope(res, 404, 'Not Found', `No route ${method} ${path}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => envelope(res, 500, 'Internal Server Error', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    storeId,
    token,
    orders,
    requests,
    customers,
    addCustomer,
    addOrder({ shipments = ['ship'], status = 'open', customerId = customers[customers.length - 1]!.id } = {}) {
      const order: ShippingStoreOrder = { id: nextId++, customer_id: customerId, number: nextNumber++, status, payment_status: 'paid', created_at: now(), fos: [] };
      shipments.forEach((type, i) => {
        const at = now();
        order.fos.push({
          id: ulid(),
          // The documented records number FOs per order ("1", "2").
          number: String(i + 1),
          status: 'UNPACKED',
          shipping: { type, carrier: type === 'pickup' ? 'not-provided' : 'correios', option: type === 'pickup' ? 'Retirada na loja' : 'PAC' },
          tracking_info: null,
          status_history: [{ from_status: null, to_status: 'UNPACKED', happened_at: at }],
          tracking_events: [],
          fulfilled_at: null,
          created_at: at,
          updated_at: at,
        });
      });
      orders.unshift(order);
      return order;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

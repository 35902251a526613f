/**
 * A small store that serves the catalog endpoints as docs/platform.md §1, §3 and §8 document them, written from
 * those documents alone (it imports nothing from src/sandbox): the independent check that the bulk commands
 * send the documented minimum of requests and leave the store exactly as the file says.
 *
 *   const store = await startBulkStore({ locations: ['Depósito', 'Tienda'] });
 *   ... run `store products import` with STORE_API_URL=store.url, STORE_ID=store.storeId, STORE_TOKEN=store.token
 *   store.writes()        // the write requests received, in order
 *   store.products        // the catalog as it is now
 *   await store.close();
 *
 * Routes below /v1/{storeId} (token checked on each; no rate limit):
 *   GET    /store, /locations, /categories, /products (page, per_page ≤ 200, handle, since_id, fields; x-total-count and
 *          Link; an empty list or a page past the end is 404 "Last page is N"), /products/{id} (fields), /products/sku/{sku}
 *   POST   /categories; /products with attributes, variants and images (§8; ≤ 1,000 variants, ≤ 250 images,
 *          422 otherwise), or the seed's form (sku/price/stock on the product); /products/{id}/variants
 *          (values or attributes [{name, value}]); /products/{id}/images
 *   PUT    /products/{id}; /products/{id}/variants/{vid}
 *   DELETE /products/{id}; /products/{id}/variants/{vid} (a product's last variant: 422, a product has one at least)
 *   PATCH  /products/{id}/variants (all or nothing; 422 "Variants cannot be repeated" on a duplicate id or one of
 *          another product); /products/stock-price (≤ 50 variants, price a JSON number, stock ≥ 0, location_id
 *          required on a store with several locations; answers per variant: a variant of `failVariants`
 *          answers success false and is left as it was, one of `dropVariants` success true and is left as it was)
 * With `weightedLimit` N, a PATCH /products/stock-price or /products/{id}/variants of more than N variants answers
 * 429 (§12, the weighted limit: "send fewer variants per request"; Retry-After 0) and writes nothing.
 * With `olderStore`, PATCH /products/stock-price answers 405 and PATCH /products/{id}/variants 404, as a store
 * without the batch endpoints.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Localized = Record<string, string>;

export interface StoreVariant {
  id: number;
  product_id: number;
  values: Localized[];
  sku: string | null;
  price: string | null;
  promotional_price: string | null;
  cost: string | null;
  weight: string | null;
  stock: number | null;
  inventory_levels: { location_id: string; stock: number }[];
  [field: string]: unknown;
}

export interface StoreProduct {
  id: number;
  name: Localized;
  description: Localized;
  handle: Localized;
  attributes: Localized[];
  categories: number[];
  images: { id: number; product_id: number; src: string; position: number }[];
  variants: StoreVariant[];
}

export interface BulkRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The body as received (to check how numbers are written). */
  raw: string;
  body: unknown;
  status: number;
}

export interface BulkStoreOptions {
  /** Location names (default: one, "Depósito"); the first is the default. */
  locations?: string[];
  /** The batch endpoints answer 404/405 (a store that predates them). */
  olderStore?: boolean;
  language?: string;
  /** The store's id (default 4321): stores of one fleet have their own. */
  storeId?: number;
}

export interface BulkStore {
  url: string;
  storeId: number;
  token: string;
  requests: BulkRequest[];
  products: StoreProduct[];
  locations: { id: string; name: Localized; is_default: boolean }[];
  categories: { id: number; name: Localized; parent: number | null }[];
  /** Variant ids whose stock-price changes answer `success: false` (the others of the batch go ahead). */
  failVariants: Set<number>;
  /**
   * Variant ids whose stock-price changes answer `success: true` and are not applied: a store acknowledging
   * writes it drops (TiendaNube/api-docs issue #44), for `--verify`.
   */
  dropVariants: Set<number>;
  /** Variant ids that make a whole stock-price or PATCH variants batch answer 422 "Validation error". */
  rejectVariants: Set<number>;
  /** The most variants a batch write may carry before the weighted limit answers 429 (§12); undefined: no limit. */
  weightedLimit?: number;
  /** Called for each write once it is applied, before it is answered (to interrupt a client mid-run). */
  onWrite?: (request: BulkRequest, writesSoFar: number) => void;
  /** The write requests (POST, PUT, PATCH, DELETE) received. */
  writes(): BulkRequest[];
  variantBySku(sku: string): StoreVariant | undefined;
  /**
   * The platform's leaky bucket (docs/platform.md: 40 leaking 2/s), off unless set (set it after seeding): a request
   * that would overflow it answers 429; every answer carries x-rate-limit-limit, -remaining and -reset (ms to empty).
   */
  rate?: { capacity: number; leakPerSecond: number };
  /** 429s answered. */
  rateLimited: number;
  /** The store goes down: its port closed and every open connection cut (a client's next request is refused). */
  goDown(): void;
  /** Back on the same port, holding what it held. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

const VARIANT_TEXT = ['price', 'promotional_price', 'cost', 'weight', 'width', 'height', 'depth', 'barcode', 'mpn', 'age_group', 'gender'];

class Refusal {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {}
}

function envelope(status: number, description: string, extra: Record<string, unknown> = {}): Refusal {
  const message = { 404: 'Not Found', 405: 'Method Not Allowed', 422: 'Unprocessable Entity', 401: 'Unauthorized' }[status] ?? 'Error';
  return new Refusal(status, { code: status, message, description, ...extra });
}

export async function startBulkStore(options: BulkStoreOptions = {}): Promise<BulkStore> {
  const lang = options.language ?? 'es';
  const storeId = options.storeId ?? 4321;
  const token = `bulk-${Math.random().toString(36).slice(2)}`;
  let nextId = 1000;
  const locations = (options.locations ?? ['Depósito']).map((name, i) => ({ id: `loc-${i + 1}`, name: { [lang]: name }, is_default: i === 0 }));
  const store: BulkStore = {
    url: '',
    storeId,
    token,
    requests: [],
    products: [],
    locations,
    categories: [],
    failVariants: new Set(),
    dropVariants: new Set(),
    rejectVariants: new Set(),
    rateLimited: 0,
    writes: () => store.requests.filter((r) => r.method !== 'GET'),
    variantBySku: (sku) => store.products.flatMap((p) => p.variants).find((v) => v.sku === sku),
    goDown: () => {
      server.close();
      server.closeAllConnections();
    },
    comeBack: () => new Promise<void>((resolve) => server.listen(Number(new URL(store.url).port), '127.0.0.1', resolve)),
    close: () => new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
  const multi = () => locations.length > 1;

  const localized = (v: unknown): Localized => (typeof v === 'string' ? { [lang]: v } : v && typeof v === 'object' ? { ...(v as Localized) } : {});
  const money = (v: unknown, field: string): string | null => {
    if (v === null || v === undefined || v === '') return null;
    if ((typeof v !== 'string' && typeof v !== 'number') || !/^-?\d+(\.\d+)?$/.test(String(v))) throw envelope(422, 'Validation error', { [field]: [`The ${field} must be a number.`] });
    return String(v);
  };
  const stockOf = (v: unknown): number => {
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n)) throw envelope(422, 'Validation error', { stock: ['The stock must be an integer.'] });
    if (n < 0) throw envelope(422, 'Validation error', { stock: ['The stock must be at least 0.'] });
    return n;
  };
  const setLevels = (variant: StoreVariant, levels: unknown, requireLocation: boolean) => {
    if (!Array.isArray(levels)) throw envelope(422, 'Validation error', { inventory_levels: ['must be an array'] });
    for (const level of levels as { location_id?: unknown; stock?: unknown }[]) {
      if (level.location_id === undefined && requireLocation && multi()) throw envelope(422, 'Validation error', { location_id: ['The location_id field is required.'] });
      const id = level.location_id === undefined ? locations[0]!.id : String(level.location_id);
      if (!locations.some((l) => l.id === id)) throw envelope(422, 'Validation error', { location_id: ['The selected location_id is invalid.'] });
      const stock = stockOf(level.stock);
      const existing = variant.inventory_levels.find((l) => l.location_id === id);
      if (existing) existing.stock = stock;
      else variant.inventory_levels.push({ location_id: id, stock });
    }
    variant.stock = variant.inventory_levels.reduce((n, l) => n + l.stock, 0);
  };
  /** Applies the writable fields of `input` to `variant` (validated first by the callers' copy). */
  const applyVariant = (variant: StoreVariant, input: Record<string, unknown>) => {
    for (const f of VARIANT_TEXT) if (f in input) variant[f] = f === 'price' || f === 'promotional_price' || f === 'cost' ? money(input[f], f) : input[f] === null ? null : String(input[f]);
    if ('sku' in input) variant.sku = input.sku === null || input.sku === '' ? null : String(input.sku);
    if (Array.isArray(input.values)) variant.values = (input.values as unknown[]).map(localized);
    if (input.inventory_levels !== undefined) setLevels(variant, input.inventory_levels, false);
    else if (input.stock !== undefined && input.stock !== null) setLevels(variant, [{ location_id: locations[0]!.id, stock: input.stock }], false);
  };
  const newVariant = (product: StoreProduct, input: Record<string, unknown>): StoreVariant => {
    const variant: StoreVariant = {
      id: nextId++,
      product_id: product.id,
      values: [],
      sku: null,
      price: '0.00',
      promotional_price: null,
      cost: null,
      weight: null,
      stock: null,
      inventory_levels: [],
    };
    if (Array.isArray(input.attributes)) {
      // The seed's form of a variant create: option values as [{name, value}].
      variant.values = (input.attributes as { value?: unknown }[]).map((a) => ({ [lang]: String(a.value ?? '') }));
    }
    const { attributes: _a, ...rest } = input;
    applyVariant(variant, rest);
    return variant;
  };
  const comboKey = (v: StoreVariant) => v.values.map((x) => Object.values(x)[0]?.toLowerCase() ?? '').join('\u0000');
  const uniqueCombos = (variants: StoreVariant[]) => new Set(variants.map(comboKey)).size === variants.length;
  const clone = <T>(x: T): T => structuredClone(x);
  const byId = new Map<number, StoreProduct>();
  const findProduct = (id: string): StoreProduct => {
    const product = byId.get(Number(id));
    if (!product) throw envelope(404, `Product with id ${id} not found`);
    return product;
  };
  const pick = (record: Record<string, unknown>, fields: string | undefined) => {
    if (!fields) return record;
    const out: Record<string, unknown> = {};
    for (const f of fields.split(',')) if (f.trim() in record) out[f.trim()] = record[f.trim()];
    return out;
  };
  /** One page of `items`, each shown through `view` (only the page's items are copied). */
  const listPage = (items: unknown[], query: Record<string, string>, res: ServerResponse, request: BulkRequest, view: (item: unknown) => unknown = (x) => x) => {
    const perPage = Number(query.per_page ?? 30);
    const page = Number(query.page ?? 1);
    if (perPage > 200) throw envelope(422, 'per_page must be at most 200');
    const last = Math.ceil(items.length / perPage);
    if (page > last) throw envelope(404, `Last page is ${last}`);
    // Link with absolute URLs, rel="next" on every page but the last (as the platform sends).
    const link = (n: number, rel: string) => {
      const url = new URL(`${store.url}${request.path}`);
      for (const [k, v] of Object.entries({ ...query, page: String(n), per_page: String(perPage) })) url.searchParams.set(k, v);
      return `<${url.toString()}>; rel="${rel}"`;
    };
    const links = [...(page < last ? [link(page + 1, 'next')] : []), link(1, 'first'), link(last, 'last')];
    send(res, request, 200, items.slice((page - 1) * perPage, page * perPage).map(view), { 'x-total-count': String(items.length), link: links.join(', ') });
  };

  function createProduct(body: Record<string, unknown>): StoreProduct {
    const name = localized(body.name);
    if (Object.values(name).every((n) => !n)) throw new Refusal(422, { name: ["can't be blank"] });
    const variants = Array.isArray(body.variants) ? (body.variants as Record<string, unknown>[]) : undefined;
    const images = Array.isArray(body.images) ? (body.images as { src?: unknown }[]) : [];
    if (variants && variants.length > 1000) throw envelope(422, 'Product is not allowed to have more than 1000 variants');
    if (images.length > 250) throw envelope(422, 'Product is not allowed to have more than 250 images');
    const handle = body.handle ? localized(body.handle) : { [lang]: Object.values(name)[0]!.toLowerCase().replace(/\s+/g, '-') };
    const product: StoreProduct = {
      id: nextId++,
      name,
      description: localized(body.description),
      handle,
      attributes: Array.isArray(body.attributes) ? (body.attributes as unknown[]).map(localized) : [],
      categories: Array.isArray(body.categories) ? (body.categories as unknown[]).map(Number) : [],
      images: [],
      variants: [],
    };
    if (product.attributes.length > 3) throw envelope(422, 'A product has at most 3 attributes');
    if (variants && variants.length > 0) {
      for (const input of variants) {
        const values = Array.isArray(input.values) ? input.values : [];
        if (values.length !== product.attributes.length) throw new Refusal(422, { values: ['one value per attribute'] });
        product.variants.push(newVariant(product, input));
      }
      if (!uniqueCombos(product.variants)) throw envelope(422, 'Variants cannot be repeated');
    } else {
      // The seed's form: the one variant's fields on the product.
      const single: Record<string, unknown> = {};
      for (const f of ['sku', 'stock', 'inventory_levels', ...VARIANT_TEXT]) if (body[f] !== undefined) single[f] = body[f];
      product.variants.push(newVariant(product, single));
    }
    for (const image of images) addImage(product, { src: image.src });
    store.products.push(product);
    byId.set(product.id, product);
    return product;
  }

  /**
   * platform.md §12: a URL or a base64 `attachment` + `filename`, kept under the store's own CDN URL named after the
   * file (this server's CDN sizes its copies 480 wide and numbers them by id; the client may count on the name only).
   */
  function addImage(product: StoreProduct, body: { src?: unknown; attachment?: unknown; filename?: unknown }) {
    let name: string;
    if (typeof body.attachment === 'string') {
      if (typeof body.filename !== 'string' || body.filename === '') throw new Refusal(422, { filename: ['is required'] });
      if (Buffer.from(body.attachment, 'base64').length >= 10_000_000) throw new Refusal(422, { attachment: ['must be under 10 MB'] });
      name = body.filename;
    } else {
      const src = String(body.src ?? '');
      if (!/^https?:\/\//.test(src)) throw new Refusal(422, { src: ['must be an http(s) URL'] });
      name = decodeURIComponent(new URL(src).pathname.split('/').pop() ?? '');
    }
    if (product.images.length >= 250) throw envelope(422, 'Product is not allowed to have more than 250 images');
    const dot = name.lastIndexOf('.');
    const stem = (dot > 0 ? name.slice(0, dot) : name).toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'image';
    const id = nextId++;
    const src = `https://d2r9epyceweg5n.cloudfront.net/stores/001/products/${stem}-480-${id}.${dot > 0 ? name.slice(dot + 1).toLowerCase() : 'jpg'}`;
    const image = { id, product_id: product.id, src, position: product.images.length + 1 };
    product.images.push(image);
    return image;
  }

  function patchVariants(product: StoreProduct, body: unknown): StoreVariant[] {
    if (!Array.isArray(body)) throw envelope(422, 'Expected an array of variants');
    const ids = (body as { id?: unknown }[]).map((v) => Number(v.id));
    if (ids.some((id) => store.rejectVariants.has(id))) throw envelope(422, 'Validation error', { price: ['The price is invalid.'] });
    const foreign = ids.filter((id) => !product.variants.some((v) => v.id === id));
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (foreign.length > 0 || repeated.length > 0) throw envelope(422, 'Variants cannot be repeated', { duplicate_variant_ids: [...foreign, ...repeated] });
    // All or nothing: applied to copies, kept only when every one is valid.
    const copies = product.variants.map((v) => clone(v));
    for (const input of body as Record<string, unknown>[]) {
      const { id, ...fields } = input;
      applyVariant(copies.find((v) => v.id === Number(id))!, fields);
    }
    if (!uniqueCombos(copies)) throw envelope(422, 'Variants cannot be repeated', { duplicate_variant_ids: ids });
    product.variants = copies;
    return copies;
  }

  function stockPrice(body: unknown): unknown {
    if (!Array.isArray(body)) throw envelope(422, 'Expected an array of products');
    const entries = body as { id?: unknown; variants?: Record<string, unknown>[] }[];
    for (const p of entries) for (const v of p.variants ?? []) if (store.rejectVariants.has(Number(v.id))) throw envelope(422, 'Validation error', { price: ['The price is invalid.'] });
    const count = entries.reduce((n, p) => n + (Array.isArray(p.variants) ? p.variants.length : 0), 0);
    if (count > 50) throw envelope(422, 'Too many variants sent for update');
    // Validation first: a 422 changes nothing.
    for (const p of entries) {
      for (const v of p.variants ?? []) {
        if ('price' in v && typeof v.price !== 'number') throw envelope(422, 'Validation error', { price: ['The price must be a number.'] });
        if ('price' in v && (v.price as number) < 0) throw envelope(422, 'Validation error', { price: ['The price must be at least 0.'] });
        for (const level of (v.inventory_levels as { location_id?: unknown; stock?: unknown }[] | undefined) ?? []) {
          stockOf(level.stock);
          if (level.location_id === undefined && multi()) throw envelope(422, 'Validation error', { location_id: ['The location_id field is required.'] });
        }
      }
    }
    return entries.map((p) => ({
      id: p.id,
      variants: (p.variants ?? []).map((input) => {
        const product = byId.get(Number(p.id));
        const variant = product?.variants.find((v) => v.id === Number(input.id));
        if (!variant || store.failVariants.has(variant.id)) return { id: input.id, success: false };
        if (store.dropVariants.has(variant.id)) return { id: input.id, success: true };
        // The number as written in the body's text: a float on the way would show here as 19.899999.
        if ('price' in input) variant.price = priceText(input.price as number);
        if (input.inventory_levels) setLevels(variant, input.inventory_levels, true);
        return { id: input.id, success: true };
      }),
    }));
  }

  /** §12: a batch heavier than the weighted limit is refused whole, with a 429 that asks for fewer variants. */
  function weighted(variants: number): void {
    if (store.weightedLimit === undefined || variants <= store.weightedLimit) return;
    throw new Refusal(429, { code: 429, message: 'Too Many Requests', description: 'Too many variants for the weighted rate limit; send fewer variants per request' }, { 'retry-after': '0' });
  }

  function route(method: string, parts: string[], query: Record<string, string>, body: unknown, res: ServerResponse, request: BulkRequest): void {
    const b = (body ?? {}) as Record<string, unknown>;
    const [head, id, sub, subId] = parts;
    if (method === 'GET' && head === 'store' && !id) {
      return send(res, request, 200, { id: storeId, name: { [lang]: 'Bulk' }, main_language: lang, main_currency: 'ARS', languages: { [lang]: { currency: 'ARS', active: true } } });
    }
    if (head === 'locations' && method === 'GET' && !id) return listPage(locations, query, res, request);
    if (head === 'categories') {
      if (method === 'GET' && !id) return listPage(store.categories, query, res, request);
      if (method === 'POST' && !id) {
        const category = { id: nextId++, name: localized(b.name), parent: b.parent === null || b.parent === undefined ? null : Number(b.parent) };
        store.categories.push(category);
        return send(res, request, 201, category);
      }
    }
    if (head !== 'products') throw envelope(404, 'Not Found');
    if (!id) {
      if (method === 'GET') {
        let items = store.products;
        if (query.handle) items = items.filter((p) => Object.values(p.handle).includes(query.handle!));
        // §3: only the products with a greater id (listed, as always, by id).
        if (query.since_id !== undefined) items = items.filter((p) => p.id > Number(query.since_id));
        return listPage(items, query, res, request, (p) => pick(clone(p) as unknown as Record<string, unknown>, query.fields));
      }
      if (method === 'POST') return send(res, request, 201, createProduct(b));
    }
    if (id === 'sku' && method === 'GET') {
      const product = store.products.find((p) => p.variants.some((v) => v.sku === sub));
      if (!product) throw envelope(404, 'Not Found');
      return send(res, request, 200, product);
    }
    if (id === 'stock-price' && method === 'PATCH') {
      if (options.olderStore) throw envelope(405, 'Method Not Allowed');
      weighted(Array.isArray(body) ? (body as { variants?: unknown[] }[]).reduce((n, p) => n + (p.variants?.length ?? 0), 0) : 0);
      return send(res, request, 200, stockPrice(body));
    }
    const product = findProduct(id!);
    if (!sub) {
      if (method === 'GET') return send(res, request, 200, pick(clone(product) as unknown as Record<string, unknown>, query.fields));
      if (method === 'PUT') {
        if (b.name !== undefined) product.name = localized(b.name);
        if (b.description !== undefined) product.description = localized(b.description);
        if (Array.isArray(b.categories)) product.categories = (b.categories as unknown[]).map(Number);
        return send(res, request, 200, product);
      }
      if (method === 'DELETE') {
        store.products.splice(store.products.indexOf(product), 1);
        return send(res, request, 200, {});
      }
    }
    if (sub === 'images' && method === 'POST') return send(res, request, 201, addImage(product, b));
    if (sub === 'variants') {
      if (!subId && method === 'PATCH') {
        if (options.olderStore) throw envelope(404, 'Not Found');
        weighted(Array.isArray(body) ? body.length : 0);
        return send(res, request, 200, patchVariants(product, body));
      }
      if (!subId && method === 'POST') {
        const variant = newVariant(product, b);
        if (!uniqueCombos([...product.variants, variant])) throw envelope(422, 'Variants cannot be repeated');
        product.variants.push(variant);
        return send(res, request, 201, variant);
      }
      if (subId && method === 'PUT') {
        const variant = product.variants.find((v) => String(v.id) === subId);
        if (!variant) throw envelope(404, `Variant with id ${subId} not found`);
        const copy = clone(variant);
        applyVariant(copy, b);
        Object.assign(variant, copy);
        return send(res, request, 200, variant);
      }
      if (subId && method === 'DELETE') {
        const at = product.variants.findIndex((v) => String(v.id) === subId);
        if (at < 0) throw envelope(404, `Variant with id ${subId} not found`);
        if (product.variants.length === 1) throw envelope(422, 'A product must have at least one variant');
        product.variants.splice(at, 1);
        return send(res, request, 200, {});
      }
    }
    throw envelope(404, 'Not Found');
  }

  function send(res: ServerResponse, request: BulkRequest, status: number, body: unknown, headers: Record<string, string> = {}) {
    request.status = status;
    if (request.method !== 'GET' && status < 300) store.onWrite?.(request, store.writes().filter((r) => r.status > 0 && r.status < 300).length);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  }

  const bucket = { level: 0, at: Date.now() };
  /** Drips the bucket, then takes one request's drop: false (a 429) when it would overflow. */
  function takeDrop(res: ServerResponse): boolean {
    const rate = store.rate;
    if (!rate) return true;
    const now = Date.now();
    bucket.level = Math.max(0, bucket.level - ((now - bucket.at) / 1000) * rate.leakPerSecond);
    bucket.at = now;
    const allowed = bucket.level + 1 <= rate.capacity;
    if (allowed) bucket.level += 1;
    res.setHeader('x-rate-limit-limit', String(rate.capacity));
    res.setHeader('x-rate-limit-remaining', String(Math.max(0, Math.floor(rate.capacity - bucket.level))));
    res.setHeader('x-rate-limit-reset', String(Math.ceil((bucket.level / rate.leakPerSecond) * 1000)));
    return allowed;
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://x');
      const request: BulkRequest = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), raw, body: undefined, status: 0 };
      store.requests.push(request);
      if (!takeDrop(res)) {
        store.rateLimited += 1;
        return send(res, request, 429, { code: 429, message: 'Too Many Requests', description: 'Too Many Requests' });
      }
      try {
        const auth = String(req.headers.authentication ?? req.headers.authorization ?? '');
        if (auth.toLowerCase() !== `bearer ${token}`) throw envelope(401, 'Invalid access token');
        request.body = raw ? JSON.parse(raw) : undefined;
        const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
        if (parts[0] !== 'v1' || parts[1] !== String(storeId)) throw envelope(404, 'Not Found');
        route(request.method, parts.slice(2), request.query, request.body, res, request);
      } catch (error) {
        if (error instanceof Refusal) send(res, request, error.status, error.body, error.headers);
        else send(res, request, 500, { code: 500, message: 'Internal Server Error', description: String(error) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  store.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return store;
}

/** A price as the store keeps it: two decimals from the number received. */
function priceText(n: number): string {
  return n.toFixed(2);
}

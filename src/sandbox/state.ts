import type { Clock } from '../platform/clock.js';
import type {
  AppRecord,
  CategoryRecord,
  CodeRecord,
  CustomFieldRecord,
  Key,
  LocationRecord,
  OwnedRecord,
  ProductRecord,
  StoreRecord,
  TokenRecord,
  VariantRecord,
  WebhookRecord,
} from './records.js';

/**
 * The sandbox's whole state, in memory, with every change recorded as a journal entry.
 *
 * How to change state (routes, seeds, other modules):
 *
 *   state.mutate('product.create', (tx) => {
 *     const id = tx.nextId(store, 'product');
 *     tx.put(store.products, { id, ... });
 *   });
 *
 * - Validate first, then mutate inside `mutate`: the callback's puts/deletes form one journal entry (one line
 *   of the journal file), written before `mutate` returns, so an answered request is never lost.
 * - `tx.put(collection, record)` stores (or re-stores, after an in-place edit) a whole record; `tx.delete`
 *   removes one. Records must be plain JSON (no Maps, Dates or undefined-only fields: use null) because the
 *   journal replays them from JSON.
 * - Secondary indexes are kept by collection listeners (`collection.listen`), so they stay right after an
 *   in-place edit as long as the record is put again.
 *
 * Records are in records.ts; the stock API for orders (takeStock, returnStock) in stock.ts.
 */

type Listener<T> = (key: Key, record: T | undefined) => void;

/** A keyed set of records of one kind; read freely, write only through a `Tx`. */
export class Collection<T> {
  private readonly map = new Map<Key, T>();
  private readonly listeners: Listener<T>[] = [];

  constructor(
    readonly name: string,
    readonly storeId: number | null,
    readonly keyOf: (record: T) => Key,
  ) {}

  get(key: Key): T | undefined {
    return this.map.get(key);
  }

  has(key: Key): boolean {
    return this.map.has(key);
  }

  values(): IterableIterator<T> {
    return this.map.values();
  }

  /** Records in insertion order (ids ascending for counter-made ids). */
  list(): T[] {
    return Array.from(this.map.values());
  }

  get size(): number {
    return this.map.size;
  }

  /** Called after every put (record) and delete (undefined), including during replay. */
  listen(listener: Listener<T>): void {
    this.listeners.push(listener);
  }

  /** @internal used by Tx and replay only. */
  apply(key: Key, record: T | undefined): void {
    if (record === undefined) this.map.delete(key);
    else this.map.set(key, record);
    for (const listener of this.listeners) listener(key, record);
  }

  /** @internal used by reset. */
  clear(): void {
    for (const key of Array.from(this.map.keys())) this.apply(key, undefined);
  }
}

/** The product indexes a 100,000-product store needs: by handle, by SKU, and variant id → product id. */
class ProductIndex {
  readonly byHandle = new Map<string, number>();
  readonly bySku = new Map<string, Set<number>>();
  readonly variantToProduct = new Map<number, number>();
  private readonly indexed = new Map<number, { handles: string[]; skus: string[]; variants: number[] }>();

  update(key: Key, product: ProductRecord | undefined): void {
    const id = Number(key);
    const before = this.indexed.get(id);
    if (before) {
      for (const h of before.handles) if (this.byHandle.get(h) === id) this.byHandle.delete(h);
      for (const s of before.skus) {
        const set = this.bySku.get(s);
        set?.delete(id);
        if (set && set.size === 0) this.bySku.delete(s);
      }
      for (const v of before.variants) if (this.variantToProduct.get(v) === id) this.variantToProduct.delete(v);
      this.indexed.delete(id);
    }
    if (!product) return;
    const handles = Array.from(new Set(Object.values(product.handle).filter((h) => h !== '')));
    const skus = Array.from(new Set(product.variants.map((v) => v.sku).filter((s): s is string => !!s)));
    const variants = product.variants.map((v) => v.id);
    for (const h of handles) this.byHandle.set(h, id);
    for (const s of skus) {
      let set = this.bySku.get(s);
      if (!set) this.bySku.set(s, (set = new Set()));
      set.add(id);
    }
    for (const v of variants) this.variantToProduct.set(v, id);
    this.indexed.set(id, { handles, skus, variants });
  }
}

/** Everything that belongs to one store. */
export class StoreData {
  readonly locations: Collection<LocationRecord>;
  readonly categories: Collection<CategoryRecord>;
  readonly products: Collection<ProductRecord>;
  readonly customFields: Collection<CustomFieldRecord>;
  readonly orders: Collection<OwnedRecord>;
  readonly fulfillmentOrders: Collection<OwnedRecord>;
  readonly metafields: Collection<OwnedRecord>;
  readonly webhooks: Collection<WebhookRecord>;
  /** The store's customers (docs/platform.md §11); their shape is store/customers.ts's. */
  readonly customers: Collection<OwnedRecord>;
  /** Id counters: the last id handed out per kind. */
  counters: Record<string, number> = {};
  readonly productIndex = new ProductIndex();

  constructor(public record: StoreRecord) {
    const id = record.id;
    this.locations = new Collection('locations', id, (r) => r.id);
    this.categories = new Collection('categories', id, (r) => r.id);
    this.products = new Collection('products', id, (r) => r.id);
    this.customFields = new Collection('customFields', id, (r) => r.id);
    this.orders = new Collection('orders', id, (r) => r.id);
    this.fulfillmentOrders = new Collection('fulfillmentOrders', id, (r) => r.id);
    this.metafields = new Collection('metafields', id, (r) => r.id);
    this.webhooks = new Collection('webhooks', id, (r) => r.id);
    this.customers = new Collection('customers', id, (r) => r.id);
    this.products.listen((key, product) => this.productIndex.update(key, product));
  }

  get id(): number {
    return this.record.id;
  }

  collections(): Collection<unknown>[] {
    return [
      this.locations,
      this.categories,
      this.products,
      this.customFields,
      this.orders,
      this.fulfillmentOrders,
      this.metafields,
      this.webhooks,
      this.customers,
    ] as Collection<unknown>[];
  }

  collection(name: string): Collection<unknown> | undefined {
    return this.collections().find((c) => c.name === name);
  }

  /** Locations in the order stock is used: priority, then id. */
  locationsByPriority(): LocationRecord[] {
    return this.locations.list().sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : 1));
  }

  defaultLocation(): LocationRecord | undefined {
    for (const l of this.locations.values()) if (l.is_default) return l;
    return undefined;
  }

  /** The product holding a variant, and the variant. */
  findVariant(variantId: number): { product: ProductRecord; variant: VariantRecord } | undefined {
    const productId = this.productIndex.variantToProduct.get(variantId);
    const product = productId === undefined ? undefined : this.products.get(productId);
    const variant = product?.variants.find((v) => v.id === variantId);
    return product && variant ? { product, variant } : undefined;
  }

  productByHandle(handle: string): ProductRecord | undefined {
    const id = this.productIndex.byHandle.get(handle);
    return id === undefined ? undefined : this.products.get(id);
  }

  productsBySku(sku: string): ProductRecord[] {
    const ids = this.productIndex.bySku.get(sku);
    return ids ? Array.from(ids, (id) => this.products.get(id)!).filter(Boolean) : [];
  }
}

/** One change inside a journal entry: [collection, store id or null for global ones, key, record or null]. */
export type Change = [string, number | null, Key, unknown];

export interface JournalEntry {
  op: string;
  at: number;
  ch: Change[];
}

/** Where committed entries go (the persistence layer); the state itself never touches files. */
export interface JournalSink {
  append(entry: JournalEntry): void;
}

/** The write side of one mutation. */
export class Tx {
  readonly changes: Change[] = [];
  private readonly dirtyCounters = new Set<StoreData>();
  private dirtyMeta = false;

  constructor(private readonly state: SandboxState) {}

  /**
   * The clock's time for created_at/updated_at, in whole seconds: records show timestamps to the second, so a
   * filter given a record's own timestamp (created_at_max=…) must match it.
   */
  now(): number {
    return Math.floor(this.state.storeNow() / 1000) * 1000;
  }

  put<T>(collection: Collection<T>, record: NoInfer<T>): T {
    const key = collection.keyOf(record);
    collection.apply(key, record);
    this.changes.push([collection.name, collection.storeId, key, record]);
    return record;
  }

  delete<T>(collection: Collection<T>, key: Key): void {
    if (!collection.has(key)) return;
    collection.apply(key, undefined);
    this.changes.push([collection.name, collection.storeId, key, null]);
  }

  /** The next id of a kind in a store: `first` the first time, then one more than the last. */
  nextId(store: StoreData, kind: string, first = 1): number {
    const last = store.counters[kind];
    const id = last === undefined ? first : last + 1;
    store.counters[kind] = id;
    this.dirtyCounters.add(store);
    return id;
  }

  /**
   * Counts a store's ids from the start again (a reset: the demo store is seeded with the same ids as before), and
   * the `shared` kinds too when no other store could hold one of them (ids unique across stores stay unique).
   */
  restartIds(store: StoreData, shared: string[]): void {
    store.counters = {};
    this.dirtyCounters.add(store);
    if (this.state.stores.size !== 1) return;
    for (const kind of shared) delete this.state.meta[kind];
    this.dirtyMeta = true;
  }

  /**
   * The next id of a kind that is unique across stores (orders: the platform's internal id is the one integrations
   * use, while the per-store `number` is for customers). A state written while such ids were counted per store
   * continues past the highest one any store handed out, so no id is given twice.
   */
  nextSharedId(kind: string, first = 1): number {
    let last = this.state.meta[kind];
    if (last === undefined) {
      for (const store of this.state.stores.values()) {
        const counted = store.counters[kind];
        if (counted !== undefined && (last === undefined || counted > last)) last = counted;
      }
    }
    return this.nextGlobalId(kind, last === undefined ? first : last + 1);
  }

  /** The next id of a global kind (stores). */
  nextGlobalId(kind: string, first = 1): number {
    const last = this.state.meta[kind];
    const id = last === undefined ? first : last + 1;
    this.state.meta[kind] = id;
    this.dirtyMeta = true;
    return id;
  }

  /** @internal */
  finish(): Change[] {
    for (const store of this.dirtyCounters) this.changes.push(['counters', store.id, 'ids', { ...store.counters }]);
    if (this.dirtyMeta) this.changes.push(['meta', null, 'ids', { ...this.state.meta }]);
    return this.changes;
  }
}

export class SandboxState {
  readonly stores = new Map<number, StoreData>();
  readonly apps = new Collection<AppRecord>('apps', null, (r) => r.client_id);
  readonly tokens = new Collection<TokenRecord>('tokens', null, (r) => r.token);
  readonly codes = new Collection<CodeRecord>('codes', null, (r) => r.code);
  readonly storeRecords = new Collection<StoreRecord>('stores', null, (r) => r.id);
  meta: Record<string, number> = {};
  /**
   * How far the store's own clock is from `clock` (ms): the time records are stamped with and the `Date` header
   * says (storeNow), so a test can run the store's clock behind or ahead of the client's machine
   * (`--clock-offset`, `POST /sandbox/clock`). Timers (the bucket, OAuth codes, webhook retries) keep `clock`.
   */
  clockOffsetMs = 0;
  private sink: JournalSink | undefined;

  constructor(readonly clock: Clock) {
    this.storeRecords.listen((key, record) => {
      const existing = this.stores.get(Number(key));
      if (!record) this.stores.delete(Number(key));
      else if (existing) existing.record = record;
      else this.stores.set(record.id, new StoreData(record));
    });
  }

  /** The store's clock: what a record changed now is stamped with, and what the `Date` header says. */
  storeNow(): number {
    return this.clock.now() + this.clockOffsetMs;
  }

  /** Sends every later mutation to `sink` (set once the persisted state has been replayed). */
  attachJournal(sink: JournalSink | undefined): void {
    this.sink = sink;
  }

  /** Runs `fn` as one named, journaled mutation. If `fn` throws, nothing it did is journaled: validate first. */
  mutate<R>(op: string, fn: (tx: Tx) => R): R {
    const tx = new Tx(this);
    const result = fn(tx);
    const ch = tx.finish();
    if (ch.length > 0) this.sink?.append({ op, at: this.clock.now(), ch });
    return result;
  }

  store(id: number): StoreData | undefined {
    return this.stores.get(id);
  }

  /** The first store: the one OAuth installs apps on and the one `startSandbox` reports. */
  defaultStore(): StoreData | undefined {
    return this.stores.values().next().value;
  }

  /** Re-applies one journaled change (replay). */
  applyChange([name, storeId, key, record]: Change): void {
    const value = record === null ? undefined : record;
    if (name === 'meta') {
      this.meta = { ...(record as Record<string, number>) };
      return;
    }
    if (storeId === null) {
      const global = this.globalCollection(name);
      if (!global) throw new Error(`unknown collection ${name}`);
      global.apply(key, value);
      return;
    }
    const store = this.stores.get(storeId);
    if (!store) throw new Error(`change for unknown store ${storeId}`);
    if (name === 'counters') {
      store.counters = { ...(record as Record<string, number>) };
      return;
    }
    const collection = store.collection(name);
    if (!collection) throw new Error(`unknown collection ${name}`);
    collection.apply(key, value);
  }

  /** Every record as changes, for a snapshot: stores first, so replay can create them before their data. */
  *dump(): Generator<Change> {
    yield ['meta', null, 'ids', this.meta];
    for (const c of [this.storeRecords, this.apps, this.tokens, this.codes] as Collection<unknown>[]) {
      for (const r of c.values()) yield [c.name, null, c.keyOf(r), r];
    }
    for (const store of this.stores.values()) {
      yield ['counters', store.id, 'ids', store.counters];
      for (const c of store.collections()) for (const r of c.values()) yield [c.name, store.id, c.keyOf(r), r];
    }
  }

  private globalCollection(name: string): Collection<unknown> | undefined {
    return ([this.storeRecords, this.apps, this.tokens, this.codes] as Collection<unknown>[]).find(
      (c) => c.name === name,
    );
  }
}

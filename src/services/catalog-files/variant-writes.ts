import {
  type StockPriceChange,
  type VariantInput,
  type VariantPatch,
  patchVariants,
  updateStockPrice,
  updateVariant,
} from '../../api/variants.js';
import { ApiError, AuthError, RateLimitError, ValidationError } from '../../client/errors.js';
import type { Location } from '../../api/locations.js';
import type { StoreClient } from '../../client/index.js';
import { MAX_STOCK_PRICE_VARIANTS } from '../../platform/catalog.js';
import type { Variant } from '../../api/variants.js';
import type { PendingWrite, Recorder, Settlement } from '../../ledger/recorder.js';
import { Interrupted, checkAbort, runPool } from '../bulk/pool.js';
import { variantChanges, variantSubject } from '../catalog/variant-changes.js';

/**
 * Changes to existing variants in the fewest documented requests (docs/platform.md §8, docs/decisions.md
 * "Bulk writes"):
 * - a product with a change beyond price and stock gets one PATCH /products/{id}/variants with all its
 *   changed variants, their price and stock included (one request where two endpoints would take two);
 * - every other price/stock change rides in PATCH /products/stock-price, 50 variants per request across
 *   products.
 * Every variant's outcome is its own: a `success: false` of stock-price fails that row only; a 422 on a
 * batch is bisected until the bad rows are alone, the others sent; a 429 on a batch of several variants (the weighted
 * limit of docs/platform.md §12: "send fewer variants per request") halves it before it is sent again, down to one
 * variant, which waits its turn like any request: no variant is dropped. A store that answers a batch endpoint
 * with 404 or 405 (an older store) gets one PUT per variant for the rest of the run, said once through
 * `onFallback`. Every value sent is absolute, so a batch whose answer was lost is safe to send again.
 * Each request's changes go on the run ledger (docs/ledger.md) before it is sent, one transaction per request,
 * with their before-values from the snapshot the plan was made from.
 */

/** One existing variant to change. */
export interface VariantWrite {
  productId: number;
  variantId: number;
  /** The file's line (0 for a write no row asked for, e.g. a variant zeroed by `--zero-missing`). */
  line: number;
  /** How reports name it: its SKU, or its product and option values. */
  key: string;
  /** Only the fields that change; money as decimal text. */
  body: VariantInput;
  /** The variant as the plan's snapshot read it: the ledger's before-values (undefined: not known). */
  before?: Variant;
}

/** A batch's changes on the ledger, and the part of them some of its writes make. */
interface RecordedWrites {
  of(writes: VariantWrite[], settledByCaller: boolean): PendingWrite;
}

/** The request a write goes in. */
export type WriteBatch =
  | { kind: 'stock-price'; writes: VariantWrite[] }
  | { kind: 'variants'; productId: number; writes: VariantWrite[] };

const STOCK_PRICE_FIELDS = new Set(['price', 'stock', 'inventory_levels']);

/** Whether a change goes in PATCH /products/stock-price (price and stock only). */
export function onlyStockPrice(body: VariantInput): boolean {
  return Object.keys(body).every((f) => STOCK_PRICE_FIELDS.has(f));
}

/** The requests the writes go in, in the order of the writes (a product's PATCH where its first write was). */
export function batchWrites(writes: VariantWrite[], batchSize = MAX_STOCK_PRICE_VARIANTS): WriteBatch[] {
  const needsPatch = new Set<number>();
  for (const w of writes) if (!onlyStockPrice(w.body)) needsPatch.add(w.productId);
  const batches: WriteBatch[] = [];
  const patches = new Map<number, WriteBatch & { kind: 'variants' }>();
  let open: (WriteBatch & { kind: 'stock-price' }) | undefined;
  for (const w of writes) {
    if (needsPatch.has(w.productId)) {
      let patch = patches.get(w.productId);
      if (!patch) {
        patch = { kind: 'variants', productId: w.productId, writes: [] };
        patches.set(w.productId, patch);
        batches.push(patch);
      }
      patch.writes.push(w);
      continue;
    }
    if (!open || open.writes.length >= batchSize) {
      open = { kind: 'stock-price', writes: [] };
      batches.push(open);
    }
    open.writes.push(w);
  }
  return batches;
}

/** The fewest requests the writes can go in (what the benchmarks compare with). */
export function minimumRequests(writes: VariantWrite[]): number {
  return batchWrites(writes).length;
}

export interface VariantWriteOptions {
  /** The run ledger's recorder: every request's changes are intended before it is sent. */
  recorder: Recorder;
  signal?: AbortSignal;
  concurrency?: number;
  /**
   * The store's locations, as the snapshot read them: plain `stock` is written at the default one (the first
   * when none is marked), and on a store with several every level names its location.
   */
  locations?: Location[];
  /** A write the store confirmed. */
  onDone?: (write: VariantWrite) => void;
  /** A write the store refused or did not confirm. */
  onFailed?: (write: VariantWrite, reason: string) => void;
  /** After the outcomes of one request are given (onDone/onFailed): e.g. journal them with one fsync. */
  onRequestSettled?: () => void;
  /** The store has no batch endpoints: from now on one request per variant. Called once. */
  onFallback?: (message: string) => void;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

/** 404 or 405 on a batch endpoint: the store predates it. */
function endpointMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405);
}

/** Sends the writes; resolves to whether the run was interrupted. */
export class VariantWriter {
  private perRecord = false;
  private readonly defaultLocationId: string | undefined;
  private readonly multiLocation: boolean;

  constructor(
    private readonly client: StoreClient,
    private readonly options: VariantWriteOptions,
  ) {
    const locations = options.locations ?? [];
    this.defaultLocationId = (locations.find((l) => l.is_default) ?? locations[0])?.id;
    this.multiLocation = locations.length > 1;
  }

  async send(writes: VariantWrite[]): Promise<{ interrupted: boolean }> {
    return runPool(batchWrites(writes), this.options, (batch) => this.sendBatch(batch));
  }

  private async sendBatch(batch: WriteBatch): Promise<void> {
    try {
      checkAbort(this.options.signal);
      await this.trySend(batch, this.intend(batch.writes));
    } finally {
      this.options.onRequestSettled?.();
    }
  }

  /**
   * The batch's changes on the ledger, one transaction, before its request: each write's changes, and which of
   * them are whose (a part of the batch sent again alone settles its own).
   */
  private intend(writes: VariantWrite[]): RecordedWrites {
    const changes = writes.map((w) => variantChanges(variantSubject(w.productId, w.variantId, w.before?.sku ?? w.key), w.body, w.before, this.defaultLocationId));
    const pending = this.options.recorder.intend(changes.flat());
    const indexes = new Map<VariantWrite, number[]>();
    let next = 0;
    writes.forEach((w, i) => indexes.set(w, changes[i]!.map(() => next++)));
    return { of: (part, settledByCaller) => pending.part(part.flatMap((w) => indexes.get(w) ?? []), { settledByCaller }) };
  }

  private async trySend(batch: WriteBatch, recorded: RecordedWrites): Promise<void> {
    checkAbort(this.options.signal);
    if (this.perRecord) {
      await this.sendEach(batch.writes, recorded);
      return;
    }
    try {
      if (batch.kind === 'stock-price') await this.stockPrice(batch.writes, recorded.of(batch.writes, true));
      else await this.patch(batch.productId, batch.writes, recorded.of(batch.writes, false));
    } catch (error) {
      if (error instanceof AuthError || error instanceof Interrupted) throw error;
      if (endpointMissing(error) && batch.kind === 'variants' && error instanceof ApiError && error.status === 404) {
        // 404 is also the answer for a product deleted since the catalog was read: the endpoint is missing
        // only if the same variants can be written one by one.
        if ((await this.sendEach(batch.writes, recorded)) > 0) this.fallBack('PATCH /products/{id}/variants', error);
        return;
      }
      if (endpointMissing(error)) {
        this.fallBack(batch.kind === 'stock-price' ? 'PATCH /products/stock-price' : 'PATCH /products/{id}/variants', error);
        await this.sendEach(batch.writes, recorded);
        return;
      }
      if (error instanceof ValidationError && batch.writes.length > 1) return this.bisect(batch, recorded);
      // The halves are parts of the changes intended for the whole batch: each settles its own on the ledger.
      if (error instanceof RateLimitError && batch.writes.length > 1) return this.bisect(batch, recorded);
      for (const w of batch.writes) this.options.onFailed?.(w, reasonOf(error));
    }
  }

  /** A 422 or a 429 refuses the whole batch: each half is sent on its own (until the bad rows stand alone). */
  private async bisect(batch: WriteBatch, recorded: RecordedWrites): Promise<void> {
    const half = Math.ceil(batch.writes.length / 2);
    for (const writes of [batch.writes.slice(0, half), batch.writes.slice(half)]) {
      await this.trySend({ ...batch, writes }, recorded);
    }
  }

  private fallBack(endpoint: string, error: unknown): void {
    if (this.perRecord) return;
    this.perRecord = true;
    const status = error instanceof ApiError ? error.status : 0;
    this.options.onFallback?.(`The store answered ${endpoint} with ${status}: an older store without batch writes; sending one request per variant for the rest of this run.`);
  }

  /** The store answers per variant: each variant's changes are settled from its answer. */
  private async stockPrice(writes: VariantWrite[], record: PendingWrite): Promise<void> {
    const results = await updateStockPrice(this.client, writes.map((w) => this.stockPriceChange(w)), record);
    const refused = 'the store refused this variant\'s price/stock change ("success": false)';
    const unnamed = 'the store\'s answer to PATCH /products/stock-price did not name this variant: not known to be written';
    const outcomes = results.map((r) => (r.success ? undefined : r.answered ? refused : unnamed));
    // Each change settled as its variant was answered: refused is failed, left out of the answer unknown.
    const byVariant = new Map<unknown, Settlement>(
      writes.map((w, i) => {
        const reason = outcomes[i];
        return [w.variantId, reason === undefined ? 'confirmed' : { outcome: reason === refused ? 'failed' : 'unknown', reason }];
      }),
    );
    record.settleEach(record.changes.map((c) => byVariant.get(c.id)));
    for (const [i, w] of writes.entries()) {
      const reason = outcomes[i];
      if (reason === undefined) this.options.onDone?.(w);
      else this.options.onFailed?.(w, reason);
    }
  }

  private async patch(productId: number, writes: VariantWrite[], record: PendingWrite): Promise<void> {
    await patchVariants(this.client, productId, writes.map((w) => this.variantPatch(w)), record);
    for (const w of writes) this.options.onDone?.(w);
  }

  /** One PUT per variant (an older store, or what remains of a batch after the fallback); resolves to the writes done. */
  private async sendEach(writes: VariantWrite[], recorded: RecordedWrites): Promise<number> {
    let done = 0;
    for (const w of writes) {
      checkAbort(this.options.signal);
      try {
        await updateVariant(this.client, w.productId, w.variantId, w.body, recorded.of([w], false));
        this.options.onDone?.(w);
        this.options.onRequestSettled?.();
        done++;
      } catch (error) {
        if (error instanceof AuthError || error instanceof Interrupted) throw error;
        this.options.onFailed?.(w, reasonOf(error));
      }
    }
    return done;
  }

  /** Stock as levels: plain stock at the default location; a level names its location whenever it is known. */
  private levels(body: VariantInput): { location_id?: string; stock: number }[] | undefined {
    if (body.inventory_levels) return body.inventory_levels;
    if (body.stock === undefined) return undefined;
    return [this.defaultLocationId ? { location_id: this.defaultLocationId, stock: body.stock } : { stock: body.stock }];
  }

  private stockPriceChange(w: VariantWrite): StockPriceChange {
    const change: StockPriceChange = { productId: w.productId, variantId: w.variantId };
    if (w.body.price !== undefined) change.price = w.body.price;
    const levels = this.levels(w.body);
    if (levels) change.inventory_levels = levels;
    return change;
  }

  private variantPatch(w: VariantWrite): VariantPatch {
    const { stock, ...rest } = w.body;
    const patch: VariantPatch = { id: w.variantId, ...rest };
    if (stock !== undefined) {
      if (this.multiLocation && this.defaultLocationId) patch.inventory_levels = [{ location_id: this.defaultLocationId, stock }];
      else patch.stock = stock;
    }
    delete (patch as { attributes?: unknown }).attributes;
    return patch;
  }
}

import type { Location } from '../../api/locations.js';
import { type ProductInput, createProduct, deleteProduct, deleteProductImage, updateProduct } from '../../api/products.js';
import { setVariantCustomFields, unsetVariantCustomField } from '../../api/custom-fields.js';
import { changeStock, createVariant, deleteVariant, type VariantInput } from '../../api/variants.js';
import { AuthError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import type { Recorder } from '../../ledger/recorder.js';
import type { ChangeIntent } from '../../ledger/types.js';
import { MAX_STOCK_PRICE_VARIANTS } from '../../platform/catalog.js';
import { Interrupted, checkAbort, runPool } from '../bulk/pool.js';
import { type VariantWrite, VariantWriter, onlyStockPrice } from '../catalog-files/variant-writes.js';
import type { ProductUndo, RecreateUndo, SingleUndo, VariantUndo } from './plan-product.js';
import type { UndoSummary } from './summary.js';

/**
 * Sends an undo's writes page by page, each on the ledger before it goes (docs/ledger.md): changes to existing
 * variants through the jobs' batch writer (price and stock 50 per `PATCH /products/stock-price` across products,
 * other fields one `PATCH /products/{id}/variants` per product), the rest one request each. A page's price/stock
 * writes that do not fill a batch wait for the next page's, so undo sends no more batches than the run did; they
 * are sent at the latest after the next page is read (docs/decisions.md, "Undo", on what that costs a sale).
 */

const DEFAULT_CONCURRENCY = 12;

export interface UndoWriterOptions {
  locations: Location[];
  signal?: AbortSignal;
  concurrency?: number;
  /** Count what would be written; send nothing. */
  dryRun?: boolean;
}

export class UndoWriter {
  /** Price/stock writes waiting to fill a batch. */
  private pending: VariantUndo[] = [];
  private readonly variants: VariantWriter;
  private readonly byWrite = new Map<VariantWrite, VariantUndo>();

  constructor(
    private readonly client: StoreClient,
    private readonly recorder: Recorder,
    private readonly summary: UndoSummary,
    private readonly options: UndoWriterOptions,
  ) {
    this.variants = new VariantWriter(client, {
      signal: options.signal,
      concurrency: options.concurrency,
      locations: options.locations,
      recorder,
      onDone: (w) => this.reverted(this.byWrite.get(w)!.changes),
      onFailed: (w, reason) => this.failed(this.byWrite.get(w)!.changes, reason),
      onFallback: (message) => client.warn(message),
    });
  }

  /** Sends what a page's undo writes (price/stock that do not fill a batch wait); true when interrupted. */
  async sendPage(undos: ProductUndo[]): Promise<boolean> {
    if (this.summary.interrupted) return true;
    const now: VariantUndo[] = [];
    for (const undo of undos) {
      for (const w of undo.variantWrites) (onlyStockPrice(w.body) ? this.pending : now).push(w);
    }
    const full = this.pending.length - (this.pending.length % MAX_STOCK_PRICE_VARIANTS);
    now.push(...this.pending.splice(0, full));
    await this.sendVariants(now);
    await this.sendSingles(undos);
    return this.summary.interrupted;
  }

  /** The price/stock writes still waiting. */
  async flush(): Promise<void> {
    await this.sendVariants(this.pending.splice(0));
  }

  private async sendVariants(writes: VariantUndo[]): Promise<void> {
    if (writes.length === 0 || this.summary.interrupted) return;
    if (this.options.dryRun) {
      for (const w of writes) this.reverted(w.changes);
      return;
    }
    const batch = writes.map((w): VariantWrite => {
      const write: VariantWrite = { productId: w.productId, variantId: w.variantId, line: 0, key: w.key, body: w.body, before: w.current };
      this.byWrite.set(write, w);
      return write;
    });
    const { interrupted } = await this.variants.send(batch);
    for (const write of batch) this.byWrite.delete(write);
    this.summary.interrupted ||= interrupted;
  }

  /** Everything that is one request per record: product fields, unlimited stock, deletes, records made again. */
  private async sendSingles(undos: ProductUndo[]): Promise<void> {
    const work: (() => Promise<void>)[] = [];
    for (const undo of undos) {
      if (undo.productUpdate) {
        const { productId, body, changes } = undo.productUpdate;
        work.push(async () => void (await this.send(changes, (record) => updateProduct(this.client, productId, body, record))));
      }
      for (const u of undo.unlimited) {
        work.push(async () => void (await this.send([u.change], (record) => changeStock(this.client, u.productId, { action: 'replace', value: null, variantId: u.id }, record))));
      }
      for (const v of undo.customFieldValues) {
        work.push(async () =>
          void (await this.send([v.change], (record) =>
            v.value === null
              ? unsetVariantCustomField(this.client, v.productId, v.variantId, v.fieldId, record)
              : setVariantCustomFields(this.client, v.productId, v.variantId, [{ id: v.fieldId, value: v.value }], record),
          )),
        );
      }
      for (const d of undo.deletes) work.push(() => this.delete(d));
      for (const r of undo.recreates) work.push(() => this.recreate(r));
    }
    if (work.length === 0) return;
    if (this.options.dryRun) {
      for (const undo of undos) this.countPlanned(undo);
      return;
    }
    const { interrupted } = await runPool(work, { concurrency: this.options.concurrency ?? DEFAULT_CONCURRENCY }, (job) => job());
    this.summary.interrupted ||= interrupted;
  }

  /** A dry run's count of what the singles would do. */
  private countPlanned(undo: ProductUndo): void {
    if (undo.productUpdate) this.reverted(undo.productUpdate.changes);
    for (const u of undo.unlimited) this.reverted([u.change]);
    for (const v of undo.customFieldValues) this.reverted([v.change]);
    for (const d of undo.deletes) this.summary.deleted.push({ resource: d.resource, id: d.change.id === undefined || d.change.id === null ? null : String(d.change.id), key: d.key });
    for (const r of undo.recreates) this.summary.recreated.push({ resource: r.resource, key: r.key, lost: r.lost });
  }

  private async delete(d: SingleUndo): Promise<void> {
    const done = await this.send([d.change], (record) =>
      d.resource === 'product'
        ? deleteProduct(this.client, d.productId, record)
        : d.resource === 'variant'
          ? deleteVariant(this.client, d.productId, d.id!, record)
          : deleteProductImage(this.client, d.productId, d.id!, record),
      false,
    );
    if (done) this.summary.deleted.push({ resource: d.resource, id: d.change.id === undefined || d.change.id === null ? null : String(d.change.id), key: d.key });
  }

  private async recreate(r: RecreateUndo): Promise<void> {
    const write = this.recorder.intend([r.change]);
    try {
      checkAbort(this.options.signal);
      const made =
        r.resource === 'product'
          ? await createProduct(this.client, r.body as ProductInput, write)
          : await createVariant(this.client, r.productId!, r.body as VariantInput, write);
      write.identify(made.id);
      this.summary.recreated.push({ resource: r.resource, key: r.key, lost: r.lost });
    } catch (error) {
      if (error instanceof AuthError || error instanceof Interrupted) throw error;
      this.failed([r.change], reasonOf(error));
    }
  }

  /** One request on the record; true when the store confirmed it. */
  private async send(changes: ChangeIntent[], request: (record: ReturnType<Recorder['intend']>) => Promise<unknown>, count = true): Promise<boolean> {
    checkAbort(this.options.signal);
    const write = this.recorder.intend(changes);
    try {
      await request(write);
      if (count) this.reverted(changes);
      return true;
    } catch (error) {
      if (error instanceof AuthError || error instanceof Interrupted) throw error;
      this.failed(changes, reasonOf(error));
      return false;
    }
  }

  private reverted(changes: readonly ChangeIntent[]): void {
    for (const c of changes) {
      this.summary.reverted.push({
        resource: c.resource,
        id: c.id === undefined || c.id === null ? null : String(c.id),
        parent: c.parent === undefined || c.parent === null ? null : String(c.parent),
        key: c.key ?? String(c.id ?? ''),
        field: c.field,
        location: c.location ?? null,
        from: c.before,
        to: c.after,
      });
    }
  }

  private failed(changes: readonly ChangeIntent[], reason: string): void {
    for (const c of changes) this.summary.failures.push({ key: c.key ?? String(c.id ?? ''), field: c.location ? `${c.field}@${c.location}` : c.field, reason });
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

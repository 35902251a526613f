import { createCategory, listCategories } from '../../api/categories.js';
import { setVariantCustomFields } from '../../api/custom-fields.js';
import { addProductImage, createProduct, deleteProduct, findProductByHandle, getProduct, updateProduct, type Product, type ProductInput } from '../../api/products.js';
import { createVariant, deleteVariant } from '../../api/variants.js';
import { AuthError, NetworkError, ServerError } from '../../client/errors.js';
import { StoreError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import { JournalError, type Journal } from '../bulk/journal.js';
import { executeItems } from '../bulk/executor.js';
import { Interrupted, checkAbort, runPool } from '../bulk/pool.js';
import { type VariantWrite, VariantWriter } from './variant-writes.js';
import { type CategoryCreate, type CategoryRef, type Plan, type ProductPlan, type Step, variantKey } from './plan-model.js';
import { variantWriteOf } from './planner.js';
import { missingImages } from './image-identity.js';
import { imageInput, imageRecord } from '../common/image-files.js';
import { pickLocalized } from '../../api/read.js';
import type { Variant } from '../../api/variants.js';
import { localTexts } from '../catalog/catalog-input.js';
import { created, deleted, fieldUpdates, type Subject } from '../../ledger/changes.js';
import type { PendingWrite } from '../../ledger/recorder.js';
import { type ExecuteOptions, type ExecuteProgress, type ExecuteResult, type ImportJournalEntry, type ProductResult, plannedOutcome } from './execute-model.js';

export { type ExecuteOptions, type ExecuteProgress, type ExecuteResult, type ImportJournalEntry, type Outcome, type ProductResult, plannedOutcome } from './execute-model.js';

/**
 * Runs an import plan through the HTTP core. Products go through the bulk worker pool; the steps of one
 * product run in order (a product before its variants, images in file order). Every confirmed write is
 * journaled.
 *
 * The client never repeats a POST that may have reached the server. When a create's answer is lost
 * (network error or 5xx after sending), the record is looked up — product by handle, variant by SKU, image
 * by URL, category by name and parent — before the create is sent again, so nothing is created twice.
 */

/** What the store's answers to one product's writes say about another writer (see concurrentWriterTraces). */
interface ConcurrentWrites {
  nextImagePosition: number;
  imagesMoved: boolean;
  handleTaken: string | undefined;
}

/** What the steps of one product share while they run. */
interface ProductRun {
  plan: ProductPlan;
  productId: number | undefined;
  variantIds: Map<string, number>;
  watch: ConcurrentWrites;
  variantsDeleted: number;
}

/** A create whose answer may have been lost: the server may or may not have committed it. */
function outcomeUnknown(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof ServerError;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

/**
 * Categories first (parents before children), then each product's steps, then the changes to existing
 * variants of every product together, in the fewest batches (services/catalog-files/variant-writes.ts). A product is
 * journaled done once all of its writes are.
 */
export async function executePlan(client: StoreClient, plan: Plan, options: ExecuteOptions): Promise<ExecuteResult> {
  const run = new PlanRun(client, plan, options);
  // Said before the first request: a stop that comes while it is in flight then finishes it and sums up.
  run.report();
  const categories = await run.createCategories();
  if (categories.interrupted) return { products: [], categoriesCreated: run.categoriesCreated, interrupted: true };
  const finished = new Set<string>();
  const finish = (p: ProductPlan, result: ProductResult) => {
    finished.add(p.key);
    if (result.failures.length > 0) result.outcome = 'failed';
    if (p.steps.length > 0 || p.variantUpdates.length > 0 || p.action !== 'unchanged') run.log({ t: 'done', key: p.key, outcome: result.outcome });
    run.productDone();
  };
  const { results, interrupted } = await executeItems(plan.products, options, async (p) => {
    const result = await run.runProduct(p);
    if (p.variantUpdates.length === 0) finish(p, result);
    return result;
  });
  const updated = interrupted ? { interrupted } : await run.updateVariants(results, finish);
  // Interrupted: a product whose variant changes were not all sent is not counted (the resumed run plans them).
  const products = updated.interrupted ? results.filter((r) => finished.has(r.key)) : results;
  return { products, categoriesCreated: run.categoriesCreated, interrupted: updated.interrupted };
}

class PlanRun {
  categoriesCreated = 0;
  private readonly categoryIds = new Map<string, number>();
  private readonly categoryFailures = new Map<string, string>();
  private readonly progress: ExecuteProgress;
  /**
   * As many as the client's bulk retries of idempotent requests (BULK_RETRIES): a create whose answer is lost
   * is looked up before it is sent again, so more attempts cost nothing but time, and with 6 a flaky hour
   * still failed about one create in 50,000.
   */
  private readonly attempts: number;
  /** The snapshot's products and variants by id (the ledger's before-values), made on first use. */
  private snapshotIndex?: { products: Map<number, Product>; variants: Map<number, Variant> };

  constructor(
    private readonly client: StoreClient,
    private readonly plan: Plan,
    private readonly options: ExecuteOptions,
  ) {
    this.attempts = options.createAttempts ?? 9;
    // Progress counts records written: a variant in a batch is one, like a product's step.
    const writesTotal = plan.categories.length + plan.products.reduce((n, p) => n + p.steps.length + p.variantUpdates.length, 0);
    this.progress = { productsDone: 0, productsTotal: plan.products.length, writesDone: 0, writesTotal };
  }

  log(entry: Parameters<Journal<ImportJournalEntry>['append']>[0]): void {
    this.options.journal?.append(entry);
  }

  productDone(): void {
    this.progress.productsDone++;
    this.report();
  }

  report(): void {
    this.options.onProgress?.({ ...this.progress });
  }

  private wrote(): void {
    this.progress.writesDone++;
    this.report();
  }

  /**
   * A create that is looked up before being sent again when its answer is lost. It is on the ledger once, as
   * intended, before the first attempt; a lookup that finds it confirms it there.
   */
  private async create<T extends { id: number | string }>(
    subject: Subject,
    body: unknown,
    send: (write: PendingWrite) => Promise<T>,
    lookup: () => Promise<T | undefined>,
  ): Promise<T> {
    const write = this.options.recorder.intend([created(subject, body)]);
    for (let attempt = 1; ; attempt++) {
      try {
        const record = await send(write);
        write.identify(record.id);
        return record;
      } catch (error) {
        if (!outcomeUnknown(error) || attempt >= this.attempts) throw error;
        const found = await lookup();
        if (found !== undefined) {
          write.settle('confirmed', 'its answer was lost; found in the store after');
          write.identify(found.id);
          return found;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
        checkAbort(this.options.signal);
      }
    }
  }

  /** What the snapshot held of a product or a variant: before-values for the ledger. */
  private snapshotOf(): { products: Map<number, Product>; variants: Map<number, Variant> } {
    if (!this.snapshotIndex) {
      const products = new Map((this.options.products ?? []).map((p) => [p.id, p]));
      const variants = new Map([...products.values()].flatMap((p) => p.variants.map((v) => [v.id, v] as const)));
      this.snapshotIndex = { products, variants };
    }
    return this.snapshotIndex;
  }

  private resolveRef(ref: CategoryRef | null): number | null | undefined {
    return ref === null ? null : typeof ref === 'number' ? ref : this.categoryIds.get(ref);
  }

  private resolveCategories(refs: CategoryRef[] | undefined): number[] | undefined {
    if (!refs) return undefined;
    return refs.map((ref) => {
      const id = this.resolveRef(ref);
      if (id === undefined || id === null) {
        throw new StoreError(this.categoryFailures.get(String(ref)) ?? `category ${String(ref)} could not be created`, 1);
      }
      return id;
    });
  }

  /** Categories, parents first: one level at a time, the creates of a level in parallel. */
  async createCategories(): Promise<{ interrupted: boolean }> {
    const depths = [...new Set(this.plan.categories.map((c) => c.depth))].sort((a, b) => a - b);
    for (const depth of depths) {
      const level = this.plan.categories.filter((c) => c.depth === depth);
      const { interrupted } = await runPool(level, this.options, (category) => this.createCategory(category));
      if (interrupted) return { interrupted };
    }
    return { interrupted: false };
  }

  private async createCategory(category: CategoryCreate): Promise<void> {
    checkAbort(this.options.signal);
    const parent = this.resolveRef(category.parent);
    if (parent === undefined) {
      this.categoryFailures.set(category.ref, this.categoryFailures.get(String(category.parent)) ?? `its parent could not be created`);
      return;
    }
    try {
      const body = { name: category.name, parent };
      const created = await this.create(
        { resource: 'category', key: category.name },
        body,
        (write) => createCategory(this.client, body, write),
        async () =>
          (await listCategories(this.client)).find(
            (c) => c.parent === parent && (typeof c.name === 'string' ? [c.name] : Object.values(c.name)).some((n) => n?.trim() === category.name),
          ),
      );
      this.categoryIds.set(category.ref, created.id);
      this.categoriesCreated++;
      this.log({ t: 'category', ref: category.ref, id: created.id });
      this.wrote();
    } catch (error) {
      if (error instanceof AuthError) throw error;
      this.categoryFailures.set(category.ref, `category "${category.name}" could not be created: ${reasonOf(error)}`);
    }
  }

  /**
   * The changes to existing variants of every product, batched across products. A product whose steps
   * failed still gets them (they do not depend on its steps); a refused variant is a failed row of its product.
   */
  async updateVariants(results: ProductResult[], finish: (p: ProductPlan, result: ProductResult) => void): Promise<{ interrupted: boolean }> {
    const byKey = new Map(results.map((r) => [r.key, r]));
    const pending = new Map<string, number>();
    const productOf = new Map<VariantWrite, ProductPlan>();
    const writes: VariantWrite[] = [];
    for (const p of this.plan.products) {
      if (p.variantUpdates.length === 0 || p.productId === undefined) continue;
      pending.set(p.key, p.variantUpdates.length);
      for (const u of p.variantUpdates) {
        const write = { ...variantWriteOf(p.productId, u), before: this.snapshotOf().variants.get(u.variantId) };
        productOf.set(write, p);
        writes.push(write);
      }
    }
    const settle = (w: VariantWrite, failure?: string) => {
      const p = productOf.get(w)!;
      const result = byKey.get(p.key)!;
      if (failure) result.failures.push({ line: w.line, key: w.key || p.key, reason: failure, stage: 'request' });
      else confirmed.push({ t: 'write', key: p.key, what: `variant ${w.key} ${Object.keys(w.body).join(',')}` });
      this.wrote();
      const left = pending.get(p.key)! - 1;
      pending.set(p.key, left);
      if (left === 0) finished.push(() => finish(p, result));
    };
    // What one request confirmed is journaled together, with one fsync; then the products it finished.
    const confirmed: ImportJournalEntry[] = [];
    const finished: (() => void)[] = [];
    const settled = () => {
      this.options.journal?.appendAll(confirmed.splice(0));
      for (const done of finished.splice(0)) done();
    };
    const writer = new VariantWriter(this.client, {
      recorder: this.options.recorder,
      signal: this.options.signal,
      concurrency: this.options.concurrency,
      locations: this.plan.locations,
      onFallback: (message) => this.client.warn(message),
      onRequestSettled: settled,
      onDone: (w) => settle(w),
      onFailed: (w, reason) => settle(w, reason),
    });
    return writer.send(writes);
  }

  /** One product's steps in order; the first step that fails ends the product (later steps depend on it). */
  async runProduct(p: ProductPlan): Promise<ProductResult> {
    const result: ProductResult = {
      key: p.key,
      line: p.line,
      outcome: plannedOutcome(p.action),
      productId: p.productId,
      reason: p.reason,
      failures: p.rowFailures.map((f) => ({ ...f, stage: 'plan' as const })),
    };
    if (p.action === 'fail' && p.rowFailures.length === 0) {
      result.failures.push({ line: p.line, key: p.key, reason: p.reason ?? 'failed', stage: 'plan' });
    }
    if (p.steps.length === 0) return result;
    const run: ProductRun = {
      plan: p,
      productId: p.productId,
      variantIds: new Map(),
      variantsDeleted: 0,
      watch: { nextImagePosition: (p.imagesBefore ?? 0) + 1, imagesMoved: false, handleTaken: undefined },
    };
    for (const step of p.steps) {
      checkAbort(this.options.signal);
      try {
        await this.runStep(step, run);
        this.wrote();
      } catch (error) {
        // A journal that cannot be written stops the run: a write it cannot record must not be followed by more.
        if (error instanceof AuthError || error instanceof Interrupted || error instanceof JournalError) throw error;
        const line = 'line' in step ? step.line : p.line;
        const key = 'sku' in step && step.sku ? step.sku : p.key;
        const reason = reasonOf(error);
        result.failures.push({ line, key, reason, stage: 'request' });
        result.reason ??= reason;
        break;
      }
    }
    result.productId = run.productId;
    if (run.variantsDeleted > 0) result.variantsDeleted = run.variantsDeleted;
    if (result.failures.length === 0 && run.productId !== undefined) {
      for (const reason of await this.concurrentWriterTraces(p, run.productId, run.watch)) result.failures.push({ line: p.line, key: p.key, reason, stage: 'request' });
    }
    if (result.failures.length > 0) result.outcome = 'failed';
    return result;
  }

  /**
   * A local lock cannot stop an import from another machine: what such a concurrent writer leaves is looked
   * for here, at no cost while nothing is amiss. The store placed an added image later than the images known
   * plus those this run added, or named a created product other than its handle: only then is the product
   * read again, and images on it twice are reported.
   */
  private async concurrentWriterTraces(p: ProductPlan, productId: number, watch: ConcurrentWrites): Promise<string[]> {
    const traces: string[] = [];
    if (watch.handleTaken) {
      traces.push(`the store named the new product "${watch.handleTaken}", not "${p.key}": another product took that handle meanwhile (a concurrent import?); check for a duplicate product`);
    }
    if (watch.imagesMoved) {
      // Each image should be on the product as many times as the file and the product before had it, known as the
      // planner knows images (image-identity.ts): by name, so two images named alike are counted together.
      const { images } = await getProduct(this.client, productId);
      const same = (image: { src: string; file?: string }) => (i: { src?: string | null }) => missingImages([image], [i]).length === 0;
      const before = this.snapshotOf().products.get(productId)?.images ?? [];
      const sent = p.steps.flatMap((s): { src: string }[] => (s.kind === 'addImage' ? [s] : s.kind === 'createProduct' ? (s.body.images ?? []) : []));
      for (const step of p.steps) {
        if (step.kind !== 'addImage') continue;
        const n = images.filter(same(step)).length;
        const expected = sent.filter((s) => same(step)(s)).length + before.filter(same(step)).length;
        if (n > expected) traces.push(`image ${step.src} is on product ${productId} ${n} times: another import added it at the same time; delete the extra copies`);
      }
    }
    return traces;
  }

  private runStep(step: Step, run: ProductRun): Promise<void> {
    switch (step.kind) {
      case 'createProduct':
        return this.createProduct(step, run);
      case 'updateProduct':
        return this.updateProduct(step, run);
      case 'createVariant':
        return this.createVariant(step, run);
      case 'addImage':
        return this.addImage(step, run);
      case 'setCustomFields':
        return this.setCustomFields(step, run);
      case 'deleteProduct':
        return this.deleteProduct(step, run);
      case 'deleteVariant':
        return this.deleteVariant(step, run);
    }
  }

  /** A DELETE row's product: on the ledger whole (as the snapshot read it), so undo can make it again. */
  private async deleteProduct(step: Step & { kind: 'deleteProduct' }, run: ProductRun): Promise<void> {
    const id = step.record.id;
    await deleteProduct(this.client, id, this.options.recorder.intend([deleted({ resource: 'product', id, key: run.plan.key }, step.record)]));
    this.log({ t: 'write', key: run.plan.key, what: 'product deleted' });
  }

  /** A variant a DELETE or REPLACE row removes, on the ledger whole. */
  private async deleteVariant(step: Step & { kind: 'deleteVariant' }, run: ProductRun): Promise<void> {
    const productId = run.productId!;
    const subject = { resource: 'variant', id: step.variantId, parent: productId, key: step.sku || null };
    await deleteVariant(this.client, productId, step.variantId, this.options.recorder.intend([deleted(subject, step.record)]));
    run.variantsDeleted++;
    this.log({ t: 'write', key: run.plan.key, what: `variant ${step.sku || step.variantId} deleted` });
  }

  /** The step's body with its category refs replaced by the ids the store gave. */
  private productBody(step: Step & { kind: 'createProduct' | 'updateProduct' }): ProductInput {
    const body: ProductInput = { ...step.body };
    const categories = this.resolveCategories(step.categories);
    if (categories) body.categories = categories;
    return body;
  }

  private async createProduct(step: Step & { kind: 'createProduct' }, run: ProductRun): Promise<void> {
    const key = run.plan.key;
    const body = this.productBody(step);
    const product = await this.create(
      { resource: 'product', key },
      body,
      (write) => createProduct(this.client, body, write),
      () => findProductByHandle(this.client, key),
    );
    this.log({ t: 'product', key, id: product.id });
    rememberVariants(run.variantIds, product.variants);
    run.productId = product.id;
    run.watch.nextImagePosition = product.images.length + 1;
    // A store that predates variants in POST /products drops them: each missing one is posted on its own.
    for (const v of step.variants ?? []) {
      if (run.variantIds.has(variantKey(v.sku, v.options))) continue;
      await this.createVariant({ kind: 'createVariant', sku: v.sku, line: v.line, body: v.fallback, options: v.options }, run);
    }
    const handles = typeof product.handle === 'string' ? [product.handle] : Object.values(product.handle ?? {});
    if (handles.length > 0 && !handles.includes(key)) run.watch.handleTaken = handles.find((h): h is string => Boolean(h));
    run.productId = product.id;
  }

  private async updateProduct(step: Step & { kind: 'updateProduct' }, run: ProductRun): Promise<void> {
    const body = this.productBody(step);
    const before = this.snapshotOf().products.get(run.productId!);
    const write = this.options.recorder.intend(fieldUpdates({ resource: 'product', id: run.productId, key: run.plan.key }, body, before));
    const product = await updateProduct(this.client, run.productId!, body, write);
    rememberVariants(run.variantIds, product.variants);
    this.log({ t: 'write', key: run.plan.key, what: `product ${Object.keys(body).join(',')}` });
  }

  private async createVariant(step: Step & { kind: 'createVariant' }, run: ProductRun): Promise<void> {
    const productId = run.productId!;
    // A variant without SKU is looked up by its option values (unique within the product).
    const variant = await this.create(
      { resource: 'variant', parent: productId, key: step.sku || null },
      step.body,
      (write) => createVariant(this.client, productId, step.body, write),
      async () => (await getProduct(this.client, productId)).variants.find((v) => (step.sku ? v.sku === step.sku : hasOptions(v, step.options))),
    );
    run.variantIds.set(variantKey(step.sku, step.options), variant.id);
    this.log({ t: 'variant', key: run.plan.key, sku: step.sku, id: variant.id });
  }

  private async addImage(step: Step & { kind: 'addImage' }, run: ProductRun): Promise<void> {
    const productId = run.productId!;
    const body = await imageInput(step, { ...(step.position !== undefined ? { position: step.position } : {}), ...(step.alt !== undefined ? { alt: [step.alt] } : {}) });
    const image = await this.create(
      { resource: 'image', parent: productId, key: step.src },
      imageRecord(step),
      (write) => addProductImage(this.client, productId, body, write),
      // Looked for as the planner matches images: the store names its copy after the file (image-identity.ts).
      async () => {
        const { images } = await getProduct(this.client, productId);
        return images.find((i) => missingImages([step], [i]).length === 0);
      },
    );
    this.log({ t: 'image', key: run.plan.key, src: step.src });
    // Appended images take the next position; a later one means someone else added images meanwhile.
    const position = typeof image.position === 'number' ? image.position : 0;
    if (step.position === undefined && position > run.watch.nextImagePosition) run.watch.imagesMoved = true;
    run.watch.nextImagePosition = Math.max(run.watch.nextImagePosition, position) + 1;
  }

  private async setCustomFields(step: Step & { kind: 'setCustomFields' }, run: ProductRun): Promise<void> {
    const variantId = step.variantId ?? run.variantIds.get(variantKey(step.sku, step.options));
    if (variantId === undefined) throw new StoreError(`variant ${step.sku} was not found after its creation`, 1);
    const subject = { resource: 'variant', id: variantId, parent: run.productId, key: step.sku || null };
    const current = this.snapshotOf().variants.get(variantId);
    const was = (id: string) => current?.custom_fields?.find((cf) => String(cf.id) === id)?.value ?? null;
    const write = this.options.recorder.intend(
      step.values.map((v) => ({ ...subject, kind: 'update' as const, field: `custom_fields.${v.id}`, ...(current ? { before: was(v.id) } : {}), after: v.value })),
    );
    await setVariantCustomFields(this.client, run.productId!, variantId, step.values, write);
    this.log({ t: 'write', key: run.plan.key, what: `custom fields of ${step.sku}` });
  }
}

/** Ids of the variants a product reply holds, by SKU and, for those without one, by option values. */
function rememberVariants(ids: Map<string, number>, variants: Variant[]): void {
  for (const v of variants) ids.set(variantKey(v.sku ?? '', v.values.map((value) => pickLocalized(value))), v.id);
}

/** Whether a variant has these option values (in any of its languages). */
function hasOptions(v: Variant, options: string[]): boolean {
  return (
    v.values.length === options.length &&
    v.values.every((value, i) => localTexts(value).some((t) => t.trim().toLowerCase() === options[i]!.trim().toLowerCase()))
  );
}

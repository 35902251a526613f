import { createCategory, listCategories } from '../../api/categories.js';
import { setVariantCustomFields } from '../../api/custom-fields.js';
import { addProductImage, createProduct, findProductByHandle, getProduct, updateProduct } from '../../api/products.js';
import { createVariant, updateVariant } from '../../api/variants.js';
import { AuthError, NetworkError, ServerError, StoreError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import type { Journal, JournalEntry } from './journal.js';
import { type Body, type CategoryRef, type Plan, type ProductPlan, type Step, variantKey } from './planner.js';
import { pickLocalized } from '../../api/read.js';
import type { Variant } from '../../api/variants.js';
import { localTexts } from '../catalog-input.js';

/**
 * Runs an import plan through the HTTP core. Products go through a pool of workers (several requests in
 * flight, so the client's rate scheduler, not latency, sets the pace); the steps of one product run in
 * order (a product before its variants, images in file order). Every confirmed write is journaled.
 *
 * The client never repeats a POST that may have reached the server. When a create's answer is lost
 * (network error or 5xx after sending), the record is looked up — product by handle, variant by SKU, image
 * by URL, category by name and parent — before the create is sent again, so nothing is created twice.
 */

export type Outcome = 'created' | 'updated' | 'unchanged' | 'skipped' | 'failed';

export interface ProductResult {
  key: string;
  line: number;
  outcome: Outcome;
  productId?: number;
  /** Why it failed or was skipped. */
  reason?: string;
  /** Rows that failed, with the reason (a product may have some rows done and some failed). */
  failures: { line: number; key: string; reason: string; stage: 'plan' | 'request' }[];
}

export interface ExecuteProgress {
  productsDone: number;
  productsTotal: number;
  writesDone: number;
  writesTotal: number;
}

export interface ExecuteOptions {
  concurrency?: number;
  journal?: Journal;
  signal?: AbortSignal;
  onProgress?: (progress: ExecuteProgress) => void;
  /** Attempts of a create whose answer keeps getting lost. */
  createAttempts?: number;
}

export interface ExecuteResult {
  products: ProductResult[];
  categoriesCreated: number;
  interrupted: boolean;
}

export const DEFAULT_CONCURRENCY = 12;

/** What the store's answers to one product's writes say about another writer (see concurrentWriterTraces). */
interface ConcurrentWrites {
  nextImagePosition: number;
  imagesMoved: boolean;
  handleTaken: string | undefined;
}

/** A create whose answer may have been lost: the server may or may not have committed it. */
function outcomeUnknown(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof ServerError;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

class Interrupted extends Error {}

export async function executePlan(client: StoreClient, plan: Plan, options: ExecuteOptions = {}): Promise<ExecuteResult> {
  const journal = options.journal;
  const log = (entry: JournalEntry) => journal?.append(entry);
  // As many as the client's bulk retries of idempotent requests (BULK_RETRIES): a create whose answer is lost
  // is looked up before it is sent again, so more attempts cost nothing but time, and with 6 a flaky hour
  // still failed about one create in 50,000.
  const attempts = options.createAttempts ?? 9;
  const progress: ExecuteProgress = {
    productsDone: 0,
    productsTotal: plan.products.length,
    writesDone: 0,
    writesTotal: plan.writes,
  };
  const report = () => options.onProgress?.({ ...progress });
  const wrote = () => {
    progress.writesDone++;
    report();
  };
  const checkAbort = () => {
    if (options.signal?.aborted) throw new Interrupted();
  };

  /** A create that is looked up before being sent again when its answer is lost. */
  async function create<T>(send: () => Promise<T>, lookup: () => Promise<T | undefined>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        if (!outcomeUnknown(error) || attempt >= attempts) throw error;
        const found = await lookup();
        if (found !== undefined) return found;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
        checkAbort();
      }
    }
  }

  // Categories, parents first: one level at a time, the creates of a level in parallel.
  const categoryIds = new Map<string, number>();
  const categoryFailures = new Map<string, string>();
  let categoriesCreated = 0;
  const resolveRef = (ref: CategoryRef | null): number | null | undefined =>
    ref === null ? null : typeof ref === 'number' ? ref : categoryIds.get(ref);
  const depths = [...new Set(plan.categories.map((c) => c.depth))].sort((a, b) => a - b);
  let interrupted = false;
  try {
    for (const depth of depths) {
      const level = plan.categories.filter((c) => c.depth === depth);
      await pool(level, options.concurrency ?? DEFAULT_CONCURRENCY, async (category) => {
        checkAbort();
        const parent = resolveRef(category.parent);
        if (parent === undefined) {
          categoryFailures.set(category.ref, categoryFailures.get(String(category.parent)) ?? `its parent could not be created`);
          return;
        }
        try {
          const created = await create(
            () => createCategory(client, { name: category.name, parent }),
            async () =>
              (await listCategories(client)).find(
                (c) =>
                  c.parent === parent &&
                  (typeof c.name === 'string' ? [c.name] : Object.values(c.name)).some((n) => n?.trim() === category.name),
              ),
          );
          categoryIds.set(category.ref, created.id);
          categoriesCreated++;
          log({ t: 'category', ref: category.ref, id: created.id });
          wrote();
        } catch (error) {
          if (error instanceof AuthError) throw error;
          categoryFailures.set(category.ref, `category "${category.name}" could not be created: ${reasonOf(error)}`);
        }
      });
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    interrupted = true;
  }

  const results: ProductResult[] = [];
  const resolveCategories = (refs: CategoryRef[] | undefined): number[] | undefined => {
    if (!refs) return undefined;
    return refs.map((ref) => {
      const id = resolveRef(ref);
      if (id === undefined || id === null) {
        throw new StoreError(categoryFailures.get(String(ref)) ?? `category ${String(ref)} could not be created`, 1);
      }
      return id;
    });
  };

  async function runProduct(p: ProductPlan): Promise<ProductResult> {
    const result: ProductResult = {
      key: p.key,
      line: p.line,
      outcome: p.action === 'create' ? 'created' : p.action === 'update' ? 'updated' : p.action === 'skip' ? 'skipped' : p.action === 'fail' ? 'failed' : 'unchanged',
      productId: p.productId,
      reason: p.reason,
      failures: p.rowFailures.map((f) => ({ ...f, stage: 'plan' as const })),
    };
    if (p.action === 'fail' && p.rowFailures.length === 0) {
      result.failures.push({ line: p.line, key: p.key, reason: p.reason ?? 'failed', stage: 'plan' });
    }
    if (p.steps.length === 0) return result;
    let productId = p.productId;
    const variantIds = new Map<string, number>();
    const watch: ConcurrentWrites = { nextImagePosition: (p.imagesBefore ?? 0) + 1, imagesMoved: false, handleTaken: undefined };
    for (const step of p.steps) {
      checkAbort();
      try {
        productId = await runStep(step, p, productId, variantIds, watch);
        wrote();
      } catch (error) {
        if (error instanceof AuthError || error instanceof Interrupted) throw error;
        const line = 'line' in step ? step.line : p.line;
        const key = 'sku' in step && step.sku ? step.sku : p.key;
        const reason = reasonOf(error);
        result.failures.push({ line, key, reason, stage: 'request' });
        result.reason ??= reason;
        break;
      }
    }
    result.productId = productId;
    if (result.failures.length === 0 && productId !== undefined) {
      for (const reason of await concurrentWriterTraces(p, productId, watch)) result.failures.push({ line: p.line, key: p.key, reason, stage: 'request' });
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
  async function concurrentWriterTraces(p: ProductPlan, productId: number, watch: ConcurrentWrites): Promise<string[]> {
    const traces: string[] = [];
    if (watch.handleTaken) {
      traces.push(`the store named the new product "${watch.handleTaken}", not "${p.key}": another product took that handle meanwhile (a concurrent import?); check for a duplicate product`);
    }
    if (watch.imagesMoved) {
      const wanted = new Set(p.steps.flatMap((s) => (s.kind === 'addImage' ? [s.src] : [])));
      const counts = new Map<string, number>();
      for (const image of (await getProduct(client, productId)).images) {
        if (image.src && wanted.has(image.src)) counts.set(image.src, (counts.get(image.src) ?? 0) + 1);
      }
      for (const [src, n] of counts) {
        if (n > 1) traces.push(`image ${src} is on product ${productId} ${n} times: another import added it at the same time; delete the extra copies`);
      }
    }
    return traces;
  }

  async function runStep(
    step: Step,
    p: ProductPlan,
    productId: number | undefined,
    variantIds: Map<string, number>,
    watch: ConcurrentWrites,
  ): Promise<number | undefined> {
    switch (step.kind) {
      case 'createProduct': {
        const body: Body = { ...step.body };
        const categories = resolveCategories(step.categories);
        if (categories) body.categories = categories;
        const product = await create(
          () => createProduct(client, body),
          () => findProductByHandle(client, p.key),
        );
        log({ t: 'product', key: p.key, id: product.id });
        rememberVariants(variantIds, product.variants);
        const handles = typeof product.handle === 'string' ? [product.handle] : Object.values(product.handle ?? {});
        if (handles.length > 0 && !handles.includes(p.key)) watch.handleTaken = handles.find((h): h is string => Boolean(h));
        return product.id;
      }
      case 'updateProduct': {
        const body: Body = { ...step.body };
        const categories = resolveCategories(step.categories);
        if (categories) body.categories = categories;
        const product = await updateProduct(client, productId!, body);
        rememberVariants(variantIds, product.variants);
        log({ t: 'write', key: p.key, what: `product ${Object.keys(body).join(',')}` });
        return productId;
      }
      case 'createVariant': {
        // A variant without SKU is looked up by its option values (unique within the product).
        const variant = await create(
          () => createVariant(client, productId!, step.body),
          async () =>
            (await getProduct(client, productId!)).variants.find((v) => (step.sku ? v.sku === step.sku : hasOptions(v, step.options))),
        );
        variantIds.set(variantKey(step.sku, step.options), variant.id);
        log({ t: 'variant', key: p.key, sku: step.sku, id: variant.id });
        return productId;
      }
      case 'updateVariant':
        await updateVariant(client, productId!, step.variantId, step.body);
        log({ t: 'write', key: p.key, what: `variant ${step.sku} ${Object.keys(step.body).join(',')}` });
        return productId;
      case 'addImage': {
        const image = await create(
          () => addProductImage(client, productId!, step.src),
          async () => (await getProduct(client, productId!)).images.find((i) => i.src === step.src),
        );
        log({ t: 'image', key: p.key, src: step.src });
        // Appended images take the next position; a later one means someone else added images meanwhile.
        if (typeof image.position === 'number' && image.position > watch.nextImagePosition) watch.imagesMoved = true;
        watch.nextImagePosition = Math.max(watch.nextImagePosition, typeof image.position === 'number' ? image.position : 0) + 1;
        return productId;
      }
      case 'setCustomFields': {
        const variantId = step.variantId ?? variantIds.get(variantKey(step.sku, step.options));
        if (variantId === undefined) throw new StoreError(`variant ${step.sku} was not found after its creation`, 1);
        await setVariantCustomFields(client, productId!, variantId, step.values);
        log({ t: 'write', key: p.key, what: `custom fields of ${step.sku}` });
        return productId;
      }
    }
  }

  if (!interrupted) {
    try {
      await pool(plan.products, options.concurrency ?? DEFAULT_CONCURRENCY, async (p) => {
        const result = await runProduct(p);
        results.push(result);
        if (p.steps.length > 0 || p.action !== 'unchanged') log({ t: 'done', key: p.key, outcome: result.outcome });
        progress.productsDone++;
        report();
      });
    } catch (error) {
      if (!(error instanceof Interrupted)) throw error;
      interrupted = true;
    }
  }
  const order = new Map(plan.products.map((p, i) => [p.key, i]));
  results.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
  return { products: results, categoriesCreated, interrupted };
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

/**
 * Runs `work` over the items with at most `limit` at once. The first error stops new items from starting;
 * the ones already running finish, then it is thrown.
 */
export async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}

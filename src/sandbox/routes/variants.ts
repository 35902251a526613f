import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paginate, parseBody, platformTime, showLocalized } from '../http.js';
import type { SandboxContext } from '../context.js';
import { variantStock } from '../stock.js';
import { type Localized, type ProductRecord, type VariantRecord } from '../records.js';
import type { StoreData, Tx } from '../state.js';
import { getProduct } from '../store/products.js';
import {
  applyVariantBatch,
  checkNewVariant,
  checkVariantBatch,
  checkVariantChange,
  createVariant,
  deleteVariant,
  getVariant,
  updateVariant,
  type VariantFields,
} from '../store/variants.js';
import { applyStockPrice, checkStockPriceBody, planStockPrice } from '../store/stock-price.js';
import { applyRelativeStock, checkRelativeStock } from '../store/relative-stock.js';
import { AckDrops, parseFaults, VariantFaults } from '../faults.js';
import { batchWeight, chargeVariantWrite } from '../weighted.js';

/**
 * The variant routes (docs/api-rules.md §5.12; records and operations: store/variants.ts), the request schema of a
 * variant's fields (which a product without variation takes too) and the documented variant record.
 */

const moneyInput = z.union([z.number(), z.string()]).nullable();
const measureInput = z.union([z.number(), z.string()]).nullable();
const localizedInput = z.union([z.string(), z.record(z.string(), z.string())]);

export const variantFieldsSchema = z.object({
  sku: z.string().nullable().optional(),
  price: moneyInput.optional(),
  promotional_price: moneyInput.optional(),
  cost: moneyInput.optional(),
  stock: z.number().int().min(0).nullable().optional(),
  stock_management: z.boolean().optional(),
  inventory_levels: z.array(z.object({ location_id: z.string(), stock: z.number().int().min(0) })).optional(),
  weight: measureInput.optional(),
  width: measureInput.optional(),
  height: measureInput.optional(),
  depth: measureInput.optional(),
  mpn: z.string().nullable().optional(),
  barcode: z.string().nullable().optional(),
  age_group: z.string().nullable().optional(),
  gender: z.string().nullable().optional(),
  image_id: z.number().int().nullable().optional(),
}) satisfies z.ZodType<VariantFields>;

const variantSchema = variantFieldsSchema.extend({
  attributes: z.array(z.object({ name: localizedInput, value: localizedInput })).optional(),
  values: z.array(localizedInput).optional(),
});

/** `PATCH`/`PUT /products/{id}/variants` (docs/platform.md §8): a list of variants, each with its id (PUT: new ones without). */
const variantBatchSchema = z.array(
  variantFieldsSchema.extend({
    id: z.number().int().positive().optional(),
    values: z.array(localizedInput).optional(),
  }),
);

/** Items with an id above `since_id` (docs/platform.md §8: a product's variants and images lists take it too). */
export function sinceId<T extends { id: number }>(items: T[], query: unknown): T[] {
  const raw = (query as Record<string, unknown> | undefined)?.since_id;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) return items;
  const since = Number(raw);
  return items.filter((item) => item.id > since);
}

/**
 * A localized option name or value as the platform sends it: every store language, or, when the main language
 * has no text, only the languages that have some (docs/platform.md §0: an option named only in `pt`).
 */
export function showOption(store: StoreData, value: Localized) {
  if (value[store.record.main_language]) return showLocalized(store, value);
  return Object.fromEntries(Object.entries(value).filter(([, text]) => text !== ''));
}

/** A variant (docs/platform.md §3); `inventory_levels` is left out when the store does not report the split. */
export function presentVariant(store: StoreData, v: VariantRecord, compact = false) {
  const record = {
    id: v.id,
    product_id: v.product_id,
    image_id: v.image_id,
    sku: v.sku,
    price: v.price,
    promotional_price: v.promotional_price,
    cost: v.cost,
    stock_management: v.stock_management,
    stock: v.stock_management ? variantStock(v) : null,
    weight: v.weight,
    width: v.width,
    height: v.height,
    depth: v.depth,
    barcode: v.barcode ?? null,
    mpn: v.mpn,
    age_group: v.age_group,
    gender: v.gender,
    values: v.values.map((value) => showOption(store, value)),
    inventory_levels: v.inventory_levels.map((l) => ({ location_id: l.location_id, stock: l.stock })) as
      | { location_id: string; stock: number }[]
      | undefined,
    custom_fields: v.custom_fields,
    created_at: platformTime(v.created_at, compact),
    updated_at: platformTime(v.updated_at, compact),
  };
  if (v.levels_unreported) delete record.inventory_levels;
  return record;
}

const ackDropsBySandbox = new WeakMap<SandboxContext, AckDrops>();

/** The sandbox's one `ack-drop` sequence (faults.ts), shared by the product and variant routes. */
export function ackDrops(ctx: SandboxContext): AckDrops {
  let drops = ackDropsBySandbox.get(ctx);
  if (!drops) ackDropsBySandbox.set(ctx, (drops = new AckDrops(parseFaults(ctx.options.faults))));
  return drops;
}

/**
 * A write to an existing product, as one journaled mutation (`op`), then its answer (`present`) and its webhooks.
 * When the `ack-drop` fault picks the request, the product is then put back as it was (one more journal entry),
 * so the answer says "applied" and the store holds nothing of it: what `--verify` must catch.
 */
export function writeProduct<R>(
  ctx: SandboxContext,
  store: StoreData,
  product: ProductRecord,
  op: string,
  change: (tx: Tx, createdLocations: string[]) => unknown,
  present: () => R,
): R {
  const kept = ackDrops(ctx).drops() ? structuredClone(product) : undefined;
  const createdLocations: string[] = [];
  ctx.state.mutate(op, (tx) => change(tx, createdLocations));
  const answer = present();
  if (kept) ctx.state.mutate('fault.ack-drop', (tx) => tx.put(store.products, kept));
  for (const id of createdLocations) ctx.emit('location/created', store.id, id);
  ctx.emit('product/updated', store.id, product.id);
  return answer;
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  type Params = { product_id: string; variant_id: string };

  api.get('/products/:product_id/variants', async (req, reply) => {
    const product = getProduct(req.store, (req.params as Params).product_id);
    const items = sinceId(product.variants, req.query);
    return paginate(req, reply, items, (v) => presentVariant(req.store, v, product.compact_offset));
  });

  /**
   * `PATCH /products/{id}/variants` changes many existing variants of one product and never creates or deletes;
   * `PUT` replaces the collection: elements with an id change that variant, without one make a new one, and the
   * variants not sent are deleted (docs/platform.md §8). Both answer the product's whole variant collection.
   */
  for (const [method, replace] of [['PATCH', false], ['PUT', true]] as const) {
    api.route({
      method,
      url: '/products/:product_id/variants',
      handler: async (req, reply) => {
        const store = req.store;
        const product = getProduct(store, (req.params as Params).product_id);
        chargeVariantWrite(ctx, req, reply, batchWeight(req.body));
        const body = parseBody(variantBatchSchema, req.body);
        const batch = checkVariantBatch(store, product, body, replace);
        const present = () => product.variants.map((v) => presentVariant(store, v, product.compact_offset));
        if (!replace && body.length === 0) return present();
        const op = replace ? 'variant.batch-replace' : 'variant.batch-update';
        return writeProduct(ctx, store, product, op, (tx, created) => applyVariantBatch(tx, store, product, batch, created), present);
      },
    });
  }

  // Price and stock of up to 50 variants across products, answered per variant (docs/platform.md §8).
  const variantFaults = new VariantFaults(parseFaults(ctx.options.faults));
  api.patch('/products/stock-price', async (req, reply) => {
    const store = req.store;
    chargeVariantWrite(ctx, req, reply, batchWeight(req.body, true));
    const body = checkStockPriceBody(req.body);
    const plan = planStockPrice(store, body, (variant) => variantFaults.fails(variant.sku));
    // ack-drop: a variant answered `success: true` whose change is left out of what is written.
    const drops = ackDrops(ctx);
    plan.changes = plan.changes.filter(() => !drops.drops());
    const createdLocations: string[] = [];
    const touched = plan.changes.length === 0 ? [] : state.mutate('variant.stock-price', (tx) => applyStockPrice(tx, store, plan, createdLocations));
    for (const id of createdLocations) ctx.emit('location/created', store.id, id);
    for (const product of touched) ctx.emit('product/updated', store.id, product.id);
    return plan.answer;
  });

  api.get('/products/:product_id/variants/:variant_id', async (req) => {
    const params = req.params as Params;
    const product = getProduct(req.store, params.product_id);
    return presentVariant(req.store, getVariant(req.store, product, params.variant_id), product.compact_offset);
  });

  api.post('/products/:product_id/variants', async (req, reply) => {
    const store = req.store;
    const product = getProduct(store, (req.params as Params).product_id);
    const body = parseBody(variantSchema, req.body);
    const options = checkNewVariant(store, product, body);
    const createdLocations: string[] = [];
    const variant = state.mutate('variant.create', (tx) => {
      const created = createVariant(tx, store, product, options, body, createdLocations);
      tx.put(store.products, product);
      return created;
    });
    for (const id of createdLocations) ctx.emit('location/created', store.id, id);
    ctx.emit('product/updated', store.id, product.id);
    return reply.code(201).send(presentVariant(store, variant, product.compact_offset));
  });

  api.put('/products/:product_id/variants/:variant_id', async (req) => {
    const store = req.store;
    const params = req.params as Params;
    const product = getProduct(store, params.product_id);
    const variant = getVariant(store, product, params.variant_id);
    const body = parseBody(variantSchema, req.body);
    const options = checkVariantChange(store, product, variant, body);
    return writeProduct(
      ctx,
      store,
      product,
      'variant.update',
      (tx, created) => updateVariant(tx, store, product, variant, options, body, created),
      () => presentVariant(store, variant, product.compact_offset),
    );
  });

  /**
   * Relative stock (docs/platform.md §12): `{action: replace|variation, value, id?}` sets or moves the stock of one
   * variant, or of every variant of the product without `id`; answers the variants it updated (store/relative-stock.ts).
   */
  api.post('/products/:product_id/variants/stock', async (req, reply) => {
    const store = req.store;
    const product = getProduct(store, (req.params as Params).product_id);
    const one = (req.body as { id?: unknown } | undefined)?.id;
    chargeVariantWrite(ctx, req, reply, one === undefined || one === null ? Math.max(1, product.variants.length) : 1);
    const change = checkRelativeStock(product, req.body);
    let updated: VariantRecord[] = [];
    return writeProduct(
      ctx,
      store,
      product,
      'variant.stock',
      (tx, created) => (updated = applyRelativeStock(tx, store, product, change, created)),
      () => updated.map((v) => presentVariant(store, v, product.compact_offset)),
    );
  });

  api.delete('/products/:product_id/variants/:variant_id', async (req) => {
    const store = req.store;
    const params = req.params as Params;
    const product = getProduct(store, params.product_id);
    const variant = getVariant(store, product, params.variant_id);
    state.mutate('variant.delete', (tx) => deleteVariant(tx, store, product, variant));
    ctx.emit('product/updated', store.id, product.id);
    return {};
  });
}

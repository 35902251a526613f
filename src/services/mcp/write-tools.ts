import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { UsageError } from '../../errors.js';
import { CANCEL_REASONS } from '../../platform/orders.js';
import { readPlanFile } from '../bulk/plan-file.js';
import { runImport } from '../catalog-files/import/run-import.js';
import { runSync } from '../catalog-files/sync/run-sync.js';
import { orderToCancel, orderToCloseOrReopen } from '../orders/orders.js';
import { applyPlanTool, recorderFor, undoChanges, undoFingerprint, undoPreview } from './apply.js';
import { planInvoice, planShip } from './order-actions.js';
import { newPlanId, type PlannedChange, planPath, savePlan, type StoredPlan } from './plan-store.js';
import type { ToolReply } from './reply.js';
import { type CallContext, type Session, tool, type ToolAnnotations, type ToolSpec } from './session.js';

/**
 * The write tools of `store mcp --write`: each plan_* tool (and undo_run) reads the store, writes nothing, and keeps
 * a plan — what would change, old → new — under an id; `apply_plan(id)` (apply.ts) writes exactly that plan, once.
 * The catalog plans are the saved plans of `--plan-out` (the sync and import planners, sealed, checked by `store
 * apply`'s stale-plan refusal); order actions and undos keep what they were planned against and are checked again.
 */

/** A plan tool changes nothing: it reads the store and keeps a plan on this machine. */
const PLANS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** A new plan of this session's store, made by `tool` for the calling client, with what it would change. */
function newPlan(
  session: Session,
  call: CallContext,
  head: { id?: string; kind: StoredPlan['kind']; tool: string },
  body: Pick<StoredPlan, 'summary' | 'changes' | 'detail'>,
): StoredPlan {
  return {
    id: head.id ?? newPlanId(),
    kind: head.kind,
    created_at: new Date().toISOString(),
    tool: head.tool,
    client: call.clientName,
    store: { store_id: session.store.storeId, api_host: new URL(session.store.apiUrl).host },
    ...body,
  };
}

function planReply(plan: StoredPlan, extra: Record<string, unknown> = {}): ToolReply {
  return {
    summary: `${plan.summary} Plan ${plan.id}: nothing is written until apply_plan("${plan.id}"), and only if the store still holds the values shown as before.`,
    data: { plan_id: plan.id, changes: plan.changes, ...extra },
    list: 'changes',
    // Every change is in the plan; a reply cut to fit shows the first ones.
    cursorAfter: () => undefined,
  };
}

/** A CSV cell, quoted. */
function cell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return `"${text.replaceAll('"', '""')}"`;
}

/** A dry run of sync or import with `--plan-out`, kept as a plan. */
async function planCatalog(session: Session, call: CallContext, toolName: string, csv: string, job: 'sync' | 'import'): Promise<ToolReply> {
  const { store, options } = session;
  const id = newPlanId();
  const feed = planPath(options.env, id, '.csv');
  const planFile = planPath(options.env, id, '.plan');
  await writeFile(feed, csv, { mode: 0o600 });
  const common = {
    file: feed,
    name: toolName,
    recorder: recorderFor(session, call, id),
    apiUrl: store.apiUrl,
    storeId: store.storeId,
    appId: store.appId,
    env: options.env,
    dryRun: true,
    planOut: planFile,
    signal: call.signal,
  };
  const summary = job === 'sync' ? await runSync(store.client, common) : await runImport(store.client, common);
  const saved = await readPlanFile(planFile, options.env);
  const changes: PlannedChange[] = saved.entries
    .filter((e) => e.t === 'write')
    .map((e) => ({
      resource: String(e.resource),
      key: String(e.key),
      field: String(e.field),
      ...(e.location ? { location: String(e.location) } : {}),
      before: e.before ?? null,
      after: e.after ?? null,
    }));
  const problems = ((summary as { failures?: { line?: number; key?: string; error?: string; reason?: string }[] }).failures ?? []).map((f) => ({
    line: f.line ?? null,
    key: f.key ?? null,
    problem: f.error ?? f.reason ?? null,
  }));
  const plan = newPlan(session, call, { id, kind: 'catalog', tool: toolName }, {
    summary: `${changes.length} field${changes.length === 1 ? '' : 's'} would change${problems.length ? `; ${problems.length} row(s) cannot be written (problems)` : ''}.`,
    changes,
    detail: { file: planFile, command: saved.header.command },
  });
  if (changes.length === 0) {
    return { summary: `Nothing would change${problems.length ? `; ${problems.length} row(s) cannot be written (problems)` : ''}: no plan was kept.`, data: { plan_id: null, changes: [], problems } };
  }
  await savePlan(options.env, plan);
  return planReply(plan, { problems });
}

const stockRow = z.object({
  sku: z.string().min(1),
  stock: z.number().int().min(0).nullable().optional().describe('null: not tracked (unlimited).'),
  price: z.string().optional().describe('Decimal text, e.g. "19.90".'),
  promotional_price: z.string().optional(),
  cost: z.string().optional(),
  stock_at: z
    .record(z.string().min(1), z.number().int().min(0))
    .optional()
    .describe('Stock at named locations, by location name or id: {"Local Palermo": 12}. The `stock:<location>` columns of variants sync.'),
});

type StockRow = z.infer<typeof stockRow>;

export const planStockPrice = tool({
  name: 'plan_stock_price',
  toolset: 'catalog',
  write: true,
  scopes: ['write_products'],
  title: 'Plan stock and price changes',
  description: 'Plan new stock (default location, or named ones with stock_at) and prices by SKU, like variants sync: returns a plan id and each field old → new. Writes nothing; apply_plan writes it.',
  input: z.object({ rows: z.array(stockRow).min(1).max(2000).describe('Every row gives the same fields.') }),
  output: z.looseObject({ plan_id: z.string().nullable(), changes: z.array(z.looseObject({})) }),
  annotations: PLANS,
  async run(args, session, call) {
    const first = args.rows[0]!;
    const fields = (row: StockRow) => Object.keys(row).filter((k) => row[k as keyof typeof row] !== undefined).sort().join(', ');
    const locations = (row: StockRow) => Object.keys(row.stock_at ?? {}).sort().join(', ');
    args.rows.forEach((row, i) => {
      if (fields(row) !== fields(first)) {
        throw new UsageError(`rows[${i}] (${row.sku}) gives ${fields(row)}; every row must give the same fields as the first: ${fields(first)}.`);
      }
      if (locations(row) !== locations(first)) {
        throw new UsageError(`rows[${i}] (${row.sku}) gives stock_at for ${locations(row) || 'no location'}; every row must give the same locations as the first: ${locations(first) || 'none'}.`);
      }
    });
    // The sync's own columns (docs/csv.md): `stock` at the default location, `stock:<location>` at a named one.
    const atLocations = Object.keys(first.stock_at ?? {});
    const columns: { header: string; value: (row: StockRow) => unknown }[] = [
      { header: 'sku', value: (row) => row.sku },
      ...(first.stock !== undefined ? [{ header: 'stock', value: (row: StockRow) => (row.stock === null ? '' : row.stock) }] : []),
      ...atLocations.map((location) => ({ header: `stock:${location}`, value: (row: StockRow) => row.stock_at![location] })),
      ...(['price', 'promotional_price', 'cost'] as const).filter((c) => first[c] !== undefined).map((c) => ({ header: c, value: (row: StockRow) => row[c] })),
    ];
    const csv = [columns.map((c) => cell(c.header)).join(','), ...args.rows.map((row) => columns.map((c) => cell(c.value(row))).join(','))].join('\n');
    return planCatalog(session, call, 'plan_stock_price', `${csv}\n`, 'sync');
  },
});

export const planCatalogRows = tool({
  name: 'plan_catalog_rows',
  toolset: 'catalog',
  write: true,
  scopes: ['write_products'],
  title: 'Plan catalog changes from rows',
  description: 'Plan products and variants from catalog CSV text (the columns of products import: handle, name, sku, price, stock…): returns a plan id and each field old → new. Writes nothing.',
  input: z.object({ csv: z.string().min(1).max(500_000).describe('CSV with a header row, as products import reads.') }),
  output: z.looseObject({ plan_id: z.string().nullable(), changes: z.array(z.looseObject({})) }),
  annotations: PLANS,
  async run(args, session, call) {
    return planCatalog(session, call, 'plan_catalog_rows', args.csv.endsWith('\n') ? args.csv : `${args.csv}\n`, 'import');
  },
});

export const planOrderAction = tool({
  name: 'plan_order_action',
  toolset: 'orders',
  write: true,
  scopes: ['write_orders'],
  title: 'Plan an order action',
  description: 'Plan one action on an order by id or number — cancel, close (archive), reopen, ship (dispatch with a tracking code) or attach_invoice — : returns a plan id and what changes, old → new. Writes nothing.',
  input: z.object({
    order: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]).describe('Order id or number.'),
    action: z.enum(['cancel', 'close', 'reopen', 'ship', 'attach_invoice']),
    reason: z.enum(CANCEL_REASONS).optional().describe('cancel: why.'),
    restock: z.boolean().optional().describe('cancel: return the items to stock (default true).'),
    tracking: z.string().optional().describe('ship: the carrier\'s tracking code.'),
    tracking_url: z.string().optional(),
    notify: z.boolean().optional().describe('ship: tell the customer.'),
    invoice_key: z.string().optional().describe('attach_invoice: the 44-digit access key.'),
    invoice_link: z.string().optional(),
  }),
  output: z.looseObject({ plan_id: z.string(), changes: z.array(z.looseObject({})) }),
  annotations: PLANS,
  async run(args, session, call) {
    const ref = Number(args.order);
    if (args.action === 'ship' || args.action === 'attach_invoice') {
      const planned = args.action === 'ship' ? await planShip(session.store.client, ref, args) : await planInvoice(session.store.client, ref, args);
      const plan = newPlan(session, call, { kind: 'order', tool: 'plan_order_action' }, { summary: planned.summary, changes: planned.changes, detail: planned.detail });
      await savePlan(session.options.env, plan);
      return planReply(plan, planned.extra);
    }
    const found = args.action === 'cancel' ? await orderToCancel(session.store.client, ref) : await orderToCloseOrReopen(session.store.client, ref, args.action === 'close' ? 'close' : 'open');
    const order = found.value;
    const after = args.action === 'cancel' ? 'cancelled' : args.action === 'close' ? 'closed' : 'open';
    const restock = args.restock ?? true;
    const plan = newPlan(session, call, { kind: 'order', tool: 'plan_order_action' }, {
      summary: `Order ${order.number ?? ''} (id ${order.id}) would be ${after === 'open' ? 'reopened' : after}${args.action === 'cancel' ? (restock ? ', its items returned to stock, the customer told' : ', the customer told') : ''}.${found.notice ? ` ${found.notice}` : ''}`,
      changes: [{ resource: 'order', key: String(order.number ?? order.id), field: 'status', before: order.status, after }],
      detail: { orderId: order.id, action: args.action, reason: args.reason ?? null, restock, before: { status: order.status, updated_at: order.updated_at ?? null } },
    });
    await savePlan(session.options.env, plan);
    return planReply(plan, { irreversible: args.action === 'cancel' ? 'A cancel is announced to the customer; reopening does not take it back.' : null });
  },
});

export const undoRun = tool({
  name: 'undo_run',
  toolset: 'runs',
  write: true,
  scopes: ['write_products', 'write_orders'],
  title: 'Plan the undo of a run',
  description: 'Plan putting back what a run of the ledger changed (list_runs): each field old → new, and what would be left and why. Writes nothing; apply_plan applies it.',
  input: z.object({ run: z.string().min(4).describe('Run id (or a unique start of it).') }),
  output: z.looseObject({ plan_id: z.string().nullable(), changes: z.array(z.looseObject({})), left: z.array(z.looseObject({})) }),
  annotations: PLANS,
  async run(args, session, call) {
    const summary = await undoPreview(session, call, args.run);
    const changes = undoChanges(summary);
    const left = summary.left.map((l) => ({ key: l.key, field: l.field, why: l.why }));
    if (changes.length === 0) {
      return { summary: `Undoing run ${summary.run.id} would change nothing; ${left.length} field(s) left (see left).`, data: { plan_id: null, changes: [], left } };
    }
    const plan = newPlan(session, call, { kind: 'undo', tool: 'undo_run' }, {
      summary: `Undoing run ${summary.run.id} (${summary.run.command}) would change ${changes.length} field(s)${left.length ? `, and leave ${left.length} (see left)` : ''}.`,
      changes,
      detail: { run: summary.run.id, fingerprint: undoFingerprint(summary) },
    });
    await savePlan(session.options.env, plan);
    return planReply(plan, { left });
  },
});

export const WRITE_TOOLS: ToolSpec[] = [planStockPrice, planCatalogRows, planOrderAction, undoRun, applyPlanTool];

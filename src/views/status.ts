import type { Order } from '../api/orders.js';
import { pickLocalized } from '../api/read.js';
import { type DetailSection, section } from '../cli/record-view.js';
import { type Column, plural } from '../output/format.js';
import type { LowStockVariant, RunSummary, StoreStatus } from '../services/status/status.js';
import { customerLabel, totalLabel } from './orders.js';

/**
 * `store status` on one screen: a line per store fact, then a short section each (the newest orders to ship, the
 * newest pending payments, the lowest stock, the last run of each command), each headed by its count and, when it
 * shows only some, the command that lists all. Headings stay under 80 columns and the columns are few and narrow,
 * so an 80-column terminal shows them whole.
 */

/** The columns of an order in a status section: number, age, customer, total, and one state. */
function orderColumns(state: 'shipping_status' | 'payment_status'): Column<Order>[] {
  return [
    { header: 'number', get: (o) => o.number, kind: 'id' },
    { header: 'id', get: (o) => o.id, kind: 'id', priority: 2 },
    { header: 'created_at', label: 'created', get: (o) => o.created_at, kind: 'time', priority: 1 },
    { header: 'customer', get: (o) => customerLabel(o), kind: 'text' },
    { header: state, label: state === 'shipping_status' ? 'shipping' : 'payment', get: (o) => o[state], kind: 'state', priority: 3 },
    { header: 'total', get: (o) => o.total ?? o.price, show: totalLabel, kind: 'money' },
  ];
}

/** "Camisa Oxford (M, Blanco)": the product's name and the variant's option values, in the store's language. */
function variantName(v: LowStockVariant): string {
  const values = v.values.map((value) => pickLocalized(value)).filter(Boolean);
  const name = pickLocalized(v.name);
  return values.length > 0 ? `${name} (${values.join(', ')})` : name;
}

const lowStockColumns: Column<LowStockVariant>[] = [
  { header: 'sku', get: (v) => v.sku ?? `variant ${v.variant_id}`, kind: 'id' },
  { header: 'name', get: variantName, kind: 'text' },
  { header: 'stock', get: (v) => v.stock, kind: 'count' },
];

function runResult(run: RunSummary): string {
  if (run.state === 'running') return 'running';
  if (run.state === 'died') return 'died';
  return `exit ${run.exit_code ?? '?'}`;
}

const runColumns: Column<RunSummary>[] = [
  { header: 'command', get: (r) => r.command, kind: 'text' },
  { header: 'started_at', label: 'started', get: (r) => r.started_at, kind: 'time' },
  { header: 'result', get: runResult, kind: 'state' },
  { header: 'changes', get: (r) => r.changes, kind: 'count', priority: 2 },
  { header: 'failed', get: (r) => r.failed + r.unknown, kind: 'count', priority: 1 },
  { header: 'run', get: (r) => r.run, kind: 'id', priority: 3 },
];

/** "Orders to ship: 25 orders (store orders list --to-ship)": the command that lists them all when more exist. */
function heading(title: string, count: string, more: boolean, command?: string): string {
  return `${title}: ${count}${more && command ? ` (${command})` : ''}`;
}

function countOf(total: number | undefined, shown: number, one: string): string {
  return total === undefined ? `${shown}+ ${one}s` : plural(total, one);
}

/** The lines above the sections. */
export function statusFields(status: StoreStatus, profile: string): [string, unknown][] {
  return [
    ['store', status.store_id],
    ['profile', profile],
  ];
}

export function statusSections(status: StoreStatus): DetailSection[] {
  const { to_ship: toShip, payments_pending: pending, low_stock: low, runs } = status;
  const toShipMore = toShip.total === undefined || toShip.total > toShip.orders.length;
  const pendingMore = pending.total === undefined || pending.total > pending.orders.length;
  const lowCount = `${low.variants.length}${low.complete ? '' : '+'} ${low.variants.length === 1 ? 'SKU' : 'SKUs'} at or below ${low.threshold}`;
  const lowShown = low.variants.slice(0, 5);
  const runsTitle = runs.problem ? `Last runs: ${runs.problem}` : `Last runs: ${plural(runs.runs.length, 'command')} in 30 days`;
  return [
    section(heading('Orders to ship', countOf(toShip.total, toShip.orders.length, 'order'), toShipMore, 'store orders list --to-ship'), toShip.orders, orderColumns('shipping_status')),
    section(
      heading('Payments pending', countOf(pending.total, pending.orders.length, 'order'), pendingMore, 'store orders list --payment-status pending'),
      pending.orders,
      orderColumns('payment_status'),
    ),
    section(heading('Low stock', lowCount, low.variants.length > lowShown.length, 'store status --json'), lowShown, lowStockColumns),
    section(runsTitle, runs.runs, runColumns),
  ];
}

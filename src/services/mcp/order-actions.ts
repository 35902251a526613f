import { StoppedBeforeWriting, UsageError } from '../../errors.js';
import type { Recorder } from '../../ledger/recorder.js';
import { attachInvoice, invoiceRequest, invoicesOfOrder } from '../invoices/invoices.js';
import { readInvoices } from '../orders/order-invoices.js';
import { type MoveRequest, planMoves, shippingRequest } from '../shipping/moves.js';
import { moveOrderShipments, orderWithShipments } from '../shipping/ship-order.js';
import type { PlannedChange } from './plan-store.js';

/**
 * The order actions of `plan_order_action` that go through the shipping and invoice services (`orders ship`,
 * `invoices attach`): what they would change, read from the store and kept with the plan, and the check at apply
 * time that the store still holds it before the same service writes.
 */

export interface ActionPlan {
  summary: string;
  changes: PlannedChange[];
  detail: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

export interface ShipInput {
  tracking?: string;
  tracking_url?: string;
  notify?: boolean;
}

/** `orders ship ORDER --tracking CODE`: each shipment that can be dispatched, its status old → DISPATCHED. */
export async function planShip(client: Parameters<typeof orderWithShipments>[0], ref: number, input: ShipInput): Promise<ActionPlan> {
  const request = shippingRequest({ action: 'ship', tracking: input.tracking, trackingUrl: input.tracking_url, notify: input.notify }, new Date(), {
    tracking: 'tracking',
    trackingUrl: 'tracking_url',
    at: 'at',
  });
  const found = await orderWithShipments(client, ref);
  const plan = planMoves(String(ref), found.shipments, request);
  if (plan.moves.length === 0) throw new UsageError(`No shipment of order ${found.order.number ?? found.orderId} can be dispatched: ${plan.skipped.map((s) => `${s.label} ${s.reason}`).join('; ')}.`);
  const key = String(found.order.number ?? found.orderId);
  return {
    summary: `Order ${key} (id ${found.orderId}): ${plan.moves.length} shipment(s) would be dispatched with tracking ${request.tracking!.code}${request.tracking!.notify ? ', the customer told' : ''}.${found.notice ? ` ${found.notice}` : ''}`,
    changes: plan.moves.map((m) => ({ resource: 'shipment', key: `${key} ${m.label}`, field: 'status', before: m.from, after: m.to })),
    detail: { orderId: found.orderId, action: 'ship', request, shipments: Object.fromEntries(plan.moves.map((m) => [m.shipment.id, m.from])) },
    extra: { skipped: plan.skipped.map((s) => ({ shipment: s.label, status: s.status, why: s.reason })) },
  };
}

export async function applyShip(client: Parameters<typeof orderWithShipments>[0], recorder: Recorder, detail: { orderId: number; request: MoveRequest; shipments: Record<string, string> }): Promise<string> {
  const found = await orderWithShipments(client, detail.orderId);
  const changed = Object.entries(detail.shipments).filter(([id, status]) => found.shipments.find((s) => s.id === id)?.status !== status);
  if (changed.length > 0) {
    throw new StoppedBeforeWriting(`Shipment ${changed.map(([id]) => id).join(', ')} of order ${found.order.number ?? found.orderId} changed since the plan was made; nothing was sent. Make the plan again.`);
  }
  const result = await moveOrderShipments(client, { order: detail.orderId, request: detail.request, shipments: Object.keys(detail.shipments).map((id) => ({ id })) }, recorder);
  return `Order ${found.order.number ?? found.orderId}: ${result.moved.length} shipment(s) dispatched.`;
}

export interface InvoiceInput {
  invoice_key?: string;
  invoice_link?: string;
}

/** `invoices attach ORDER --key --link`: the invoice added to the order's list (the others kept). */
export async function planInvoice(client: Parameters<typeof invoicesOfOrder>[0], ref: number, input: InvoiceInput): Promise<ActionPlan> {
  if (!input.invoice_key || !input.invoice_link) throw new UsageError('attach_invoice needs invoice_key (the 44-digit access key) and invoice_link (the invoice\'s URL).');
  const request = invoiceRequest({ orderId: String(ref), key: input.invoice_key, link: input.invoice_link }, { key: 'invoice_key', link: 'invoice_link', fulfillmentOrderId: 'fulfillment_order' });
  const found = await invoicesOfOrder(client, ref);
  const keys = found.value.invoices.map((i) => i.key);
  if (keys.includes(request.key)) throw new UsageError(`Order ${found.orderId} has the invoice ${request.key} already; nothing to plan.`);
  return {
    summary: `Order ${found.orderId}: the invoice ${request.key} would be attached (${keys.length} there now, kept).${found.notice ? ` ${found.notice}` : ''}`,
    changes: [{ resource: 'order', key: String(found.orderId), field: 'invoices', before: keys, after: [...keys, request.key] }],
    detail: { orderId: found.orderId, action: 'attach_invoice', key: request.key, link: request.link, before: keys },
  };
}

export async function applyInvoice(client: Parameters<typeof invoicesOfOrder>[0], recorder: Recorder, detail: { orderId: number; key: string; link: string; before: string[] }): Promise<string> {
  const now = (await readInvoices(client, detail.orderId)).invoices.map((i) => i.key);
  if (JSON.stringify(now) !== JSON.stringify(detail.before)) {
    throw new StoppedBeforeWriting(`The invoices of order ${detail.orderId} changed since the plan was made; nothing was sent. Make the plan again.`);
  }
  const result = await attachInvoice(client, recorder, { orderId: detail.orderId, key: detail.key, link: detail.link });
  return `Order ${detail.orderId}: invoice ${detail.key} ${result.attached ? 'attached' : 'was there already'}.`;
}

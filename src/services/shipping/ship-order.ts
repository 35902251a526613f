import { NotFoundError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { PartialFailureError, StoreError } from '../../errors.js';
import {
  createTrackingEvent,
  listFulfillmentOrders,
  updateFulfillmentOrder,
  type FulfillmentOrder,
  type FulfillmentOrderChange,
} from '../../api/fulfillment-orders.js';
import { getOrder, listOrdersPage, type Order } from '../../api/orders.js';
import type { FulfillmentOrderRef } from '../common/validate.js';
import { formatTimestamp } from '../common/validate.js';
import type { Recorder } from '../../ledger/recorder.js';
import { planMoves, type MoveRequest, type PlannedMove, type SkippedShipment } from './moves.js';

/**
 * `store orders pack|ship|deliver ORDER` and `store fulfillment-orders update ORDER FO` (docs/platform.md §10): the
 * order read once with its shipments inside (`aggregates=fulfillment_orders`), the moves decided before any write
 * (moves.ts), then one request per shipment moved — `PATCH /orders/{id}/fulfillment-orders/{fo}`, or for a delivery
 * the documented `delivered` tracking event. Never the deprecated `POST /orders/{id}/pack|fulfill`.
 */

/** An order as read for shipping: the record and its shipments. */
export interface OrderShipments {
  order: Order;
  orderId: number;
  shipments: FulfillmentOrder[];
  /** Set when ORDER was the number the customer sees: the sentence that says which order is used. */
  notice?: string;
}

/**
 * The order with this id or, when the store has none, with this number, and its shipments, in one request where
 * the store serves `aggregates` (two for a number: the 404, then the `q` search with the shipments inside); one
 * more, the shipments' list, where it does not.
 */
export async function orderWithShipments(client: StoreClient, idOrNumber: number): Promise<OrderShipments> {
  let order: Order;
  let notice: string | undefined;
  try {
    order = await getOrder(client, idOrNumber, { withShipments: true });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const { orders } = await listOrdersPage(client, { q: String(idOrNumber), aggregates: 'fulfillment_orders' }, 1, 50).catch(() => ({ orders: [] as Order[] }));
    const matches = orders.filter((o) => o.number === idOrNumber);
    if (matches.length !== 1) throw error;
    order = matches[0]!;
    notice = `Order number ${idOrNumber} is order ${order.id}.`;
  }
  const shipments = order.fulfillment_orders ?? (await listFulfillmentOrders(client, order.id));
  if (shipments.length === 0) throw new NoShipmentsYetError(order);
  return { order, orderId: order.id, shipments, ...(notice ? { notice } : {}) };
}

/** Right after checkout an order's shipments may still be missing (docs/platform.md §10): retry later (exit 1). */
export class NoShipmentsYetError extends StoreError {
  constructor(order: Order) {
    super(`Order #${order.number ?? '?'} (id ${order.id}) has no fulfillment orders yet; a store makes them shortly after checkout: try again in a minute.`, 1);
  }
}

/** A shipment moved, as the commands report it (and `--json` prints it). */
export interface MovedShipment {
  id: string;
  number?: string;
  from: string;
  to: string;
  /** `status`: a PATCH of the shipment; `tracking event`: a delivered tracking event. */
  by: 'status' | 'tracking event';
  tracking_code?: string;
  tracking_url?: string;
  tracking_event_id?: string;
}

export interface ShippingResult {
  order_id: number;
  order_number?: number;
  moved: MovedShipment[];
  skipped: { id: string; number?: string; status: string; reason: string }[];
}

export interface ShippingInput {
  /** ORDER as given: an id, or the number the customer sees. */
  order: number;
  request: MoveRequest;
  /** `--fulfillment-order`: the shipments to move (all that can, without it). */
  shipments?: FulfillmentOrderRef[];
}

/**
 * Moves the shipments of one order. Every refusal comes before the first write; a write the store refuses after
 * others were done ends with a partial failure (exit 3) that says what was done.
 */
export async function moveOrderShipments(
  client: StoreClient,
  input: ShippingInput,
  recorder: Recorder,
  options: { now?: () => Date; onNotice?: (sentence: string) => void } = {},
): Promise<ShippingResult> {
  const found = await orderWithShipments(client, input.order);
  if (found.notice) options.onNotice?.(found.notice);
  const plan = planMoves(String(input.order), found.shipments, input.request, input.shipments);
  const result: ShippingResult = {
    order_id: found.orderId,
    ...(found.order.number !== undefined ? { order_number: found.order.number } : {}),
    moved: [],
    skipped: plan.skipped.map(skippedRecord),
  };
  for (const move of plan.moves) {
    try {
      result.moved.push(await sendMove(client, recorder, found.orderId, found.order.number, move, input.request, options.now ?? (() => new Date())));
    } catch (error) {
      if (result.moved.length === 0 || !(error instanceof StoreError)) throw error;
      const done = result.moved.map((m) => `${m.number ?? m.id} ${m.to}`).join(', ');
      throw new PartialFailureError(`Shipment ${move.label} was not ${move.to}: ${error.message.replace(/\.$/, '')}; done before it: ${done}.`, [error]);
    }
  }
  return result;
}

export function skippedRecord(skip: SkippedShipment): ShippingResult['skipped'][number] {
  return { id: skip.shipment.id, ...(skip.shipment.number ? { number: String(skip.shipment.number) } : {}), status: skip.status, reason: skip.reason };
}

/** The one request that makes a planned move. */
/**
 * The one request that makes a planned move, on the run ledger first (docs/ledger.md): the shipment's status from
 * what was read to what is sent. Only a pack goes back (PACKED → UNPACKED); a dispatch or a delivery never does
 * (docs/platform.md §10), so undo lists it instead.
 */
export async function sendMove(
  client: StoreClient,
  recorder: Recorder,
  orderId: number,
  orderNumber: number | undefined,
  move: PlannedMove,
  request: MoveRequest,
  now: () => Date,
): Promise<MovedShipment> {
  const base = { id: move.shipment.id, ...(move.shipment.number ? { number: String(move.shipment.number) } : {}), from: move.from, to: move.to };
  const irreversible = move.to === 'PACKED' || move.to === 'UNPACKED' ? undefined : `a ${move.to} shipment never goes back (docs/platform.md §10)`;
  const write = recorder.intend([
    {
      resource: 'fulfillment-order',
      id: move.shipment.id,
      parent: orderId,
      key: base.number ?? (orderNumber !== undefined ? String(orderNumber) : null),
      field: 'status',
      kind: 'update',
      before: move.from,
      after: move.to,
      ...(irreversible ? { irreversible } : {}),
    },
  ]);
  if (move.by === 'event') {
    const event = await createTrackingEvent(client, orderId, move.shipment.id, {
      status: 'delivered',
      description: 'Delivered',
      happened_at: request.deliveredAt ?? formatTimestamp(now()),
    }, write);
    return { ...base, by: 'tracking event', tracking_event_id: String(event.id) };
  }
  const change: FulfillmentOrderChange = { status: move.to };
  if (move.to === 'DISPATCHED' && request.tracking) {
    change.tracking_info = {
      code: request.tracking.code,
      ...(request.tracking.url ? { url: request.tracking.url } : {}),
      notify_customer: request.tracking.notify,
    };
  }
  const answered = await updateFulfillmentOrder(client, orderId, move.shipment.id, change, write);
  return {
    ...base,
    by: 'status',
    ...(answered.tracking_info?.code ? { tracking_code: answered.tracking_info.code } : {}),
    ...(answered.tracking_info?.url ? { tracking_url: answered.tracking_info.url } : {}),
  };
}

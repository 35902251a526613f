import { UsageError } from '../../errors.js';
import { type FulfillmentOrder, fulfillmentShippingType, fulfillmentStatus, trackingCode } from '../../api/fulfillment-orders.js';
import {
  fulfillmentStage,
  moveRefusal,
  type FulfillmentStatus,
  type MoveRefusal,
  type ShippingType,
} from '../../platform/fulfillment.js';
import { parseDate, parseHttpUrl, type FulfillmentOrderRef } from '../common/validate.js';
import { commandTo, findShipment, noSuchShipment, shipmentLabel } from '../orders/fulfillment-orders.js';

/**
 * Which shipments (fulfillment orders) of an order a shipping command moves, decided from the order as read once,
 * before any write (docs/platform.md §10; the rules are platform/fulfillment.ts, shared with the sandbox):
 * every shipment that can make the move, or those `--fulfillment-order` names; the others are skipped with the
 * reason. A move the platform forbids is refused in one sentence naming the shipment's status and the command that
 * would get it there — for a shipment the user named, and when no shipment of the order can make the move.
 */

/** What a command asks of an order's shipments. */
export interface MoveRequest {
  to: FulfillmentStatus;
  /**
   * How DELIVERED is reached: `event` (orders deliver) by a `delivered` tracking event where the shipment takes
   * one — the documented way, `fulfilled_at` its time — and by status where it cannot (a pickup or non-shippable
   * shipment); `status` (the raw `fulfillment-orders update`) always by status.
   */
  delivery?: 'event' | 'status';
  /** Sent with DISPATCHED. */
  tracking?: { code: string; url?: string; notify: boolean };
  /** The delivered event's time (ISO 8601); only a delivery by event can carry it. */
  deliveredAt?: string;
}

/** One shipment to move, with the request that moves it. */
export interface PlannedMove {
  shipment: FulfillmentOrder;
  /** How the shipment is named to the user: its number (191-1), else its id. */
  label: string;
  from: string;
  to: FulfillmentStatus;
  by: 'status' | 'event';
}

export interface SkippedShipment {
  shipment: FulfillmentOrder;
  label: string;
  status: string;
  /** Why: "it is already PACKED", "a pickup shipment is collected, never dispatched". */
  reason: string;
}

export interface ShipmentPlan {
  moves: PlannedMove[];
  skipped: SkippedShipment[];
}

const VERBS: Record<FulfillmentStatus, string> = {
  UNPACKED: 'unpacked',
  PACKED: 'packed',
  DISPATCHED: 'dispatched',
  READY_FOR_PICKUP: 'made ready for pickup',
  DELIVERED: 'delivered',
};

/**
 * The moves for `request` on these shipments of the order the user named `order` (as given: an id or a number,
 * used in the commands a refusal suggests). `selection` names some shipments; without it, all of them are in
 * scope. Throws a UsageError, before any write, for a shipment the user named that cannot make the move, a
 * selection naming no shipment of the order, a delivery time for a shipment delivered by status, and when no
 * shipment can make the move because the platform forbids it.
 */
export function planMoves(order: string, shipments: readonly FulfillmentOrder[], request: MoveRequest, selection?: readonly FulfillmentOrderRef[]): ShipmentPlan {
  const inScope = selection && selection.length > 0 ? selected(order, shipments, selection) : [...shipments];
  const named = Boolean(selection && selection.length > 0);
  const plan: ShipmentPlan = { moves: [], skipped: [] };
  let firstForbidden: { shipment: FulfillmentOrder; refusal: MoveRefusal } | undefined;
  for (const shipment of inScope) {
    const status = fulfillmentStatus(shipment);
    const label = shipmentLabel(shipment);
    const refusal = moveRefusal(status, request.to, fulfillmentShippingType(shipment));
    if (refusal?.kind === 'forbidden') {
      if (named) throw new UsageError(refusalSentence(order, shipment, request.to, refusal));
      firstForbidden ??= { shipment, refusal };
    }
    if (refusal) {
      plan.skipped.push({ shipment, label, status, reason: refusal.kind === 'already' ? alreadyReason(shipment, status) : refusal.reason });
      continue;
    }
    plan.moves.push({ shipment, label, from: status, to: request.to, by: deliveryBy(shipment, request) });
  }
  if (plan.moves.length === 0 && firstForbidden) throw new UsageError(refusalSentence(order, firstForbidden.shipment, request.to, firstForbidden.refusal));
  const byStatus = plan.moves.find((m) => m.to === 'DELIVERED' && m.by === 'status');
  if (request.deliveredAt !== undefined && byStatus) {
    throw new UsageError(
      `--at needs a delivered tracking event, which only a dispatched shipment takes; shipment ${byStatus.label} is ${byStatus.from} and is delivered by its status, at the time the store records: leave out --at${plan.moves.length > 1 ? ' or pick the dispatched shipments with --fulfillment-order' : ''}.`,
    );
  }
  return plan;
}

function selected(order: string, shipments: readonly FulfillmentOrder[], selection: readonly FulfillmentOrderRef[]): FulfillmentOrder[] {
  const picked: FulfillmentOrder[] = [];
  for (const ref of selection) {
    const shipment = findShipment(shipments, ref);
    if (!shipment) throw new UsageError(noSuchShipment(order, ref, shipments));
    if (!picked.includes(shipment)) picked.push(shipment);
  }
  return picked;
}

function deliveryBy(shipment: FulfillmentOrder, request: MoveRequest): 'status' | 'event' {
  if (request.to !== 'DELIVERED' || request.delivery !== 'event') return 'status';
  return fulfillmentStage(fulfillmentStatus(shipment)) === 'dispatched' ? 'event' : 'status';
}

function alreadyReason(shipment: FulfillmentOrder, status: string): string {
  const code = trackingCode(shipment);
  return `it is already ${status}${code && fulfillmentStage(status) !== 'unpacked' ? ` (tracking ${code})` : ''}`;
}

/**
 * "Shipment 191-1 (PACKED) cannot be delivered: a ship shipment is delivered once DISPATCHED; `store orders ship
 * 191 --fulfillment-order 191-1 --tracking CODE` dispatches it first." — the status, the rule, and the command
 * that would get there when one does.
 */
export function refusalSentence(order: string, shipment: FulfillmentOrder, to: FulfillmentStatus, refusal: MoveRefusal): string {
  const label = shipmentLabel(shipment);
  const type = fulfillmentShippingType(shipment);
  const hint = commandHint(order, label, type, to, refusal.after);
  return `Shipment ${label} of order ${order} (${fulfillmentStatus(shipment)}) cannot be ${VERBS[to]}: ${refusal.reason}${hint ? `; ${hint}` : ''}.`;
}

function commandHint(order: string, label: string, type: ShippingType, to: FulfillmentStatus, after: FulfillmentStatus | undefined): string | undefined {
  if (after === 'DISPATCHED') return `${commandTo(order, label, after)} dispatches it first`;
  if (after === 'READY_FOR_PICKUP') return `${commandTo(order, label, after)} makes it ready first`;
  if (after) return `run ${commandTo(order, label, after)} first`;
  if (type === 'pickup' && to === 'DISPATCHED') return `${commandTo(order, label, 'READY_FOR_PICKUP')} makes it ready to collect, then \`store orders deliver ${order}\``;
  return undefined;
}

/** What a shipping command is asked, as its flags give it (checked by `shippingRequest` before any request). */
export interface ShippingFlags {
  /** `pack`, `ship`, `deliver`, or the raw form's status (`packed`, `dispatched`, `ready-for-pickup`, `delivered`, `unpacked`). */
  action: ShippingAction;
  tracking?: string;
  trackingUrl?: string;
  notify?: boolean;
  /** `orders deliver --at`: when it was delivered. */
  at?: string;
}

export const RAW_STATUSES = ['packed', 'dispatched', 'ready-for-pickup', 'delivered', 'unpacked'] as const;
export type ShippingAction = 'pack' | 'ship' | 'deliver' | (typeof RAW_STATUSES)[number];

const RAW_TO: Record<(typeof RAW_STATUSES)[number], FulfillmentStatus> = {
  packed: 'PACKED',
  dispatched: 'DISPATCHED',
  'ready-for-pickup': 'READY_FOR_PICKUP',
  delivered: 'DELIVERED',
  unpacked: 'UNPACKED',
};

/** The longest tracking code taken: a carrier's codes are short; anything longer is a pasted URL or a mistake. */
export const TRACKING_CODE_MAX = 100;

/** The request the flags ask for; a UsageError naming the flag when one is wrong. `names` says how the input was given (flags, or a file's columns). */
export function shippingRequest(
  flags: ShippingFlags,
  now: Date = new Date(),
  names: { tracking: string; trackingUrl: string; at: string } = { tracking: '--tracking', trackingUrl: '--tracking-url', at: '--at' },
): MoveRequest {
  const to = flags.action === 'pack' ? 'PACKED' : flags.action === 'ship' ? 'DISPATCHED' : flags.action === 'deliver' ? 'DELIVERED' : RAW_TO[flags.action];
  const request: MoveRequest = { to, delivery: flags.action === 'deliver' ? 'event' : 'status' };
  const tracking = flags.tracking?.trim();
  if (to !== 'DISPATCHED' && (tracking !== undefined || flags.trackingUrl !== undefined)) {
    throw new UsageError(`${names.tracking} goes with a dispatch (store orders ship, or --status dispatched): a shipment's tracking code is given when it leaves.`);
  }
  if (flags.action === 'ship' && !tracking) throw new UsageError(`${names.tracking} is required: the carrier's tracking code of the shipment (e.g. ${names.tracking} BR123456789AA).`);
  if (tracking !== undefined) {
    if (tracking === '') throw new UsageError(`${names.tracking} is empty; give the carrier's tracking code.`);
    if (tracking.length > TRACKING_CODE_MAX || /\s/.test(tracking)) {
      throw new UsageError(`${names.tracking} "${flags.tracking}" is not a tracking code: one word of at most ${TRACKING_CODE_MAX} characters (a URL goes in ${names.trackingUrl}).`);
    }
    const url = flags.trackingUrl === undefined || flags.trackingUrl.trim() === '' ? undefined : parseHttpUrl(names.trackingUrl, flags.trackingUrl, 'https://tracking.example.com/BR123456789AA');
    request.tracking = { code: tracking, ...(url ? { url } : {}), notify: flags.notify === true };
  } else if (flags.trackingUrl !== undefined) {
    throw new UsageError(`${names.trackingUrl} needs ${names.tracking}: the URL where the customer follows that code.`);
  }
  if (flags.at !== undefined) {
    if (flags.action !== 'deliver') throw new UsageError(`${names.at} goes with store orders deliver: the time a delivered tracking event records.`);
    request.deliveredAt = parseDate(names.at, flags.at, now);
  }
  return request;
}

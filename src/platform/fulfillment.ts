/**
 * Shipping facts of docs/platform.md §10, shared by the client (which refuses a forbidden move before any request)
 * and the sandbox (which answers it with the platform's 400): the fulfillment-order (FO) statuses, the moves
 * between them, when tracking events are taken, and the order's `shipping_status` that follows its FOs.
 * Dependency-free, so command modules can name the statuses in their help.
 *
 * The platform states the rules in text and draws the full graph only as images. What the text states is kept
 * exactly (READY_FOR_PICKUP only for pickup; non-shippable only to DELIVERED; back to UNPACKED only from PACKED;
 * never back once DISPATCHED); where it is silent we read the drawing's solid lines and keep the dotted ones
 * that the text names (docs/platform.md "Shipping"):
 *
 *   ship           UNPACKED → PACKED | DISPATCHED;  PACKED → UNPACKED | DISPATCHED;  DISPATCHED → DELIVERED
 *   pickup         UNPACKED → PACKED | READY_FOR_PICKUP;  PACKED → UNPACKED | READY_FOR_PICKUP;
 *                  READY_FOR_PICKUP → DELIVERED  (a pickup shipment is collected, never dispatched)
 *   non-shippable  UNPACKED → DELIVERED
 *
 * DELIVERED is final. Delivery of a dispatched shipment is preferably a `delivered` tracking event (which sets
 * `fulfilled_at` to its `happened_at`); a PATCH to DELIVERED sets it to now.
 */

/** The FO statuses a request may send. */
export const FULFILLMENT_STATUSES = ['UNPACKED', 'PACKED', 'DISPATCHED', 'READY_FOR_PICKUP', 'DELIVERED'] as const;
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

/** Statuses older stores still hold (deprecated, or only in examples): read them, never send them. */
export const OLDER_FULFILLMENT_STATUSES = ['MARKED_AS_FULFILLED', 'READY_FOR_SHIP', 'PENDING'] as const;

/** `shipping.type` of an FO; an absent or unknown one is read as `ship`. */
export const SHIPPING_TYPES = ['ship', 'pickup', 'non-shippable'] as const;
export type ShippingType = (typeof SHIPPING_TYPES)[number];

export function isFulfillmentStatus(value: string): value is FulfillmentStatus {
  return (FULFILLMENT_STATUSES as readonly string[]).includes(value);
}

/** Stores send the type in either case (`SHIP`, `pickup`); anything else is `ship`. */
export function shippingTypeOf(type: unknown): ShippingType {
  const name = typeof type === 'string' ? type.toLowerCase() : '';
  return name === 'pickup' || name === 'non-shippable' ? name : 'ship';
}

/** How far a shipment has gone, whatever its status is called; undefined for a status nobody documented. */
export type FulfillmentStage = 'unpacked' | 'packed' | 'dispatched' | 'delivered';

export function fulfillmentStage(status: string): FulfillmentStage | undefined {
  switch (status.toUpperCase()) {
    case 'UNPACKED':
    case 'PENDING':
      return 'unpacked';
    case 'PACKED':
    case 'READY_FOR_SHIP':
    // Ready at the store for the customer to collect: packed, not on its way.
    case 'READY_FOR_PICKUP':
      return 'packed';
    case 'DISPATCHED':
      return 'dispatched';
    case 'DELIVERED':
    case 'MARKED_AS_FULFILLED':
      return 'delivered';
    default:
      return undefined;
  }
}

const NEXT: Record<ShippingType, Partial<Record<FulfillmentStatus, readonly FulfillmentStatus[]>>> = {
  ship: { UNPACKED: ['PACKED', 'DISPATCHED'], PACKED: ['UNPACKED', 'DISPATCHED'], DISPATCHED: ['DELIVERED'] },
  // DISPATCHED is not a pickup status here; a pickup shipment an older store dispatched can still be delivered.
  pickup: {
    UNPACKED: ['PACKED', 'READY_FOR_PICKUP'],
    PACKED: ['UNPACKED', 'READY_FOR_PICKUP'],
    READY_FOR_PICKUP: ['DELIVERED'],
    DISPATCHED: ['DELIVERED'],
  },
  'non-shippable': { UNPACKED: ['DELIVERED'] },
};

/** Why a move is refused, and the status that would have to come first (when one would make it possible). */
export interface MoveRefusal {
  /** `already`: the FO is in that status; `forbidden`: the platform refuses the move. */
  kind: 'already' | 'forbidden';
  /** A clause for a sentence that already names the current status: "a pickup shipment is collected, never dispatched". */
  reason: string;
  /** The status the FO must reach first, when the move becomes possible from there. */
  after?: FulfillmentStatus;
}

/**
 * Whether an FO in `from` may move to `to`. Undefined: allowed, or `from` is a status nobody documented (the
 * store decides). The sandbox answers a refusal with the platform's 400; the client refuses before any request.
 */
export function moveRefusal(from: string, to: FulfillmentStatus, type: ShippingType): MoveRefusal | undefined {
  const current = from.toUpperCase();
  if (current === to) return { kind: 'already', reason: `it is already ${to}` };
  if (!isFulfillmentStatus(current)) return undefined;
  if ((NEXT[type][current] ?? []).includes(to)) return undefined;
  const refuse = (reason: string, after?: FulfillmentStatus): MoveRefusal => ({ kind: 'forbidden', reason, ...(after ? { after } : {}) });
  if (current === 'DELIVERED') return refuse('DELIVERED is final');
  if (to === 'READY_FOR_PICKUP' && type !== 'pickup') return refuse(`only a pickup shipment is made ready for pickup; this one is ${type}`);
  if (type === 'non-shippable') return refuse('a non-shippable shipment only goes to DELIVERED');
  if (to === 'DISPATCHED' && type === 'pickup') return refuse('a pickup shipment is collected, never dispatched');
  if (to === 'UNPACKED') return refuse('only a PACKED shipment goes back to UNPACKED');
  if (current === 'DISPATCHED' || current === 'READY_FOR_PICKUP') return refuse(`a ${current} shipment never goes back`);
  if (to === 'DELIVERED') {
    const after = type === 'pickup' ? 'READY_FOR_PICKUP' : 'DISPATCHED';
    return refuse(`a ${type} shipment is delivered once ${after}`, after);
  }
  return refuse(`a ${type} shipment does not go from ${current} to ${to}`);
}

/** The statuses that would take an FO of this type to `to`, in the order a shipment passes them. */
export function allowedFrom(to: FulfillmentStatus, type: ShippingType): FulfillmentStatus[] {
  return FULFILLMENT_STATUSES.filter((from) => (NEXT[type][from] ?? []).includes(to));
}

/** platform.md §10: at most this many tracking events per FO. */
export const TRACKING_EVENT_LIMIT = 100;
/** Identical events with `happened_at` this close (seconds) are one event told twice. */
export const IDENTICAL_EVENT_WINDOW_SECONDS = 60;

/** The messages the platform answers tracking-event refusals with (400 `{description, message}`). */
export const TRACKING_LIMIT_MESSAGE = 'Tracking events has reached the limit';
export const IDENTICAL_EVENT_MESSAGE = 'The tracking event must not be identical to an existing tracking event';

/**
 * Why an FO in `status` takes no tracking-event request of this kind (undefined: it takes it): a POST needs a
 * dispatched shipment (DISPATCHED, or DELIVERED for a late event); a PUT or DELETE needs DISPATCHED and not DELIVERED.
 */
export function trackingRefusal(status: string, request: 'create' | 'change'): string | undefined {
  const current = status.toUpperCase();
  const stage = fulfillmentStage(current);
  if (stage === undefined) return undefined;
  if (request === 'create' && (stage === 'dispatched' || stage === 'delivered')) return undefined;
  if (request === 'change' && stage === 'dispatched') return undefined;
  if (request === 'change' && stage === 'delivered') return `a ${current} shipment's tracking events no longer change`;
  return `tracking events start once a shipment is DISPATCHED; it is ${current}`;
}

/**
 * The order's `shipping_status` as it follows its FOs (platform.md §10): `unpacked` (none packed),
 * `partially_packed`, `packed` (all packed, none dispatched), `partially_fulfilled` (at least one dispatched),
 * `fulfilled` (all dispatched). A delivered FO counts as dispatched; a pickup FO ready to collect as packed.
 * Undefined without FOs (the order's own value stands).
 */
export function orderShippingStatus(statuses: readonly string[]): OrderShippingStatus | undefined {
  if (statuses.length === 0) return undefined;
  const stages = statuses.map((s) => fulfillmentStage(s) ?? 'unpacked');
  const dispatched = stages.filter((s) => s === 'dispatched' || s === 'delivered').length;
  if (dispatched === stages.length) return 'fulfilled';
  if (dispatched > 0) return 'partially_fulfilled';
  const packed = stages.filter((s) => s === 'packed').length;
  if (packed === stages.length) return 'packed';
  return packed > 0 ? 'partially_packed' : 'unpacked';
}

/** What the sandbox derives for an order with FOs. */
export const DERIVED_SHIPPING_STATUSES = ['unpacked', 'partially_packed', 'packed', 'partially_fulfilled', 'fulfilled'] as const;
export type OrderShippingStatus = (typeof DERIVED_SHIPPING_STATUSES)[number];

/**
 * The documented tracking event statuses (docs/platform.md §5; they replace docs/api-rules.md §5.15's six). A module
 * of its own, without zod, so that command flag definitions can name them without loading the schemas, and
 * shared by the client and the sandbox (src/platform/ holds facts about the platform that both use).
 */
export const TRACKING_STATUSES = [
  'dispatched',
  'received_by_post_office',
  'in_transit',
  'out_for_delivery',
  'delivery_attempt_failed',
  'delayed',
  'ready_for_pickup',
  'delivered',
  'returned_to_sender',
  'lost',
  'failure',
] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

/** A shipping partner's own status (docs/platform.md §10): `custom_` and a lower-case name, `custom_at_customs`. */
export const CUSTOM_TRACKING_STATUS = /^custom_[a-z0-9]+(?:_[a-z0-9]+)*$/;

/** One of the documented statuses or a `custom_{status}`. */
export function isTrackingStatus(value: string): boolean {
  return (TRACKING_STATUSES as readonly string[]).includes(value) || CUSTOM_TRACKING_STATUS.test(value);
}

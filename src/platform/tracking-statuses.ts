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

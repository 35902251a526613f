/**
 * The fields `--json FIELDS` may name on commands that change something, checked before the change is sent
 * (a typo must not cost a created record and an exit 2). They are the fields the resource's schema reads; the
 * schema modules (and zod) load only when --json FIELDS is given. Commands that only read check the field
 * names against the records they print instead (BaseCommand), which also admits fields a schema passes through.
 */
type FieldsOf = () => Promise<readonly string[]>;

const keys = (schema: { shape: object }) => Object.keys(schema.shape);

export const jsonFields = {
  category: (async () => keys((await import('./categories.js')).CategorySchema)) as FieldsOf,
  customField: (async () => keys((await import('./custom-fields.js')).CustomFieldSchema)) as FieldsOf,
  location: (async () => keys((await import('./locations.js')).LocationSchema)) as FieldsOf,
  order: (async () => keys((await import('./orders.js')).OrderSchema)) as FieldsOf,
  product: (async () => keys((await import('./products.js')).ProductSchema)) as FieldsOf,
  productImage: (async () => keys((await import('./products.js')).ProductImageSchema)) as FieldsOf,
  trackingEvent: (async () => keys((await import('./fulfillment-orders.js')).TrackingEventSchema)) as FieldsOf,
  variant: (async () => keys((await import('./variants.js')).VariantSchema)) as FieldsOf,
  webhook: (async () => keys((await import('./webhooks.js')).WebhookSchema)) as FieldsOf,
  /** What a delete command prints: the id it deleted. */
  deleted: (async () => ['id', 'deleted', 'product_id']) as FieldsOf,
};

/**
 * Where an order's invoices live (docs/platform.md §6): metafields of the order in namespace `nfe`. Key `list` holds
 * a JSON array of `{key, link, fulfillment_order_id?}`; stores that used other apps hold the older form, a pair
 * of metafields with keys `key` (the access key) and `link` (its URL).
 */
export const INVOICE_NAMESPACE = 'nfe';
export const INVOICE_LIST_KEY = 'list';
export const INVOICE_PAIR_KEYS = { key: 'key', link: 'link' } as const;

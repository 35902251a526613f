import type { Column } from '../output/format.js';
import type { ShownInvoice } from '../services/orders/order-invoices.js';

/** `invoices list` and the Invoices section of `orders get`: both kinds, marked in the kind column. */
export const invoiceColumns: Column<ShownInvoice>[] = [
  { header: 'kind', get: (i) => i.kind, kind: 'id' },
  { header: 'key', get: (i) => i.key, kind: 'id' },
  { header: 'link', get: (i) => i.link, kind: 'text', priority: 1 },
  { header: 'fulfillment_order_id', label: 'fulfillment order', get: (i) => i.fulfillment_order_id, kind: 'id', priority: 2 },
];

import type { Column } from '../output/format.js';
import type { ShownInvoice } from '../services/invoices.js';

/** `invoices list` and the Invoices section of `orders get`: both kinds, marked in the kind column. */
export const invoiceColumns: Column<ShownInvoice>[] = [
  { header: 'kind', get: (i) => i.kind },
  { header: 'key', get: (i) => i.key },
  { header: 'link', get: (i) => i.link },
  { header: 'fulfillment_order_id', get: (i) => i.fulfillment_order_id },
];

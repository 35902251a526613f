import { type Column, fieldColumns } from '../output/format.js';
import type { ShownInvoice } from '../services/invoices.js';

/** `invoices list` and the Invoices section of `orders get`: both kinds, marked in the kind column. */
export const invoiceColumns: Column<ShownInvoice>[] = [
  ...fieldColumns<ShownInvoice>('kind', 'key', 'link', 'fulfillment_order_id'),
];

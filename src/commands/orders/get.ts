import { Args } from '@oclif/core';
import { BaseCommand, section } from '../../base-command.js';
import type { OrderDetails } from '../../services/orders.js';

export default class OrdersGet extends BaseCommand<typeof OrdersGet> {
  static summary = 'Show an order: items, shipping, payments, fulfillment orders and invoices.';
  static examples = ['<%= config.bin %> orders get 1000000123', '<%= config.bin %> orders get 1000000123 --json'];

  static enableJsonFlag = true;

  static args = {
    id: Args.string({ description: 'Order id (10 digits; not the number the customer sees).', required: true }),
  };

  async run(): Promise<OrderDetails> {
    const { parseOrderId } = await import('../../services/validate.js');
    const id = parseOrderId(this.args.id);
    const client = await this.client();
    const { orderDetails, customerLabel, totalLabel } = await import('../../services/orders.js');
    const { fulfillmentOrderRow } = await import('../../services/fulfillment-orders.js');
    const details = await orderDetails(client, id);
    if (this.jsonEnabled()) return details;

    const { order, fulfillment_orders: fos, invoices } = details;
    await this.renderDetail(
      [
        ['id', order.id],
        ['number', order.number],
        ['status', order.status],
        ['created', order.created_at],
        ['updated', order.updated_at],
        ...(order.cancelled_at ? ([['cancelled', order.cancelled_at]] as [string, unknown][]) : []),
        ['customer', customerLabel(order)],
        ...(order.customer?.phone ? ([['phone', order.customer.phone]] as [string, unknown][]) : []),
        ['note', order.owner_note ?? ''],
        ['shipping', order.shipping ? `${order.shipping.method ?? ''} ${order.shipping.cost ?? ''}`.trim() : ''],
        ['subtotal', order.subtotal],
        ['total', totalLabel(order)],
      ],
      [
        section('Items', order.products, [
          { header: 'variant', get: (p) => p.variant_id },
          { header: 'sku', get: (p) => p.sku },
          { header: 'name', get: (p) => p.name },
          { header: 'quantity', get: (p) => p.quantity },
          { header: 'price', get: (p) => p.price },
        ]),
        section('Payments', order.payments, [
          { header: 'method', get: (p) => p.method },
          { header: 'amount', get: (p) => p.amount },
          { header: 'status', get: (p) => p.status },
        ]),
        section('Fulfillment orders', fos.map((fo) => fulfillmentOrderRow(fo)), [
          { header: 'id', get: (fo) => fo.id },
          { header: 'status', get: (fo) => fo.status },
          { header: 'location', get: (fo) => fo.location },
          { header: 'items', get: (fo) => fo.items },
          { header: 'tracking', get: (fo) => fo.tracking },
          { header: 'last event', get: (fo) => fo.last_event },
        ]),
        section('Invoices', invoices, [
          { header: 'kind', get: (i) => i.kind },
          { header: 'key', get: (i) => i.key },
          { header: 'link', get: (i) => i.link },
          { header: 'fulfillment order', get: (i) => i.fulfillment_order_id },
        ]),
      ],
    );
    return details;
  }
}

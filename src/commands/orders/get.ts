import { Args } from '@oclif/core';
import { BaseCommand, section } from '../../base-command.js';
import type { OrderDetails } from '../../services/orders.js';

export default class OrdersGet extends BaseCommand<typeof OrdersGet> {
  static summary = 'Show an order: payment, shipping, items, fulfillment orders and invoices.';
  static description = 'Takes the order id. A number the store does not know as an id is looked up as the number the customer sees; the command then says on stderr which order it shows.';
  static examples = ['<%= config.bin %> orders get 450000123', '<%= config.bin %> orders get 182', '<%= config.bin %> orders get 450000123 --json'];

  static enableJsonFlag = true;

  static args = {
    id: Args.string({ description: 'Order id (or the number the customer sees).', required: true }),
  };

  async run(): Promise<OrderDetails> {
    const { parseOrderId } = await import('../../services/validate.js');
    const id = parseOrderId(this.args.id);
    const client = await this.client();
    const { orderDetailsByIdOrNumber, orderRecordFields, orderItemColumns } = await import('../../services/orders.js');
    const { fulfillmentOrderRow } = await import('../../services/fulfillment-orders.js');
    const { value: details, notice } = await orderDetailsByIdOrNumber(client, id);
    if (notice) this.note(notice);
    if (this.jsonEnabled()) return details;

    const { order, fulfillment_orders: fos, invoices } = details;
    await this.renderDetail(orderRecordFields(order), [
      section('Items', order.products, orderItemColumns),
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
    ]);
    return details;
  }
}

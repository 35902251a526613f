import { Args, Flags } from '@oclif/core';
import type { Order, OrderStatus } from '../../api/orders.js';
import { BaseCommand } from '../../base-command.js';
import { jsonFields } from '../../api/json-fields.js';

export default class OrdersUpdate extends BaseCommand<typeof OrdersUpdate> {
  static summary = "Change an order's note or status.";
  static description = 'To cancel an order use `store orders cancel`: it asks first and can return the stock.';
  static examples = [
    '<%= config.bin %> orders update 1000000123 --status paid',
    '<%= config.bin %> orders update 1000000123 --note "Gift wrap, deliver after 5 pm"',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.order;

  static args = {
    id: Args.string({ description: 'Order id (10 digits; not the number the customer sees).', required: true }),
  };

  static flags = {
    note: Flags.string({ description: "The store owner's note on the order (replaces the current one; \"\" clears it)." }),
    status: Flags.string({ description: 'New status.', options: ['open', 'paid', 'closed', 'cancelled'] }),
  };

  async run(): Promise<Order> {
    const { parseOrderId } = await import('../../services/validate.js');
    const id = parseOrderId(this.args.id);
    const { updateOrderFields, totalLabel } = await import('../../services/orders.js');
    const client = await this.client();
    const order = await updateOrderFields(client, id, { note: this.flags.note, status: this.flags.status as OrderStatus | undefined });
    if (!this.jsonEnabled()) {
      const { renderRecord } = await import('../../output/render.js');
      renderRecord(
        [
          ['id', order.id],
          ['number', order.number],
          ['status', order.status],
          ['note', order.owner_note ?? ''],
          ['total', totalLabel(order)],
          ['updated', order.updated_at],
        ],
        (text) => process.stdout.write(text),
      );
    }
    return order;
  }
}

import { Flags } from '@oclif/core';
import type { Order } from '../../api/orders.js';
import type { CancelReason } from '../../platform/orders.js';
import { BaseCommand } from '../../cli/base-command.js';
import { yesFlag } from '../../flags/common.js';
import { cancelReasonFlag, orderLookupArg } from '../../flags/orders.js';
import { jsonFields } from '../../api/json-fields.js';

export default class OrdersCancel extends BaseCommand<typeof OrdersCancel> {
  static summary = 'Cancel an order and return its items to stock.';
  static description = `The items go back to the locations they were taken from, unless --no-restock. Asks for confirmation on a terminal; without one, pass --yes. A number the store does not know as an id is looked up as the number the customer sees; the command says on stderr which order it cancels before it asks.`;

  static examples = [
    '<%= config.bin %> orders cancel 450000123',
    '<%= config.bin %> orders cancel 450000123 --reason fraud --no-restock --yes',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.order;

  static args = {
    id: orderLookupArg,
  };

  static flags = {
    reason: cancelReasonFlag,
    restock: Flags.boolean({ description: 'Return the items to stock (default); --no-restock keeps the stock as it is.', default: true, allowNo: true }),
    yes: yesFlag,
  };

  async run(): Promise<Order | undefined> {
    const { parseOrderId } = await import('../../services/common/validate.js');
    const { confirmThenAct } = await import('../../cli/confirm.js');
    const id = parseOrderId(this.args.id);
    const { orderToCancel, cancelFoundOrder } = await import('../../services/orders/orders.js');
    const { totalLabel } = await import('../../views/orders.js');
    const client = await this.client();
    const { value: order, notice } = await orderToCancel(client, id);
    if (notice) this.note(notice);
    const items = order.products.reduce((n, p) => n + p.quantity, 0);
    const stock = this.flags.restock ? `return ${items} item${items === 1 ? '' : 's'} to stock` : 'keep the stock as it is';
    const state = [order.status, order.payment_status].filter(Boolean).join(', ');
    return confirmThenAct({
      yes: this.flags.yes,
      message: `Cancel order #${order.number ?? '?'} (id ${order.id}, ${totalLabel(order)}, ${state}) and ${stock}?`,
      action: `Cancelling order ${order.id}`,
      nothingDone: 'Nothing changed.',
      declined: () => undefined,
      act: async () => {
        const cancelled = await cancelFoundOrder(client, await this.recorder(), order, { reason: this.flags.reason as CancelReason | undefined, restock: this.flags.restock });
        if (!this.jsonEnabled()) {
          this.note(`Cancelled order #${cancelled.number ?? '?'} (id ${cancelled.id})${this.flags.restock ? `; ${items} item${items === 1 ? '' : 's'} returned to stock` : '; stock unchanged'}.`);
        }
        return cancelled;
      },
    });
  }
}

import type { Order } from '../../api/orders.js';
import { BaseCommand } from '../../cli/base-command.js';
import { yesFlag } from '../../flags/common.js';
import { orderLookupArg } from '../../flags/orders.js';
import { jsonFields } from '../../api/json-fields.js';

export default class OrdersClose extends BaseCommand<typeof OrdersClose> {
  static summary = 'Close (archive) an order: it is done.';
  static description = `The order's payment and shipping states are kept; \`store orders reopen\` opens it again. A cancelled order is not closed (reopen it first). Asks for confirmation on a terminal; without one, pass --yes. A number the store does not know as an id is looked up as the number the customer sees; the command says on stderr which order it closes before it asks.`;

  static examples = ['<%= config.bin %> orders close 450000123', '<%= config.bin %> orders close 182 --yes --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.order;

  static args = {
    id: orderLookupArg,
  };

  static flags = {
    yes: yesFlag,
  };

  /** POST /orders/{id}/close or /open. */
  protected readonly action: 'close' | 'open' = 'close';

  async run(): Promise<Order | undefined> {
    const { parseOrderId } = await import('../../services/common/validate.js');
    const { confirmThenAct } = await import('../../cli/confirm.js');
    const id = parseOrderId(this.args.id);
    const { orderToCloseOrReopen, closeOrReopenFoundOrder } = await import('../../services/orders/orders.js');
    const { totalLabel } = await import('../../views/orders.js');
    const client = await this.client();
    const { value: order, notice } = await orderToCloseOrReopen(client, id, this.action);
    if (notice) this.note(notice);
    const verb = this.action === 'close' ? 'Close' : 'Reopen';
    const state = [order.status, order.payment_status, order.shipping_status].filter(Boolean).join(', ');
    return confirmThenAct({
      yes: this.flags.yes,
      message: `${verb} order #${order.number ?? '?'} (id ${order.id}, ${totalLabel(order)}, ${state})?`,
      action: `${this.action === 'close' ? 'Closing' : 'Reopening'} order ${order.id}`,
      nothingDone: 'Nothing changed.',
      declined: () => undefined,
      act: async () => {
        const changed = await closeOrReopenFoundOrder(client, await this.recorder(), order, this.action);
        if (!this.jsonEnabled()) this.note(`${this.action === 'close' ? 'Closed' : 'Reopened'} order #${changed.number ?? '?'} (id ${changed.id}); it is ${changed.status ?? 'changed'}.`);
        return changed;
      },
    });
  }
}

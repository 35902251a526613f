import { Flags } from '@oclif/core';
import type { Order } from '../../api/orders.js';
import type { OrderStatus } from '../../platform/orders.js';
import { BaseCommand } from '../../cli/base-command.js';
import { asksToCancel, orderLookupArg, orderStatusFlag } from '../../flags/orders.js';
import { jsonFields } from '../../api/json-fields.js';

export default class OrdersUpdate extends BaseCommand<typeof OrdersUpdate> {
  static summary = "Change an order's note, status or customer details.";
  static description =
    'To cancel an order use `store orders cancel`: it asks first and can return the stock. --status paid marks the payment received (the order stays open). A number the store does not know as an id is looked up as the number the customer sees; the command says on stderr which order it updates. The order is read first (one GET), so the run ledger keeps the note, status or customer the update replaces.';
  static examples = [
    '<%= config.bin %> orders update 450000123 --status closed',
    '<%= config.bin %> orders update 450000123 --note "Gift wrap, deliver after 5 pm"',
    '<%= config.bin %> orders update 450000123 --customer-email ana.lima@example.com --customer-phone "+54 11 5555-0101"',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.order;

  static args = {
    id: orderLookupArg,
  };

  static flags = {
    note: Flags.string({ description: "The store owner's note on the order (replaces the current one; \"\" clears it)." }),
    status: orderStatusFlag,
    'customer-name': Flags.string({ description: "The customer's name." }),
    'customer-email': Flags.string({ description: "The customer's email address." }),
    'customer-phone': Flags.string({ description: "The customer's phone number." }),
  };

  public override async init(): Promise<void> {
    if (asksToCancel(this.argv)) {
      const { UsageError } = await import('../../errors.js');
      throw new UsageError('Use `store orders cancel ID` to cancel an order (it asks first and can return the stock).');
    }
    await super.init();
  }

  async run(): Promise<Order> {
    const { parseOrderId } = await import('../../services/common/validate.js');
    const id = parseOrderId(this.args.id);
    const { updateOrderFields, orderUpdate } = await import('../../services/orders/orders.js');
    const changes = {
      note: this.flags.note,
      status: this.flags.status as OrderStatus | 'paid' | undefined,
      customer: { name: this.flags['customer-name'], email: this.flags['customer-email'], phone: this.flags['customer-phone'] },
    };
    // Checked before the client is made, so a wrong flag never waits on credentials or the network.
    orderUpdate(changes);
    const client = await this.client();
    const { value: order, notice } = await updateOrderFields(client, await this.recorder(), id, changes);
    if (notice) this.note(notice);
    const { orderRecordFields } = await import('../../views/orders.js');
    await this.renderDetail(orderRecordFields(order));
    return order;
  }
}

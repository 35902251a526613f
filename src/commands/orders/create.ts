import { Flags } from '@oclif/core';
import type { Order } from '../../api/orders.js';
import { BaseCommand } from '../../cli/base-command.js';
import { section } from '../../cli/record-view.js';
import { jsonFields } from '../../api/json-fields.js';

export default class OrdersCreate extends BaseCommand<typeof OrdersCreate> {
  static summary = 'Create an order (test orders, sandbox scripting).';
  static description =
    'The store takes the units from stock by location priority and answers with the new order, open and pending payment. Give one --item VARIANT_ID=QTY per line. The addresses are objects, as the platform takes them: one --shipping-address KEY=VALUE (or --billing-address) per field, keys first_name, last_name, address, number, floor, locality, city, province, zipcode, country, phone.';
  static examples = [
    '<%= config.bin %> orders create --customer-name "Ana Souza" --customer-email ana@example.com --item 123456=2',
    '<%= config.bin %> orders create --customer-name "Ana Souza" --item 123456=1 --item 123457=3 --json',
    '<%= config.bin %> orders create --customer-name "Ana Souza" --item 123456=1 --shipping-address first_name=Ana --shipping-address last_name=Souza --shipping-address "address=Rua Augusta" --shipping-address number=500 --shipping-address "city=São Paulo"',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.order;

  static flags = {
    'customer-name': Flags.string({ description: "The customer's name (required)." }),
    'customer-email': Flags.string({ description: "The customer's email address." }),
    'customer-phone': Flags.string({ description: "The customer's phone number." }),
    item: Flags.string({ description: 'A line of the order: VARIANT_ID=QTY (repeat for more lines).', multiple: true, multipleNonGreedy: true }),
    'shipping-address': Flags.string({ description: 'A field of the shipping address: KEY=VALUE (repeat for more fields).', multiple: true, multipleNonGreedy: true, helpValue: 'KEY=VALUE' }),
    'billing-address': Flags.string({ description: 'A field of the billing address: KEY=VALUE (repeat for more fields).', multiple: true, multipleNonGreedy: true, helpValue: 'KEY=VALUE' }),
  };

  async run(): Promise<Order> {
    const { createOrderFromFlags, orderItems, orderAddress, customerDetails } = await import('../../services/orders/orders.js');
    const flags = {
      name: this.flags['customer-name'],
      email: this.flags['customer-email'],
      phone: this.flags['customer-phone'],
      items: this.flags.item ?? [],
      shippingAddress: this.flags['shipping-address'],
      billingAddress: this.flags['billing-address'],
    };
    // Checked before the client is made, so a wrong flag never waits on credentials or the network.
    if (flags.name === undefined) {
      const { UsageError } = await import('../../errors.js');
      throw new UsageError('--customer-name is required: the store needs the name the order is for.');
    }
    customerDetails(flags);
    orderItems(flags.items);
    orderAddress(flags.shippingAddress, '--shipping-address');
    orderAddress(flags.billingAddress, '--billing-address');
    const client = await this.client();
    const order = await createOrderFromFlags(client, await this.recorder(), flags);
    const { orderRecordFields, orderItemColumns } = await import('../../views/orders.js');
    await this.renderDetail(orderRecordFields(order), [section('Items', order.products, orderItemColumns)]);
    if (!this.jsonEnabled()) this.note(`Created order #${order.number ?? '?'} (id ${order.id}).`);
    return order;
  }
}

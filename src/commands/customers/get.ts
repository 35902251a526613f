import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import type { CustomerDetails } from '../../services/customers/customers.js';

export default class CustomersGet extends BaseCommand<typeof CustomersGet> {
  static summary = 'Show a customer: contact, addresses and their newest orders.';
  static description = `Takes the customer id or email address. Shows the customer, their addresses and billing details, and their newest orders (what \`store orders list --customer ID\` lists). Two requests: the customer (by id, or the lookup of the email) and the first page of their orders.`;

  static examples = [
    '<%= config.bin %> customers get ana@example.com',
    '<%= config.bin %> customers get 70000001',
    '<%= config.bin %> customers get ana@example.com --orders 30 --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    customer: Args.string({ description: 'Customer id or email address.', required: true }),
  };

  static flags = {
    orders: Flags.integer({ description: 'Show at most this many of their newest orders (1-200).', default: 10, min: 1, max: 200 }),
  };

  async run(): Promise<CustomerDetails> {
    const { customerWithOrders, parseCustomerRef } = await import('../../services/customers/customers.js');
    const ref = parseCustomerRef(this.args.customer);
    const details = await customerWithOrders(await this.client(), ref, this.flags.orders);
    if (this.jsonEnabled()) return details;
    const { customerRecordFields, customerSections } = await import('../../views/customers.js');
    await this.renderDetail(customerRecordFields(details.customer), customerSections(details));
    return details;
  }
}

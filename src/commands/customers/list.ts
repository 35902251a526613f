import { Flags } from '@oclif/core';
import type { Customer } from '../../api/customers.js';
import { csvFlag, pagingFlags } from '../../flags/common.js';
import { PagedListCommand } from '../../cli/paged-list.js';

export default class CustomersList extends PagedListCommand<typeof CustomersList> {
  static summary = "List the store's customers.";
  static description = `Shows id, name, email, phone, the money spent, the last order and when the customer was created, in the order the store sends them. --search finds text in the name, email or identification (the store's own search); --email the customers with that email address (case aside). Without --limit, --page or --all the first 30 customers are shown.`;

  static examples = [
    '<%= config.bin %> customers list',
    '<%= config.bin %> customers list --search gomez',
    '<%= config.bin %> customers list --email ana@example.com',
    '<%= config.bin %> customers list --all --csv > customers.csv',
  ];

  static enableJsonFlag = true;
  static baseFlags = PagedListCommand.recordFlags;

  static flags = {
    search: Flags.string({ description: "Only customers with this text in their name, email or identification (the API's q)." }),
    email: Flags.string({ description: 'Only the customers with this email address.' }),
    ...pagingFlags('customer'),
    csv: csvFlag,
  };

  async run(): Promise<Customer[]> {
    const paging = await this.pagingOf(this.flags, 'customer');
    const { customerFilters, customerListPages } = await import('../../services/customers/customers.js');
    const filters = customerFilters({ search: this.flags.search, email: this.flags.email });
    const pages = customerListPages(await this.client(), filters, paging);
    const { customerColumns } = await import('../../views/customers.js');
    return this.printPages(pages, customerColumns, { paging, one: 'customer', csv: this.flags.csv });
  }
}

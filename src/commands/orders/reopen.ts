import { BaseCommand } from '../../cli/base-command.js';
import OrdersClose from './close.js';

/** `orders close`, the other way: POST /orders/{id}/open. */
export default class OrdersReopen extends OrdersClose {
  static summary = 'Reopen a closed or cancelled order.';
  static description = `A reopened cancelled order keeps its refunded or voided payment, and its items are not taken from stock again (they went back when it was cancelled; cancelling it again does not return them twice). Asks for confirmation on a terminal; without one, pass --yes. A number the store does not know as an id is looked up as the number the customer sees; the command says on stderr which order it reopens before it asks.`;

  static examples = ['<%= config.bin %> orders reopen 450000123', '<%= config.bin %> orders reopen 182 --yes --json'];

  // oclif reads these from the class itself.
  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static args = OrdersClose.args;
  static flags = OrdersClose.flags;

  protected override readonly action = 'open' as const;
}

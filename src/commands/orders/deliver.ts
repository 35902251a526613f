import { Flags } from '@oclif/core';
import { ShippingCommand } from '../../cli/shipping-command.js';
import { BaseCommand } from '../../cli/base-command.js';
import { orderLookupArg, shipmentSelectionFlag } from '../../flags/orders.js';
import { DATE_FORMS } from '../../services/common/validate.js';
import type { ShippingResult } from '../../services/shipping/ship-order.js';

export default class OrdersDeliver extends ShippingCommand<typeof OrdersDeliver> {
  static summary = 'Mark an order delivered: a delivered tracking event on each dispatched shipment.';
  static description = `The documented way to mark delivery (docs/platform.md §10): a tracking event with status delivered on each DISPATCHED shipment, which moves it to DELIVERED with its fulfilled_at at the event's time (--at, default now). A pickup shipment ready for pickup, or a non-shippable one, takes no tracking event: it is delivered by its status (at the time the store records). Reads the order once, then one request per shipment; stderr says which were skipped and why. A shipment not yet dispatched (or ready) is refused before any write, naming its status and the command that would get it there. ORDER is the order id or the number the customer sees.`;

  static examples = ['<%= config.bin %> orders deliver 191', '<%= config.bin %> orders deliver 191 --fulfillment-order 191-1 --at "2026-11-21T14:05:00-03:00"'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static args = { order: orderLookupArg };
  static flags = {
    at: Flags.string({ description: `When it was delivered: ${DATE_FORMS}; default now.` }),
    'fulfillment-order': shipmentSelectionFlag,
  };

  async run(): Promise<ShippingResult> {
    return this.moveShipments({ action: 'deliver', at: this.flags.at }, this.args.order, this.flags['fulfillment-order'], 'deliver');
  }
}

import { ShippingCommand } from '../../cli/shipping-command.js';
import { BaseCommand } from '../../cli/base-command.js';
import { orderLookupArg, shipmentSelectionFlag } from '../../flags/orders.js';
import type { ShippingResult } from '../../services/shipping/ship-order.js';

export default class OrdersPack extends ShippingCommand<typeof OrdersPack> {
  static summary = 'Pack an order: its shipments go from UNPACKED to PACKED.';
  static description = `Reads the order once with its shipments (fulfillment orders), then sends one PATCH per shipment packed (docs/platform.md §10; never the deprecated POST /orders/{id}/pack). Every shipment that can be packed is, or those --fulfillment-order names; stderr says which were skipped and why. A move the platform forbids (a dispatched shipment never goes back) is refused before any write, naming the shipment's status. ORDER is the order id or the number the customer sees.`;

  static examples = ['<%= config.bin %> orders pack 191', '<%= config.bin %> orders pack 191 --fulfillment-order 191-2', '<%= config.bin %> orders pack 450000123 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static args = { order: orderLookupArg };
  static flags = { 'fulfillment-order': shipmentSelectionFlag };

  async run(): Promise<ShippingResult> {
    return this.moveShipments({ action: 'pack' }, this.args.order, this.flags['fulfillment-order'], 'pack');
  }
}

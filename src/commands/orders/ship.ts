import { ShippingCommand } from '../../cli/shipping-command.js';
import { BaseCommand } from '../../cli/base-command.js';
import { dispatchFlags, orderLookupArg, shipmentSelectionFlag } from '../../flags/orders.js';
import type { ShippingResult } from '../../services/shipping/ship-order.js';

export default class OrdersShip extends ShippingCommand<typeof OrdersShip> {
  static summary = "Ship an order: its shipments go DISPATCHED with the carrier's tracking code.";
  static description = `Reads the order once with its shipments (fulfillment orders), then sends one PATCH per shipment dispatched, with --tracking (and --tracking-url); the store tells the customer only with --notify (docs/platform.md §10; never the deprecated POST /orders/{id}/fulfill). An unpacked shipment may be dispatched directly. Every shipment that can be dispatched is, or those --fulfillment-order names; stderr says which were skipped and why. A pickup shipment is never dispatched: it is made ready (store fulfillment-orders update ORDER FO --status ready-for-pickup) and delivered; that and every other move the platform forbids is refused before any write, naming the shipment's status and the command that would get there. ORDER is the order id or the number the customer sees.`;

  static examples = [
    '<%= config.bin %> orders ship 191 --tracking BR123456789AA',
    '<%= config.bin %> orders ship 191 --fulfillment-order 191-1 --tracking BR123456789AA --tracking-url https://rastreamento.correios.com.br/BR123456789AA --notify',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static args = { order: orderLookupArg };
  static flags = { ...dispatchFlags, 'fulfillment-order': shipmentSelectionFlag };

  async run(): Promise<ShippingResult> {
    const { tracking, 'tracking-url': trackingUrl, notify } = this.flags;
    return this.moveShipments({ action: 'ship', tracking, trackingUrl, notify }, this.args.order, this.flags['fulfillment-order'], 'ship');
  }
}

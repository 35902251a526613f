import { Args, Flags } from '@oclif/core';
import { ShippingCommand } from '../../cli/shipping-command.js';
import { BaseCommand } from '../../cli/base-command.js';
import { dispatchFlags, orderLookupArg } from '../../flags/orders.js';
import { RAW_STATUSES, type ShippingAction } from '../../services/shipping/moves.js';
import type { ShippingResult } from '../../services/shipping/ship-order.js';

export default class FulfillmentOrdersUpdate extends ShippingCommand<typeof FulfillmentOrdersUpdate> {
  static summary = 'Move one fulfillment order to a status (the raw form of orders pack, ship and deliver).';
  static description = `Sends PATCH /orders/{order}/fulfillment-orders/{fo} with the status (and, for dispatched, --tracking) after checking the move against the platform's rules (docs/platform.md §10): ready-for-pickup only for a pickup shipment, unpacked only from packed, never back once dispatched, delivered is final. A forbidden move is refused before any write, naming the shipment's status and the command that would get there. Delivered here is set by status (fulfilled_at now); store orders deliver sends the documented delivered tracking event instead. ORDER is the order id or the number the customer sees; FULFILLMENT_ORDER its id or its number as listed (191-1).`;

  static examples = [
    '<%= config.bin %> fulfillment-orders update 191 191-1 --status packed',
    '<%= config.bin %> fulfillment-orders update 191 191-2 --status ready-for-pickup',
    '<%= config.bin %> fulfillment-orders update 191 191-1 --status dispatched --tracking BR123456789AA',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static args = {
    order_id: orderLookupArg,
    fulfillment_order_id: Args.string({ description: 'Fulfillment order id, or its number as `store fulfillment-orders list ORDER` shows it (191-1).', required: true }),
  };

  static flags = { status: Flags.string({ description: 'The status to move it to.', options: [...RAW_STATUSES], required: true }), ...dispatchFlags };

  async run(): Promise<ShippingResult> {
    const { tracking, 'tracking-url': trackingUrl, notify, status } = this.flags;
    const action = status as ShippingAction;
    return this.moveShipments({ action, tracking, trackingUrl, notify }, this.args.order_id, [this.args.fulfillment_order_id], `set to ${status}`);
  }
}

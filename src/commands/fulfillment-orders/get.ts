import type { FulfillmentOrder } from '../../api/fulfillment-orders.js';
import { BaseCommand } from '../../base-command.js';
import { fulfillmentOrderArgs } from '../../flags/orders.js';

export default class FulfillmentOrdersGet extends BaseCommand<typeof FulfillmentOrdersGet> {
  static summary = 'Show a fulfillment order with its items and tracking events.';
  static examples = [
    '<%= config.bin %> fulfillment-orders get 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X',
    '<%= config.bin %> fulfillment-orders get 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = fulfillmentOrderArgs;

  async run(): Promise<FulfillmentOrder> {
    const { parseOrderId, parseUlid } = await import('../../services/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const foId = parseUlid(this.args.fulfillment_order_id, 'FULFILLMENT_ORDER_ID', 'fulfillment order');
    const { fulfillmentOrder } = await import('../../services/fulfillment-orders.js');
    const { fulfillmentOrder: fo, mainLanguage } = await fulfillmentOrder(await this.client(), orderId, foId);
    if (this.jsonEnabled()) return fo;
    const { fulfillmentOrderFields, fulfillmentOrderSections } = await import('../../views/fulfillment-orders.js');
    await this.renderDetail(fulfillmentOrderFields(fo, orderId, mainLanguage), fulfillmentOrderSections(fo, mainLanguage));
    return fo;
  }
}

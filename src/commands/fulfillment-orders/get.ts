import type { FulfillmentOrder } from '../../api/fulfillment-orders.js';
import { BaseCommand } from '../../cli/base-command.js';
import { fulfillmentOrderArgs } from '../../flags/orders.js';

export default class FulfillmentOrdersGet extends BaseCommand<typeof FulfillmentOrdersGet> {
  static summary = 'Show a fulfillment order with its items and tracking events.';
  static examples = [
    '<%= config.bin %> fulfillment-orders get 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X',
    '<%= config.bin %> fulfillment-orders get 191 191-1',
    '<%= config.bin %> fulfillment-orders get 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X --json',
  ];

  static description = 'ORDER_ID is the order id or the number the customer sees; FULFILLMENT_ORDER_ID the fulfillment order id or its number as listed (191-1). When a number was used, stderr says which order.';

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = fulfillmentOrderArgs;

  async run(): Promise<FulfillmentOrder> {
    const { parseOrderId, parseFulfillmentOrderRef } = await import('../../services/common/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const ref = parseFulfillmentOrderRef(this.args.fulfillment_order_id, 'FULFILLMENT_ORDER_ID');
    const { fulfillmentOrder } = await import('../../services/orders/fulfillment-orders.js');
    const found = await fulfillmentOrder(await this.client(), orderId, ref);
    if (found.notice) this.note(found.notice);
    const { fulfillmentOrder: fo, mainLanguage } = found.value;
    if (this.jsonEnabled()) return fo;
    const { fulfillmentOrderFields, fulfillmentOrderSections } = await import('../../views/fulfillment-orders.js');
    await this.renderDetail(fulfillmentOrderFields(fo, found.orderId, mainLanguage), fulfillmentOrderSections(fo, mainLanguage));
    return fo;
  }
}

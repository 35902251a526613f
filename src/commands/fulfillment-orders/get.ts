import { Args } from '@oclif/core';
import type { FulfillmentOrder } from '../../api/fulfillment-orders.js';
import { BaseCommand, section } from '../../base-command.js';

export default class FulfillmentOrdersGet extends BaseCommand<typeof FulfillmentOrdersGet> {
  static summary = 'Show a fulfillment order with its items and tracking events.';
  static examples = [
    '<%= config.bin %> fulfillment-orders get 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X',
    '<%= config.bin %> fulfillment-orders get 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    order_id: Args.string({ description: 'Order id (10 digits).', required: true }),
    fulfillment_order_id: Args.string({ description: 'Fulfillment order id (see `store fulfillment-orders list ORDER_ID`).', required: true }),
  };

  async run(): Promise<FulfillmentOrder> {
    const { parseOrderId, parseUlid } = await import('../../services/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const foId = parseUlid(this.args.fulfillment_order_id, 'FULFILLMENT_ORDER_ID', 'fulfillment order');
    const { fulfillmentOrder } = await import('../../services/orders.js');
    const fo = await fulfillmentOrder(await this.client(), orderId, foId);
    if (this.jsonEnabled()) return fo;
    await this.renderDetail(
      [
        ['id', fo.id],
        ['order', fo.order_id],
        ['status', fo.status],
        ['location', fo.location_id],
      ],
      [
        section('Items', fo.products, [
          { header: 'variant', get: (p) => p.variant_id },
          { header: 'quantity', get: (p) => p.quantity },
        ]),
        section('Tracking events', fo.tracking_events, [
          { header: 'id', get: (e) => e.id },
          { header: 'status', get: (e) => e.status },
          { header: 'happened_at', get: (e) => e.happened_at },
          { header: 'description', get: (e) => e.description },
          { header: 'address', get: (e) => e.address },
          { header: 'lat_lon', get: (e) => (e.geolocation ? `${e.geolocation.latitude},${e.geolocation.longitude}` : '') },
          { header: 'estimated_delivery', get: (e) => e.estimated_delivery_at },
        ]),
      ],
    );
    return fo;
  }
}

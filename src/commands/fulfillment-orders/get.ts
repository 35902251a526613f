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

  static args = {
    order_id: Args.string({ description: 'Order id.', required: true }),
    fulfillment_order_id: Args.string({ description: 'Fulfillment order id (see `store fulfillment-orders list ORDER_ID`).', required: true }),
  };

  async run(): Promise<FulfillmentOrder> {
    const { parseOrderId, parseUlid } = await import('../../services/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const foId = parseUlid(this.args.fulfillment_order_id, 'FULFILLMENT_ORDER_ID', 'fulfillment order');
    const views = await import('../../services/fulfillment-orders.js');
    const { fulfillmentOrder: fo, mainLanguage } = await views.fulfillmentOrder(await this.client(), orderId, foId);
    if (this.jsonEnabled()) return fo;
    const total = fo.total_price?.value ? [fo.total_price.value, fo.total_price.currency].filter(Boolean).join(' ') : '';
    await this.renderDetail(
      [
        ['id', fo.id],
        ['number', fo.number ?? ''],
        ['order', orderId],
        ['status', views.fulfillmentOrderRow(fo, mainLanguage).status],
        ['location', views.locationLabel(fo, mainLanguage)],
        ['items', views.fulfillmentOrderRow(fo).items],
        ['total', total],
        ['tracking', views.trackingLabel(fo)],
        ...(fo.fulfilled_at ? ([['fulfilled', fo.fulfilled_at]] as [string, unknown][]) : []),
      ],
      [
        section('Items', views.fulfillmentItemRows(fo, mainLanguage), [
          { header: 'variant', get: (item) => item.variant_id },
          { header: 'product', get: (item) => item.product_id },
          { header: 'sku', get: (item) => item.sku },
          { header: 'name', get: (item) => item.label },
          { header: 'quantity', get: (item) => item.quantity },
          { header: 'unit price', get: (item) => item.unit_price },
        ]),
        section('Tracking events', fo.tracking_events ?? [], [
          { header: 'id', get: (e) => e.id },
          { header: 'status', get: (e) => e.status },
          { header: 'happened', get: (e) => e.happened_at },
          { header: 'description', get: (e) => e.description },
          { header: 'address', get: (e) => views.placeLabel(e.address) },
          { header: 'lat,lon', get: (e) => (e.geolocation?.latitude !== undefined ? `${e.geolocation.latitude},${e.geolocation.longitude ?? ''}` : '') },
          { header: 'estimated delivery', get: (e) => e.estimated_delivery_at },
        ]),
      ],
    );
    return fo;
  }
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { httpError, intParam, notFound, parseBody } from '../http.js';
import type { SandboxContext } from '../context.js';
import { moveRefusal, type FulfillmentStatus } from '../../platform/fulfillment.js';
import { fulfillmentOrdersOfOrder, moveTo, saveFulfillmentOrder, setTrackingInfo } from '../store/fulfillment-orders.js';
import { ordersOf, refreshShipping, shippingTypeOf, upgradeOrder } from '../store/orders.js';
import { presentOrder } from './orders.js';

/**
 * The deprecated order actions of v1 (docs/platform.md §10): `POST /orders/{id}/pack` and `POST /orders/{id}/fulfill`
 * (`shipping_tracking_number`, `shipping_tracking_url`, `notify_customer` default true) move the order's **first**
 * fulfillment order only, to PACKED or DISPATCHED, and answer the order. The client never sends them; the sandbox
 * serves them so that a v1 app (and the platform's own Postman collection) gets its answer. `2025-03` dropped them
 * (§12): under that version they are no route.
 */

const FulfillBody = z
  .object({
    shipping_tracking_number: z.string({ error: 'must be a string' }).max(200).nullish(),
    shipping_tracking_url: z.string({ error: 'must be a string' }).max(2000).nullish(),
    notify_customer: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .optional();

const ACTIONS: [action: 'pack' | 'fulfill', to: FulfillmentStatus, event: string][] = [
  ['pack', 'PACKED', 'order/packed'],
  ['fulfill', 'DISPATCHED', 'order/fulfilled'],
];

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  for (const [action, to, event] of ACTIONS) {
    api.post(`/orders/:order_id/${action}`, { config: { scope: 'orders' } }, async (req) => {
      if (!req.url.startsWith('/v1/')) throw httpError(404, `No route POST ${req.url.split('?')[0]}: 2025-03 dropped the deprecated /${action} (PATCH the order's fulfillment orders)`);
      const store = req.store;
      const id = intParam((req.params as { order_id: string }).order_id, 'Order');
      const found = ordersOf(store).get(id);
      if (!found) throw notFound('Order', id);
      const order = upgradeOrder(found);
      const body = action === 'fulfill' ? parseBody(FulfillBody, req.body) : undefined;
      if (order.status === 'cancelled') throw httpError(422, `Order ${order.id} is cancelled`, { status: ['is cancelled'] });
      const fo = fulfillmentOrdersOfOrder(store, order.id)[0];
      if (!fo) throw httpError(422, `Order ${order.id} has no fulfillment order yet; try again later`, { fulfillment_orders: ['none yet'] });
      const refusal = moveRefusal(fo.status, to, shippingTypeOf(order));
      if (refusal) throw httpError(422, `Order ${order.id} cannot be ${action === 'pack' ? 'packed' : 'fulfilled'}: its first shipment is ${fo.status} (${refusal.reason})`, { status: [refusal.reason] });
      const before = fo.status;
      ctx.state.mutate(`order.${action}`, (tx) => {
        const now = tx.now();
        moveTo(fo, to, now);
        if (body && (body.shipping_tracking_number || body.shipping_tracking_url)) {
          setTrackingInfo(fo, { code: body.shipping_tracking_number ?? null, url: body.shipping_tracking_url ?? null, notify_customer: body.notify_customer ?? true }, now, req.auth.appId);
        }
        saveFulfillmentOrder(tx, store, fo, now);
        refreshShipping(tx, store, order, now);
      });
      ctx.emit(event, store.id, order.id);
      if (before !== fo.status) ctx.emit('fulfillment_order/status_updated', store.id, undefined, { order_id: order.id, fulfillment_id: fo.id, status: fo.status });
      return presentOrder(order, req);
    });
  }
}

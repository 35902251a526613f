import { randomUUID } from 'node:crypto';
import type { StoreClient } from '../../client/index.js';
import { UsageError } from '../../errors.js';
import type { TrackingStatus } from '../../api/fulfillment-orders.js';
import { eventResource, type WebhookEvent } from '../../platform/webhook-events.js';
import { formatTimestamp } from '../common/validate.js';

/**
 * `store webhooks trigger EVENT`: makes the sandbox emit an event by doing the real thing through the API, so
 * the notification, its signature and its retries are exactly those of real use.
 *
 * Changes act on records made for the purpose (a throwaway order, product, category, customer or location, named
 * "Webhook trigger …"), so the demo data keeps its meaning: `product/updated` creates a product then renames it,
 * `order/paid` creates an order then marks it paid. The store emits what those requests cause (a created event
 * first, an `order/updated` beside `order/paid`); `actions` says each step. A shipment moves, and takes tracking
 * events, only by the documented requests (docs/platform.md §10): `fulfillment_order/status_updated` packs the
 * shipment of a new order; the tracking events go on the shipment of a new order dispatched for the purpose.
 */

export interface TriggerResult {
  event: WebhookEvent;
  /** The record the event is about; no id for events about no one record (`domain/updated`, `theme/updated`). */
  resource: { kind: string; id?: number | string };
  /** One sentence per request that changed something, in order. */
  actions: string[];
}

const CUSTOMER = { name: 'Webhook Trigger', email: 'webhook-trigger@example.com' };

export async function triggerEvent(client: StoreClient, event: WebhookEvent, now: () => Date = () => new Date()): Promise<TriggerResult> {
  const stamp = formatTimestamp(now());
  const label = `Webhook trigger ${stamp}`;
  const actions: string[] = [];
  const done = (kind: string, id?: number | string): TriggerResult => ({ event, resource: { kind, ...(id === undefined ? {} : { id }) }, actions });

  switch (event) {
    case 'order/created':
    case 'order/updated':
    case 'order/paid':
    case 'order/cancelled': {
      const orders = await import('../../api/orders.js');
      const variant = await inStockVariant(client);
      const order = await orders.createOrder(client, { customer: CUSTOMER, products: [{ variant_id: variant.id, quantity: 1 }] });
      actions.push(`Created order #${order.number} (${order.id}) for 1 × ${variant.label}.`);
      if (event === 'order/updated') {
        await orders.updateOrder(client, order.id, { owner_note: `Note set by store webhooks trigger at ${stamp}` });
        actions.push(`Set the note of order ${order.id}.`);
      } else if (event === 'order/paid') {
        await orders.updateOrder(client, order.id, { status: 'paid' });
        actions.push(`Marked order ${order.id} paid.`);
      } else if (event === 'order/cancelled') {
        await orders.cancelOrder(client, order.id, { reason: 'other', restock: true });
        actions.push(`Cancelled order ${order.id} (stock returned).`);
      }
      return done('order', order.id);
    }

    case 'product/created':
    case 'product/updated':
    case 'product/deleted': {
      const products = await import('../../api/products.js');
      const product = await products.createProduct(client, { name: label, price: '1.00', stock: 0 });
      actions.push(`Created product ${product.id} "${label}".`);
      if (event === 'product/updated') {
        await products.updateProduct(client, product.id, { name: `${label} (updated)` });
        actions.push(`Renamed product ${product.id}.`);
      } else if (event === 'product/deleted') {
        await products.deleteProduct(client, product.id);
        actions.push(`Deleted product ${product.id}.`);
      }
      return done('product', product.id);
    }

    case 'category/created':
    case 'category/updated':
    case 'category/deleted': {
      const categories = await import('../../api/categories.js');
      const category = await categories.createCategory(client, { name: label });
      actions.push(`Created category ${category.id} "${label}".`);
      if (event === 'category/updated') {
        await categories.updateCategory(client, category.id, { name: `${label} (updated)` });
        actions.push(`Renamed category ${category.id}.`);
      } else if (event === 'category/deleted') {
        await categories.deleteCategory(client, category.id);
        actions.push(`Deleted category ${category.id}.`);
      }
      return done('category', category.id);
    }

    case 'customer/created':
    case 'customer/updated':
    case 'customer/deleted': {
      const customers = await import('../../api/customers.js');
      // A customer of its own, with an email no other has (the store refuses a taken one).
      const email = `webhook-trigger-${randomUUID().slice(0, 8)}@example.com`;
      const customer = await customers.createCustomer(client, { name: label, email });
      actions.push(`Created customer ${customer.id} "${label}" <${email}>.`);
      if (event === 'customer/updated') {
        await customers.updateCustomer(client, customer.id, { note: `Note set by store webhooks trigger at ${stamp}` });
        actions.push(`Set the note of customer ${customer.id}.`);
      } else if (event === 'customer/deleted') {
        await customers.deleteCustomer(client, customer.id);
        actions.push(`Deleted customer ${customer.id}.`);
      }
      return done('customer', customer.id);
    }

    case 'location/created':
    case 'location/updated':
    case 'location/deleted': {
      const locations = await import('../../api/locations.js');
      const location = await locations.createLocation(client, { name: label });
      actions.push(`Created location ${location.id} "${label}".`);
      if (event === 'location/updated') {
        await locations.updateLocation(client, location.id, { name: `${label} (updated)` });
        actions.push(`Renamed location ${location.id}.`);
      } else if (event === 'location/deleted') {
        await locations.deleteLocation(client, location.id);
        actions.push(`Deleted location ${location.id}.`);
      }
      return done('location', location.id);
    }

    case 'fulfillment_order/tracking_event_created':
    case 'fulfillment_order/tracking_event_updated':
    case 'fulfillment_order/tracking_event_deleted': {
      const fos = await import('../../api/fulfillment-orders.js');
      const { orderId, fo } = await newShipment(client, actions);
      // Tracking events start once a shipment is dispatched (docs/platform.md §10).
      await fos.updateFulfillmentOrder(client, orderId, fo.id, { status: 'DISPATCHED', tracking_info: { code: `TRIGGER-${Date.parse(stamp) / 1000}`, notify_customer: false } });
      actions.push(`Dispatched its shipment ${fo.id} (PATCH, status DISPATCHED).`);
      const input = { status: 'in_transit' as TrackingStatus, description: `Tracking event from store webhooks trigger at ${stamp}`, happened_at: stamp };
      const tracking = await fos.createTrackingEvent(client, orderId, fo.id, input);
      const eventId = String(tracking.id);
      actions.push(`Added tracking event ${eventId} (${input.status}) to shipment ${fo.id}.`);
      if (event === 'fulfillment_order/tracking_event_updated') {
        await fos.updateTrackingEvent(client, orderId, fo.id, eventId, { ...input, description: `${input.description} (updated)` });
        actions.push(`Changed the description of tracking event ${eventId}.`);
      } else if (event === 'fulfillment_order/tracking_event_deleted') {
        await fos.deleteTrackingEvent(client, orderId, fo.id, eventId);
        actions.push(`Deleted tracking event ${eventId}.`);
      }
      return done('fulfillment_order', fo.id);
    }

    case 'app/uninstalled':
      throw new UsageError(
        "The sandbox cannot uninstall the CLI's own app (that would revoke the token every command uses); to test an app/uninstalled handler, install another app (POST /sandbox/apps) and uninstall it with POST /sandbox/apps/CLIENT_ID/uninstall (docs/sandbox.md).",
      );

    case 'fulfillment_order/status_updated': {
      // The real thing: a new order's shipment packed with the documented PATCH moves it UNPACKED → PACKED.
      const fos = await import('../../api/fulfillment-orders.js');
      const { orderId, fo } = await newShipment(client, actions);
      await fos.updateFulfillmentOrder(client, orderId, fo.id, { status: 'PACKED' });
      actions.push(`Packed its shipment ${fo.id} (PATCH, status PACKED): its status moved from UNPACKED to PACKED.`);
      return done('fulfillment_order', fo.id);
    }

    case 'order/packed':
    case 'order/fulfilled':
    case 'order/edited':
    case 'order/pending':
    case 'order/voided':
    case 'order/unpacked': {
      // No API request of the sandbox does these (they happen in the admin panel): a new order, then the
      // sandbox's own endpoint emits the event about it.
      const orders = await import('../../api/orders.js');
      const variant = await inStockVariant(client);
      const order = await orders.createOrder(client, { customer: CUSTOMER, products: [{ variant_id: variant.id, quantity: 1 }] });
      actions.push(`Created order #${order.number} (${order.id}) for 1 × ${variant.label}.`);
      await emitOnSandbox(client, event, order.id);
      actions.push(`Had the sandbox emit ${event} for order ${order.id} (POST /sandbox/events).`);
      return done('order', order.id);
    }

    case 'app/suspended':
    case 'app/resumed':
    case 'domain/updated':
    case 'theme/updated':
    case 'cart/created':
    case 'cart/updated': {
      const sent = await emitOnSandbox(client, event);
      const about = sent.id === undefined ? '' : ` for ${eventResource(event)} ${sent.id}`;
      const themes = event === 'theme/updated' ? ` (${String(sent.old_theme)} → ${String(sent.new_theme)})` : '';
      actions.push(`Had the sandbox emit ${event}${about}${themes} (POST /sandbox/events).`);
      return done(eventResource(event), sent.id);
    }
  }
}

/**
 * Asks the sandbox to emit an event that no API request causes (POST /sandbox/events, outside /v1: a sandbox
 * endpoint). Answers the notification's body.
 */
async function emitOnSandbox(client: StoreClient, event: WebhookEvent, id?: number | string): Promise<{ id?: number | string; [field: string]: unknown }> {
  const match = /^(.*)\/v1\/(\d+)$/.exec(client.baseUrl);
  if (!match) throw new UsageError(`Cannot tell the sandbox's address from ${client.baseUrl}.`);
  const res = await client.request<{ id?: number | string }>({
    method: 'POST',
    path: `${match[1]}/sandbox/events`,
    body: { event, store_id: Number(match[2]), ...(id === undefined ? {} : { id }) },
  });
  return res.body;
}

/** A variant an order can take one unit of: stock above zero, or stock not tracked (null). */
async function inStockVariant(client: StoreClient): Promise<{ id: number; label: string }> {
  const { productPages } = await import('../../api/products.js');
  for await (const page of productPages(client)) {
    for (const product of page.products) {
      const variant = product.variants.find((v) => v.stock === null || (v.stock ?? 0) > 0);
      if (variant) return { id: variant.id, label: variant.sku ? `SKU ${variant.sku}` : `variant ${variant.id}` };
    }
  }
  throw new UsageError('No variant of the store has stock, so no order can be created; add stock with `store variants update` first.');
}

/** A new order of one in-stock unit and its first shipment, to move for the purpose. */
async function newShipment(client: StoreClient, actions: string[]) {
  const orders = await import('../../api/orders.js');
  const { listFulfillmentOrders } = await import('../../api/fulfillment-orders.js');
  const variant = await inStockVariant(client);
  const order = await orders.createOrder(client, { customer: CUSTOMER, products: [{ variant_id: variant.id, quantity: 1 }] });
  actions.push(`Created order #${order.number} (${order.id}) for 1 × ${variant.label}.`);
  const fo = (await listFulfillmentOrders(client, order.id))[0];
  // Right after checkout a store may not have made the shipments yet (docs/platform.md §10).
  if (!fo) throw new UsageError(`Order ${order.id} has no fulfillment order yet; the store makes them shortly after checkout: try again.`);
  return { orderId: order.id, fo };
}

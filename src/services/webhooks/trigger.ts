import { randomUUID } from 'node:crypto';
import type { StoreClient } from '../../client/index.js';
import { UsageError } from '../../errors.js';
import type { TrackingStatus } from '../../api/fulfillment-orders.js';
import { eventResource, type WebhookEvent } from '../../platform/webhook-events.js';
import { formatTimestamp } from '../common/validate.js';
import { created, deleted, fieldUpdates, type Subject } from '../../ledger/changes.js';
import type { PendingWrite, Recorder } from '../../ledger/recorder.js';

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

export async function triggerEvent(client: StoreClient, recorder: Recorder, event: WebhookEvent, now: () => Date = () => new Date()): Promise<TriggerResult> {
  const stamp = formatTimestamp(now());
  const label = `Webhook trigger ${stamp}`;
  const actions: string[] = [];
  const done = (kind: string, id?: number | string): TriggerResult => ({ event, resource: { kind, ...(id === undefined ? {} : { id }) }, actions });
  // Every write is on the run ledger like any command's (docs/ledger.md).
  const create = async <R extends { id: number | string }>(subject: Subject, body: unknown, send: (write: PendingWrite) => Promise<R>): Promise<R> => {
    const write = recorder.intend([created(subject, body)]);
    const record = await send(write);
    write.identify(record.id);
    return record;
  };
  const change = (subject: Subject, body: object) => recorder.intend(fieldUpdates(subject, body));
  const remove = (subject: Subject) => recorder.intend([deleted(subject)]);
  const newOrder = async (variantId: number) => {
    const { createOrder } = await import('../../api/orders.js');
    const body = { customer: CUSTOMER, products: [{ variant_id: variantId, quantity: 1 }] };
    return create({ resource: 'order' }, body, (write) => createOrder(client, body, write));
  };

  switch (event) {
    case 'order/created':
    case 'order/updated':
    case 'order/paid':
    case 'order/cancelled': {
      const orders = await import('../../api/orders.js');
      const variant = await inStockVariant(client);
      const order = await newOrder(variant.id);
      actions.push(`Created order #${order.number} (${order.id}) for 1 × ${variant.label}.`);
      const subject = { resource: 'order', id: order.id, key: String(order.number) };
      if (event === 'order/updated') {
        const update = { owner_note: `Note set by store webhooks trigger at ${stamp}` };
        await orders.updateOrder(client, order.id, update, change(subject, update));
        actions.push(`Set the note of order ${order.id}.`);
      } else if (event === 'order/paid') {
        await orders.updateOrder(client, order.id, { status: 'paid' }, change(subject, { status: 'paid' }));
        actions.push(`Marked order ${order.id} paid.`);
      } else if (event === 'order/cancelled') {
        const cancel = recorder.intend([{ ...subject, kind: 'action', field: 'status', before: order.status, after: 'cancelled', irreversible: 'a cancelled order is announced to webhooks' }]);
        await orders.cancelOrder(client, order.id, { reason: 'other', restock: true }, cancel);
        actions.push(`Cancelled order ${order.id} (stock returned).`);
      }
      return done('order', order.id);
    }

    case 'product/created':
    case 'product/updated':
    case 'product/deleted': {
      const products = await import('../../api/products.js');
      const body = { name: label, price: '1.00', stock: 0 };
      const product = await create({ resource: 'product' }, body, (write) => products.createProduct(client, body, write));
      actions.push(`Created product ${product.id} "${label}".`);
      if (event === 'product/updated') {
        const update = { name: `${label} (updated)` };
        await products.updateProduct(client, product.id, update, change({ resource: 'product', id: product.id }, update));
        actions.push(`Renamed product ${product.id}.`);
      } else if (event === 'product/deleted') {
        await products.deleteProduct(client, product.id, remove({ resource: 'product', id: product.id }));
        actions.push(`Deleted product ${product.id}.`);
      }
      return done('product', product.id);
    }

    case 'category/created':
    case 'category/updated':
    case 'category/deleted': {
      const categories = await import('../../api/categories.js');
      const category = await create({ resource: 'category' }, { name: label }, (write) => categories.createCategory(client, { name: label }, write));
      actions.push(`Created category ${category.id} "${label}".`);
      if (event === 'category/updated') {
        const update = { name: `${label} (updated)` };
        await categories.updateCategory(client, category.id, update, change({ resource: 'category', id: category.id }, update));
        actions.push(`Renamed category ${category.id}.`);
      } else if (event === 'category/deleted') {
        await categories.deleteCategory(client, category.id, remove({ resource: 'category', id: category.id }));
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
      const body = { name: label, email };
      const customer = await create({ resource: 'customer', key: email }, body, (write) => customers.createCustomer(client, body, write));
      actions.push(`Created customer ${customer.id} "${label}" <${email}>.`);
      if (event === 'customer/updated') {
        const update = { note: `Note set by store webhooks trigger at ${stamp}` };
        await customers.updateCustomer(client, customer.id, update, change({ resource: 'customer', id: customer.id, key: email }, update));
        actions.push(`Set the note of customer ${customer.id}.`);
      } else if (event === 'customer/deleted') {
        await customers.deleteCustomer(client, customer.id, remove({ resource: 'customer', id: customer.id, key: email }));
        actions.push(`Deleted customer ${customer.id}.`);
      }
      return done('customer', customer.id);
    }

    case 'location/created':
    case 'location/updated':
    case 'location/deleted': {
      const locations = await import('../../api/locations.js');
      const location = await create({ resource: 'location' }, { name: label }, (write) => locations.createLocation(client, { name: label }, write));
      actions.push(`Created location ${location.id} "${label}".`);
      if (event === 'location/updated') {
        const update = { name: `${label} (updated)` };
        await locations.updateLocation(client, location.id, update, change({ resource: 'location', id: location.id }, update));
        actions.push(`Renamed location ${location.id}.`);
      } else if (event === 'location/deleted') {
        await locations.deleteLocation(client, location.id, remove({ resource: 'location', id: location.id }));
        actions.push(`Deleted location ${location.id}.`);
      }
      return done('location', location.id);
    }

    case 'fulfillment_order/tracking_event_created':
    case 'fulfillment_order/tracking_event_updated':
    case 'fulfillment_order/tracking_event_deleted': {
      const fos = await import('../../api/fulfillment-orders.js');
      const { orderId, fo } = await newShipment(client, recorder, actions);
      // Tracking events start once a shipment is dispatched (docs/platform.md §10).
      const dispatch = { status: 'DISPATCHED' as const, tracking_info: { code: `TRIGGER-${Date.parse(stamp) / 1000}`, notify_customer: false } };
      await fos.updateFulfillmentOrder(client, orderId, fo.id, dispatch, change({ resource: 'fulfillment-order', id: fo.id, parent: orderId }, dispatch));
      actions.push(`Dispatched its shipment ${fo.id} (PATCH, status DISPATCHED).`);
      const input = { status: 'in_transit' as TrackingStatus, description: `Tracking event from store webhooks trigger at ${stamp}`, happened_at: stamp };
      const trackingSubject = { resource: 'tracking-event', parent: orderId, key: fo.id };
      const tracking = await create(trackingSubject, input, (write) => fos.createTrackingEvent(client, orderId, fo.id, input, write));
      const eventId = String(tracking.id);
      actions.push(`Added tracking event ${eventId} (${input.status}) to shipment ${fo.id}.`);
      if (event === 'fulfillment_order/tracking_event_updated') {
        const description = `${input.description} (updated)`;
        await fos.updateTrackingEvent(client, orderId, fo.id, eventId, { ...input, description }, change({ ...trackingSubject, id: eventId }, { description }));
        actions.push(`Changed the description of tracking event ${eventId}.`);
      } else if (event === 'fulfillment_order/tracking_event_deleted') {
        await fos.deleteTrackingEvent(client, orderId, fo.id, eventId, remove({ ...trackingSubject, id: eventId }));
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
      const { orderId, fo } = await newShipment(client, recorder, actions);
      const pack = { status: 'PACKED' as const };
      await fos.updateFulfillmentOrder(client, orderId, fo.id, pack, change({ resource: 'fulfillment-order', id: fo.id, parent: orderId }, pack));
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
      const order = await newOrder(variant.id);
      actions.push(`Created order #${order.number} (${order.id}) for 1 × ${variant.label}.`);
      await emitOnSandbox(client, recorder, event, order.id);
      actions.push(`Had the sandbox emit ${event} for order ${order.id} (POST /sandbox/events).`);
      return done('order', order.id);
    }

    case 'app/suspended':
    case 'app/resumed':
    case 'domain/updated':
    case 'theme/updated':
    case 'cart/created':
    case 'cart/updated': {
      const sent = await emitOnSandbox(client, recorder, event);
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
async function emitOnSandbox(
  client: StoreClient,
  recorder: Recorder,
  event: WebhookEvent,
  id?: number | string,
): Promise<{ id?: number | string; [field: string]: unknown }> {
  const match = /^(.*)\/(?:v\d+|\d{4}-\d{2})\/(\d+)$/.exec(client.baseUrl);
  if (!match) throw new UsageError(`Cannot tell the sandbox's address from ${client.baseUrl}.`);
  const body = { event, store_id: Number(match[2]), ...(id === undefined ? {} : { id }) };
  const res = await client.request<{ id?: number | string }>({
    method: 'POST',
    path: `${match[1]}/sandbox/events`,
    body,
    // Not a change to a record, but a request that makes the sandbox act: on the record as a raw request.
    record: recorder.intend([{ resource: 'sandbox', key: event, kind: 'request', field: 'POST /sandbox/events', after: body }]),
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
async function newShipment(client: StoreClient, recorder: Recorder, actions: string[]) {
  const orders = await import('../../api/orders.js');
  const { listFulfillmentOrders } = await import('../../api/fulfillment-orders.js');
  const variant = await inStockVariant(client);
  const body = { customer: CUSTOMER, products: [{ variant_id: variant.id, quantity: 1 }] };
  const write = recorder.intend([created({ resource: 'order' }, body)]);
  const order = await orders.createOrder(client, body, write);
  write.identify(order.id);
  actions.push(`Created order #${order.number} (${order.id}) for 1 × ${variant.label}.`);
  const fo = (await listFulfillmentOrders(client, order.id))[0];
  // Right after checkout a store may not have made the shipments yet (docs/platform.md §10).
  if (!fo) throw new UsageError(`Order ${order.id} has no fulfillment order yet; the store makes them shortly after checkout: try again.`);
  return { orderId: order.id, fo };
}

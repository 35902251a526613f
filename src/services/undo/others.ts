import { closeOrReopenOrder, getOrder, type Order, updateOrder } from '../../api/orders.js';
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook, type Webhook } from '../../api/webhooks.js';
import { NotFoundError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import type { Recorder } from '../../ledger/recorder.js';
import type { ChangeIntent } from '../../ledger/types.js';
import { sameValue } from '../catalog-files/record-values.js';
import { Actor } from './actor.js';
import { undoCategories, undoCustomFields, undoLocations } from './catalog-settings.js';
import { type DecideOptions, decideField } from './decide.js';
import { left } from './plan-product.js';
import type { UndoSummary } from './summary.js';
import type { Slot } from './slots.js';

/**
 * The undo of what a run did outside the catalog: orders closed or reopened (the opposite action), order fields
 * (`owner_note`, `status`) written back, webhooks (a created one deleted, a deleted one registered again, a
 * changed one changed back). Anything else — an order cancelled, a new order, an invoice attached, a raw
 * `store api` request — is listed with why it stays. Categories, locations and custom field definitions:
 * catalog-settings.ts. Each record is read first (one GET per order, one list of
 * webhooks), so what someone changed since is left.
 */

export async function undoOthers(client: StoreClient, recorder: Recorder, slots: Slot[], summary: UndoSummary, options: DecideOptions & { dryRun?: boolean }): Promise<void> {
  const orders = new Map<string, Slot[]>();
  const webhooks: Slot[] = [];
  const settings = { category: [] as Slot[], location: [] as Slot[], 'custom-field': [] as Slot[] };
  for (const slot of slots) {
    if (slot.irreversible) summary.left.push(left(slot, undefined, slot.irreversible, 'irreversible'));
    else if (slot.resource === 'order' && slot.id !== null && (slot.kind === 'update' || slot.kind === 'action')) orders.set(slot.id, [...(orders.get(slot.id) ?? []), slot]);
    else if (slot.resource === 'webhook') webhooks.push(slot);
    else if (slot.resource in settings) settings[slot.resource as keyof typeof settings].push(slot);
    else summary.left.push(left(slot, undefined, `undo does not take back a ${slot.kind === 'request' ? 'raw request' : `${slot.kind} of ${slot.resource}`}`, 'irreversible'));
  }
  const act = new Actor(client, recorder, summary, options);
  for (const [id, list] of orders) await undoOrder(act, Number(id), list);
  if (webhooks.length > 0) await undoWebhooks(act, webhooks);
  if (settings.category.length > 0) await undoCategories(act, settings.category);
  if (settings.location.length > 0) await undoLocations(act, settings.location);
  if (settings['custom-field'].length > 0) await undoCustomFields(act, settings['custom-field']);
}

const subjectOf = (slot: Slot) => ({ resource: slot.resource, id: slot.id, parent: slot.parent, key: slot.key });

async function undoOrder(act: Actor, id: number, slots: Slot[]): Promise<void> {
  let order: Order;
  try {
    order = await getOrder(act.client, id);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    for (const slot of slots) act.summary.left.push(left(slot, undefined, 'the order is gone from the store', 'gone'));
    return;
  }
  const update: Record<string, unknown> = {};
  const changes: ChangeIntent[] = [];
  for (const slot of slots) {
    const now = (order as Record<string, unknown>)[slot.field];
    if (slot.kind === 'action') {
      await undoOrderAction(act, order, slot, now);
      continue;
    }
    const decision = decideField(slot, now, act.options);
    if (decision.action === 'write') {
      update[slot.field] = decision.value;
      changes.push({ ...subjectOf(slot), kind: 'update', field: slot.field, before: now, after: decision.value });
    } else if (decision.action === 'leave') act.summary.left.push(left(slot, now, decision.why, decision.kind));
    else act.summary.already++;
  }
  if (changes.length > 0) await act.write(changes, (record) => updateOrder(act.client, id, update, record));
}

/** A close is taken back by reopening, a reopen of a closed order by closing; a reopened cancel stays (listed). */
async function undoOrderAction(act: Actor, order: Order, slot: Slot, now: unknown): Promise<void> {
  if (slot.field !== 'status' || !sameValue(now, slot.after)) {
    act.summary.left.push(left(slot, now, sameValue(now, slot.before) ? 'already as before' : 'the order changed since', 'changed'));
    return;
  }
  const action = slot.before === 'closed' ? 'close' : slot.after === 'closed' ? 'open' : undefined;
  if (!action) {
    act.summary.left.push(left(slot, now, `an order ${String(slot.before)} before cannot be made so again by undo: \`store orders ${slot.before === 'cancelled' ? 'cancel' : 'update'}\` does it`, 'irreversible'));
    return;
  }
  await act.write([{ ...subjectOf(slot), kind: 'action', field: 'status', before: now, after: slot.before }], (record) => closeOrReopenOrder(act.client, order.id, action, record));
}

async function undoWebhooks(act: Actor, slots: Slot[]): Promise<void> {
  const current = new Map<string, Webhook>((await listWebhooks(act.client)).map((w) => [String(w.id), w]));
  for (const slot of slots) {
    const hook = slot.id !== null ? current.get(slot.id) : undefined;
    if (slot.kind === 'create') {
      if (!hook) act.summary.left.push(left(slot, undefined, slot.id === null ? 'its id never came back: look for it in `store webhooks list`' : 'gone already', 'gone'));
      else await act.write([{ ...subjectOf(slot), kind: 'delete', field: '*', before: hook }], (record) => deleteWebhook(act.client, hook.id, record));
    } else if (slot.kind === 'delete') {
      const kept = slot.before as Webhook | undefined;
      if (!kept || typeof kept !== 'object') act.summary.left.push(left(slot, undefined, 'deleted without a record of it: it cannot come back', 'irreversible'));
      else {
        const body = { event: String(kept.event), url: String(kept.url), ...(kept.headers ? { headers: kept.headers as Record<string, string> } : {}) };
        await act.write([{ ...subjectOf(slot), id: null, kind: 'create', field: '*', before: null, after: body }], (record) => createWebhook(act.client, body, record));
        act.summary.notes.push(`webhook ${slot.id} (${kept.event}) is registered again with a new id`);
      }
    } else if (slot.kind === 'update' && hook) {
      const now = (hook as Record<string, unknown>)[slot.field];
      const decision = decideField(slot, now, act.options);
      if (decision.action === 'write') {
        await act.write([{ ...subjectOf(slot), kind: 'update', field: slot.field, before: now, after: decision.value }], (record) =>
          updateWebhook(act.client, hook.id, { [slot.field]: decision.value }, record),
        );
      } else if (decision.action === 'leave') act.summary.left.push(left(slot, now, decision.why, decision.kind));
      else act.summary.already++;
    } else act.summary.left.push(left(slot, undefined, hook ? `undo does not take back a ${slot.kind} of a webhook` : 'the webhook is gone', hook ? 'irreversible' : 'gone'));
  }
}

/**
 * Builders of the changes a service declares (docs/ledger.md), so that every write names its record the same
 * way: one change per field sent, `before` from the record as read (left out when nothing was read).
 */
import type { PendingWrite, Recorder } from './recorder.js';
import type { ChangeIntent } from './types.js';

/** The record a change is about. */
export interface Subject {
  resource: string;
  id?: string | number | null;
  parent?: string | number | null;
  key?: string | null;
}

/**
 * One `update` change per field of `body` (the request's body), its before-value read from `before` (the record
 * as the command read it; undefined: not read, so not known).
 */
export function fieldUpdates(subject: Subject, body: object, before?: object): ChangeIntent[] {
  const was = before as Record<string, unknown> | undefined;
  return Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .map(([field, after]) => ({ ...subject, kind: 'update' as const, field, ...(was ? { before: was[field] ?? null } : {}), after }));
}

/** A record about to be created: its body as sent (the id comes with the reply: `write.identify(id)`). */
export function created(subject: Subject, body: unknown): ChangeIntent {
  return { ...subject, kind: 'create', field: '*', after: body };
}

/** A record about to be deleted, kept whole as read (undo recreates it from here), or only named when not read. */
export function deleted(subject: Subject, record?: unknown): ChangeIntent {
  return { ...subject, kind: 'delete', field: '*', ...(record === undefined ? {} : { before: record }) };
}

/**
 * A create on the record: intends it, sends it with `send`, and gives the change the id the store answered with.
 * The one shape of every single-record create (intend → request → identify).
 */
export async function recordCreate<T extends { id: string | number }>(
  recorder: Recorder,
  change: ChangeIntent,
  send: (write: PendingWrite) => Promise<T>,
): Promise<T> {
  const write = recorder.intend([change]);
  const record = await send(write);
  write.identify(record.id);
  return record;
}

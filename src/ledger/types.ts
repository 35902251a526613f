/**
 * The records of the run ledger (docs/ledger.md): a run is one command that wrote to a store; a change is one
 * field of one record that the run meant to write, with its value before and the value sent.
 */

/**
 * How a change ended:
 * - `intended`: recorded before its request was sent and never settled (the process died, or the request is
 *   still in flight): shown as "unknown", since the store may or may not have applied it;
 * - `confirmed`: the store answered that it applied it;
 * - `failed`: the store refused it, or the request provably never reached the store;
 * - `unknown`: the request was sent and its reply was lost (timeout, reset, a 5xx after the retries).
 */
export type Outcome = 'intended' | 'confirmed' | 'failed' | 'unknown';

/** What a settled request says of its changes. */
export type SettledOutcome = Exclude<Outcome, 'intended'>;

/**
 * What kind of write a change is, which tells undo what reverting it means:
 * - `update`: a field of an existing record set from `before` to `after`;
 * - `create`: a new record (`field` is `*`, `after` the body sent; its `id` is known once the store answers);
 * - `delete`: a record removed (`field` is `*`, `before` the whole record as read before deleting it);
 * - `action`: a state change through an action endpoint (an order closed, cancelled, reopened), `field` the
 *   state it moves (`status`), `before`/`after` its values;
 * - `request`: a raw `store api` call the CLI cannot interpret (`field` is the method, `after` the body).
 */
export type ChangeKind = 'update' | 'create' | 'delete' | 'action' | 'request';

/** One change as a service declares it, before its request is sent. */
export interface ChangeIntent {
  /** The resource kind: `variant`, `product`, `order`, `category`, `location`, `webhook`, `image`, … */
  resource: string;
  /** The record's id; absent for a record not yet created. */
  id?: string | number | null;
  /** The record's parent: a variant's product id, a tracking event's order id / fulfillment order. */
  parent?: string | number | null;
  /** The id people use: a variant's SKU, a product's handle, an order's number. */
  key?: string | null;
  /** The field written (`price`, `stock`, `status`, …), `*` for a whole record (create, delete). */
  field: string;
  /** Stock at a named location: the location's id (stock at the default location leaves it unset). */
  location?: string | null;
  kind: ChangeKind;
  /** The value before the write, as read (JSON). `undefined`: not known (no read made it). */
  before?: unknown;
  /** The value sent (JSON). */
  after?: unknown;
  /**
   * Why this change cannot be taken back by writing the old value again, when it cannot (an order cancel that
   * returned stock and emailed the customer). Undo lists it instead of reverting it.
   */
  irreversible?: string;
}

/** A change as the ledger holds it. */
export interface ChangeRecord {
  /** The change's place in the ledger: increasing in the order the changes were intended. */
  seq: number;
  run: string;
  /** When its run started (ISO 8601): the change's time, to the run. */
  at: string;
  resource: string;
  id: string | null;
  parent: string | null;
  key: string | null;
  field: string;
  location: string | null;
  kind: ChangeKind;
  /** `undefined` where nothing was read (not known); JSON values otherwise. */
  before: unknown;
  after: unknown;
  outcome: Outcome;
  /** Why it failed or is unknown, as the CLI reported it. */
  reason: string | null;
  irreversible: string | null;
}

/** Which field of which record a change is about: what `runs show`, `history` and `store undo` all key on. */
export type ChangeTarget = Pick<ChangeRecord, 'resource' | 'id' | 'parent' | 'key' | 'field' | 'location' | 'kind'>;

/** A change's target alone (a copy, so the caller may add its own fields). */
export function changeTarget(c: ChangeTarget): ChangeTarget {
  return { resource: c.resource, id: c.id, parent: c.parent, key: c.key, field: c.field, location: c.location, kind: c.kind };
}

/** What a run is started with. */
export interface RunStart {
  /** The command as typed, without the binary: `variants sync`. */
  command: string;
  /** The command line's arguments, secrets already scrubbed. */
  argv: string[];
  profile?: string | null;
  storeId?: string | number | null;
  /** The API's host (`api.example.com`, `127.0.0.1:4010`). */
  apiHost?: string | null;
  /** The run this one reverts (`store undo RUN`). */
  undoes?: string | null;
}

/** A run as the ledger holds it. */
export interface RunRecord {
  /** A ULID: sortable by start time, unique across processes. */
  id: string;
  command: string;
  argv: string[];
  profile: string | null;
  store_id: string | null;
  api_host: string | null;
  /** ISO 8601. */
  started_at: string;
  /** Null while running, or for a run whose process died. */
  ended_at: string | null;
  exit_code: number | null;
  pid: number | null;
  undoes: string | null;
  /** Every change recorded. */
  changes: number;
  confirmed: number;
  failed: number;
  /** Sent with the reply lost, or intended and never settled. */
  unknown: number;
}

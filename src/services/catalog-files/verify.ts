import type { StoreClient } from '../../client/index.js';
import type { PlannedWrite } from '../bulk/brakes.js';
import type { ReportRow } from '../bulk/report.js';
import { readTouched } from './read-touched.js';
import { holdsValue, productValue, shownValue, variantValue } from './record-values.js';

/**
 * `--verify` (issue 28): after writing, read back what was written and report every field the store does not hold
 * as written. A store once answered 200 to stock writes it never applied, for two months (TiendaNube/api-docs
 * issue #44); the sandbox's `ack-drop` fault does the same. Import, sync, apply and undo hand it the fields the
 * store confirmed; the reads are the fewest that see every product written (read-touched.ts, with `fields=`).
 */

/** A field the store does not hold as written: a failed row of the run. */
export interface UnverifiedField {
  resource: string;
  id: string;
  key: string;
  field: string;
  location?: string;
  wrote: unknown;
  /** What the store holds; `undefined` when the record is gone. */
  holds: unknown;
  reason: string;
}

export interface VerifyResult {
  /** Fields read back. */
  checked: number;
  failed: UnverifiedField[];
}

export interface VerifyOptions {
  /** The run's start (ISO): the products it wrote were updated since. */
  since: string;
  defaultLocation?: string;
}

/** A written field a read can check: an update of a variant or a product whose id is known. */
function productIdOf(w: PlannedWrite): number | undefined {
  if (w.action !== 'update' || w.id === undefined) return undefined;
  const raw = w.resource === 'product' ? w.id : w.resource === 'variant' ? w.parent : undefined;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Reads back the products `written` touched and lists every field that does not hold what was written (the last
 * write of a field counts). Creates are not read back: they are the store's answer, not a claim about a record.
 */
export async function verifyWrites(client: StoreClient, written: Iterable<PlannedWrite>, options: VerifyOptions): Promise<VerifyResult> {
  const last = new Map<string, PlannedWrite>();
  for (const w of written) if (productIdOf(w) !== undefined) last.set(`${w.resource}\u0000${w.id}\u0000${w.field}\u0000${w.location ?? ''}`, w);
  const byProduct = new Map<number, PlannedWrite[]>();
  for (const w of last.values()) {
    const id = productIdOf(w)!;
    const list = byProduct.get(id);
    if (list) list.push(w);
    else byProduct.set(id, [w]);
  }
  const productFields = [...new Set([...last.values()].filter((w) => w.resource === 'product').map((w) => w.field))];
  const result: VerifyResult = { checked: 0, failed: [] };
  const fail = (w: PlannedWrite, holds: unknown, reason: string) =>
    result.failed.push({ resource: w.resource, id: String(w.id), key: w.key, field: w.field, ...(w.location ? { location: w.location } : {}), wrote: w.after, holds, reason });
  for await (const page of readTouched(client, byProduct.keys(), { fields: ['variants', ...productFields], since: options.since })) {
    for (const id of page.gone) for (const w of byProduct.get(id) ?? []) fail(w, undefined, 'the product is gone from the store');
    for (const product of page.products) {
      for (const w of byProduct.get(product.id) ?? []) {
        result.checked++;
        let holds: unknown;
        if (w.resource === 'product') holds = productValue(product, w.field);
        else {
          const variant = product.variants.find((v) => String(v.id) === String(w.id));
          if (!variant) {
            fail(w, undefined, 'the variant is gone from the store');
            continue;
          }
          holds = variantValue(variant, w.field, w.location, options.defaultLocation);
        }
        if (!holdsValue(holds, w.after, w.field)) fail(w, holds, `the store holds ${shownValue(holds, w.field)}, not the ${shownValue(w.after, w.field)} it confirmed`);
      }
    }
  }
  return result;
}

/** What `verifyJob` adds to a bulk job's summary. */
export interface VerifiedSummary {
  failed: number;
  failures: ReportRow[];
  /** Records the store confirmed and does not hold as written. */
  unverified?: number;
  /** Fields read back. */
  verified?: number;
}

/**
 * A bulk job's `--verify`: the fields it planned, less the rows that failed (nothing to verify there), read back;
 * each record the store does not hold as written becomes one failed row (stage `verify`, its fields named), so the
 * run ends with exit 3 and `--report` lists it.
 */
export async function verifyJob(
  client: StoreClient,
  writes: Iterable<PlannedWrite>,
  summary: VerifiedSummary,
  options: { since: string; snapshot: { locations: { id: string; is_default?: boolean | null }[] }; lineOf: (key: string) => number },
): Promise<void> {
  const failedKeys = new Set(summary.failures.map((f) => f.key));
  const confirmed = [...writes].filter((w) => !failedKeys.has(w.key));
  const locations = options.snapshot.locations;
  const defaultLocation = (locations.find((l) => l.is_default) ?? locations[0])?.id;
  const result = await verifyWrites(client, confirmed, { since: options.since, defaultLocation });
  const byKey = new Map<string, UnverifiedField[]>();
  for (const f of result.failed) byKey.set(f.key, [...(byKey.get(f.key) ?? []), f]);
  for (const [key, fields] of byKey) {
    const reason = fields.map((f) => `${f.location ? `stock at ${f.location}` : f.field}: ${f.reason}`).join('; ');
    summary.failures.push({ line: options.lineOf(key), key, stage: 'verify', reason });
  }
  summary.unverified = byKey.size;
  summary.failed += byKey.size;
  summary.verified = result.checked;
}

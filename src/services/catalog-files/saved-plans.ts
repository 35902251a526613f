import type { Location } from '../../api/locations.js';
import type { PlanEntry } from '../bulk/plan-file.js';
import type { ReportRow } from '../bulk/report.js';
import type { Plan, ProductPlan, StoreSnapshot } from './plan-model.js';
import type { SyncPlan, SyncWrite } from './sync-types.js';

/**
 * A catalog plan as the entries of a plan file (bulk/plan-file.ts) and back: what `--plan-out` writes after a dry
 * run of `variants sync` or `products import`, and what `store apply` hands back to the same job's execution, so
 * the plan written is exactly the plan looked at. The store values each write was computed against follow as
 * `write` entries (bulk/job.ts), which `store apply` checks against the store before sending anything.
 */

export function* syncPlanEntries(plan: SyncPlan, snapshot: StoreSnapshot): Generator<PlanEntry> {
  yield { t: 'locations', locations: snapshot.locations };
  yield { t: 'sync', unchanged: plan.unchanged, notFoundSkus: plan.notFoundSkus };
  for (const failure of plan.failures) yield { t: 'failure', ...failure };
  for (const w of plan.writes) yield { t: 'sync-write', line: w.line, sku: w.sku, variant: w.variant, body: w.body, zero: w.zero };
}

export function* importPlanEntries(plan: Plan, snapshot: StoreSnapshot): Generator<PlanEntry> {
  yield { t: 'locations', locations: plan.locations ?? snapshot.locations };
  yield { t: 'import', categories: plan.categories, writes: plan.writes, store: snapshot.store };
  for (const product of plan.products) yield { t: 'product', product };
}

/** The snapshot a saved plan keeps: the locations (where plain stock goes); no catalog, which apply reads afresh. */
function savedSnapshot(entries: PlanEntry[], store: StoreSnapshot['store'] = { languages: [], main_language: '' }): StoreSnapshot {
  const locations = (entries.find((e) => e.t === 'locations')?.locations as Location[] | undefined) ?? [];
  return { store, products: [], categories: [], locations, customFields: [] };
}

export function loadSyncPlan(entries: PlanEntry[]): { plan: SyncPlan; snapshot: StoreSnapshot } {
  const head = entries.find((e) => e.t === 'sync') as { unchanged?: number; notFoundSkus?: string[] } | undefined;
  const plan: SyncPlan = {
    writes: entries.filter((e) => e.t === 'sync-write').map(({ t: _t, ...w }) => w as unknown as SyncWrite),
    unchanged: head?.unchanged ?? 0,
    notFoundSkus: head?.notFoundSkus ?? [],
    failures: entries.filter((e) => e.t === 'failure').map(({ t: _t, ...f }) => f as unknown as ReportRow),
  };
  return { plan, snapshot: savedSnapshot(entries) };
}

export function loadImportPlan(entries: PlanEntry[]): { plan: Plan; snapshot: StoreSnapshot } {
  const head = entries.find((e) => e.t === 'import') as { categories?: Plan['categories']; writes?: number; store?: StoreSnapshot['store'] } | undefined;
  const snapshot = savedSnapshot(entries, head?.store);
  const plan: Plan = {
    categories: head?.categories ?? [],
    products: entries.filter((e) => e.t === 'product').map((e) => e.product as ProductPlan),
    fatal: [],
    writes: head?.writes ?? 0,
    locations: snapshot.locations,
  };
  return { plan, snapshot };
}

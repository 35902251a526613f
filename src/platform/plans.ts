/**
 * The platform's plans: their codes, the names the store shows for them (`plan_name` of GET /store), how many
 * locations each allows, and which get ten times the request rate. Used by the sandbox (limits, records) and
 * `sandbox serve --plan`; dependency-free so a command can list the plans in its help.
 */

export const PLANS = ['freemium', 'a', 'b', 'c', 'enterprise', 'next', 'evolution'] as const;
export type Plan = (typeof PLANS)[number];

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** `plan_name` is free text, not the plan code. */
export const PLAN_NAMES: Record<Plan, string> = {
  freemium: 'Freemium',
  a: 'Plan A',
  b: 'Plan B',
  c: 'Plan C',
  enterprise: 'Enterprise',
  next: 'Next',
  evolution: 'Evolution',
};

const LOCATION_LIMITS: Record<Plan, number> = {
  freemium: 1,
  a: 1,
  b: 2,
  c: 3,
  enterprise: Infinity,
  next: Infinity,
  evolution: Infinity,
};

/** How many locations a store of this plan may have (an unknown plan: no limit). */
export function locationLimit(plan: string): number {
  return isPlan(plan) ? LOCATION_LIMITS[plan] : Infinity;
}

/** Plans `next` and `evolution` get the request rate multiplied by 10. */
export function hasHighRate(plan: string): boolean {
  return plan === 'next' || plan === 'evolution';
}

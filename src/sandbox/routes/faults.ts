import type { FastifyInstance } from 'fastify';
import { parseFaults, registerFaults, type FaultPlan } from '../faults.js';
import type { SandboxContext } from '../context.js';

/** The one plan of a sandbox: every version's plugin draws from it, so a seeded run is the same whatever the version. */
const plans = new WeakMap<SandboxContext, FaultPlan>();

/** `--faults` on each version's API plugin (faults.ts documents the spec); OAuth lives outside it and stays untouched. */
export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const plan = registerFaults(api, parseFaults(ctx.options.faults), ctx.clock, plans.get(ctx));
  if (plan) plans.set(ctx, plan);
}

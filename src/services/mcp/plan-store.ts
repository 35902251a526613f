import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { configDir } from '../../util/files.js';

/**
 * The plans `store mcp`'s plan tools make, kept until applied: `$XDG_CONFIG_HOME/store/mcp-plans/<id>.json` (and,
 * for catalog plans, the sealed plan file `store apply` reads beside it). Applying is idempotent by plan id: the
 * first `apply_plan` claims the plan with a file created exclusively (`<id>.claim`, O_EXCL: of two calls at once,
 * in one process or two, one wins), and its result is kept (`<id>.applied.json`), so a retried call answers what
 * the first one did and writes nothing.
 */

export type PlanKind = 'catalog' | 'order' | 'undo';

/** One field the plan changes, old → new, as the agent is shown it. */
export interface PlannedChange {
  key: string;
  field: string;
  before: unknown;
  after: unknown;
  resource?: string;
  /** Stock at a named location: the location's id (plain stock is the default location's). */
  location?: string;
}

export interface StoredPlan {
  id: string;
  kind: PlanKind;
  created_at: string;
  /** Which tool made it, and for whom. */
  tool: string;
  client: string;
  store: { store_id: string; api_host: string };
  summary: string;
  changes: PlannedChange[];
  /** What apply needs: the sealed plan file (catalog), the order and action (order), the run (undo). */
  detail: Record<string, unknown>;
}

export interface AppliedPlan {
  plan: string;
  run: string | null;
  applied_at: string;
  summary: string;
  result: Record<string, unknown>;
}

const PLAN_ID = /^plan_[0-9A-HJKMNP-TV-Z]{26}$/;

export function plansDir(env: NodeJS.ProcessEnv): string {
  const dir = join(configDir(env), 'mcp-plans');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export function newPlanId(): string {
  return `plan_${ulid()}`;
}

/** Where a plan's sealed catalog plan file (and its feed) go. */
export function planPath(env: NodeJS.ProcessEnv, id: string, suffix: string): string {
  return join(plansDir(env), `${id}${suffix}`);
}

export async function savePlan(env: NodeJS.ProcessEnv, plan: StoredPlan): Promise<void> {
  await writeFileAtomic(planPath(env, plan.id, '.json'), `${JSON.stringify(plan)}\n`);
}

export async function loadPlan(env: NodeJS.ProcessEnv, id: string): Promise<StoredPlan> {
  if (!PLAN_ID.test(id)) throw new UsageError(`"${id}" is not a plan id (plan_ and 26 letters and digits, as a plan tool returned).`);
  const text = await readFile(planPath(env, id, '.json'), 'utf8').catch(() => undefined);
  if (text === undefined) throw new UsageError(`No plan ${id} on this machine; make one with a plan_ tool (or undo_run).`);
  return JSON.parse(text) as StoredPlan;
}

export async function appliedResult(env: NodeJS.ProcessEnv, id: string): Promise<AppliedPlan | undefined> {
  const text = await readFile(planPath(env, id, '.applied.json'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as AppliedPlan);
}

/** Claims the plan for this apply; false when another apply claimed it first (done, or under way). */
export async function claimPlan(env: NodeJS.ProcessEnv, id: string, by: string): Promise<boolean> {
  try {
    await writeFile(planPath(env, id, '.claim'), `${JSON.stringify({ by, pid: process.pid, at: new Date().toISOString() })}\n`, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export async function recordApplied(env: NodeJS.ProcessEnv, applied: AppliedPlan): Promise<void> {
  await writeFileAtomic(planPath(env, applied.plan, '.applied.json'), `${JSON.stringify(applied)}\n`);
}

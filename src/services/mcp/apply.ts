import { z } from 'zod';
import { getOrder } from '../../api/orders.js';
import { StoppedBeforeWriting, UsageError } from '../../errors.js';
import { RunRecorder } from '../../ledger/recorder.js';
import { openLedger } from '../../ledger/store.js';
import { parseTimestamp } from '../../platform/timestamps.js';
import { lockStore } from '../bulk/lock.js';
import { runApply } from '../catalog-files/apply/run-apply.js';
import { cancelFoundOrder, closeOrReopenFoundOrder } from '../orders/orders.js';
import { runUndo, type UndoSummary } from '../undo/run-undo.js';
import { applyInvoice, applyShip } from './order-actions.js';
import { type AppliedPlan, appliedResult, claimPlan, loadPlan, type PlannedChange, recordApplied, type StoredPlan } from './plan-store.js';
import type { ToolReply } from './reply.js';
import { type CallContext, type Session, tool } from './session.js';

/**
 * `apply_plan(id)`: writes exactly a plan a plan tool kept, once. The plan is claimed first (plan-store.ts), so a
 * retried or repeated call answers what the first did and sends nothing; a plan the store changed since (a field
 * no longer holding its before-value, an order updated since) is refused with nothing sent; the brakes apply; the
 * store's lock is taken as by the CLI; and the run is recorded in the ledger as `mcp apply_plan`, its arguments
 * naming the plan and the MCP client that asked.
 */

/** The recorder of an apply's run, under the client's name. */
export function recorderFor(session: Session, call: CallContext, planId: string, undoes?: string): RunRecorder {
  const { store, options } = session;
  return new RunRecorder(() => openLedger(options.env), {
    command: 'mcp apply_plan',
    argv: ['apply_plan', planId, '--client', call.clientName],
    profile: store.profile,
    storeId: store.storeId,
    apiHost: new URL(store.apiUrl).host,
    undoes: undoes ?? null,
  });
}

/** A dry run of `store undo RUN` (the ledger and the store read; nothing written). */
export async function undoPreview(session: Session, call: CallContext, runId: string): Promise<UndoSummary> {
  const ledger = openLedger(session.options.env);
  try {
    return await runUndo(session.store.client, ledger, recorderFor(session, call, 'undo-preview'), { runId, dryRun: true, signal: call.signal });
  } finally {
    ledger.close();
  }
}

export function undoChanges(summary: UndoSummary): PlannedChange[] {
  return [
    ...summary.reverted.map((r) => ({ resource: r.resource, key: r.key, field: r.location ? `${r.field}:${r.location}` : r.field, before: r.from, after: r.to })),
    ...summary.deleted.map((d) => ({ resource: d.resource, key: d.key, field: '*', before: 'exists', after: 'deleted' })),
    ...summary.recreated.map((r) => ({ resource: r.resource, key: r.key, field: '*', before: 'deleted', after: 'made again' })),
  ];
}

/** What an undo would do, as text to compare: the same text at apply time means the store is as planned. */
export function undoFingerprint(summary: UndoSummary): string {
  return JSON.stringify({ changes: undoChanges(summary), left: summary.left.map((l) => [l.key, l.field, l.kind]) });
}

interface Outcome {
  summary: string;
  result: Record<string, unknown>;
}

function sameTime(a: unknown, b: unknown): boolean {
  const at = (v: unknown) => (typeof v === 'string' ? (parseTimestamp(v)?.getTime() ?? v) : v);
  return at(a) === at(b);
}

async function applyOrder(session: Session, plan: StoredPlan, recorder: RunRecorder): Promise<Outcome> {
  const { client } = session.store;
  if (plan.detail.action === 'ship') return { summary: await applyShip(client, recorder, plan.detail as never), result: {} };
  if (plan.detail.action === 'attach_invoice') return { summary: await applyInvoice(client, recorder, plan.detail as never), result: {} };
  const detail = plan.detail as { orderId: number; action: 'cancel' | 'close' | 'reopen'; reason: string | null; restock: boolean; before: { status: string; updated_at: string | null } };
  const order = await getOrder(client, detail.orderId);
  if (order.status !== detail.before.status || !sameTime(order.updated_at ?? null, detail.before.updated_at)) {
    throw new StoppedBeforeWriting(
      `Order ${order.number ?? order.id} changed since the plan was made (status ${detail.before.status} → ${order.status}, updated ${detail.before.updated_at ?? '?'} → ${order.updated_at ?? '?'}); nothing was sent. Make the plan again.`,
    );
  }
  const after =
    detail.action === 'cancel'
      ? await cancelFoundOrder(client, recorder, order, { reason: (detail.reason ?? undefined) as never, restock: detail.restock })
      : await closeOrReopenFoundOrder(client, recorder, order, detail.action === 'close' ? 'close' : 'open');
  return { summary: `Order ${after.number ?? after.id} is ${after.status} now.`, result: { order: { id: after.id, number: after.number, status: after.status } } };
}

async function applyUndo(session: Session, call: CallContext, plan: StoredPlan): Promise<{ outcome: Outcome; recorder: RunRecorder }> {
  const detail = plan.detail as { run: string; fingerprint: string };
  const now = await undoPreview(session, call, detail.run);
  if (undoFingerprint(now) !== detail.fingerprint) {
    throw new StoppedBeforeWriting(`The store changed since the undo of run ${detail.run} was planned: it would now do otherwise; nothing was sent. Call undo_run again.`);
  }
  const recorder = recorderFor(session, call, plan.id, now.run.id);
  const ledger = openLedger(session.options.env);
  try {
    const summary = await runUndo(session.store.client, ledger, recorder, { runId: detail.run, brakes: session.options.brakes, signal: call.signal, confirm: async () => true });
    return {
      recorder,
      outcome: {
        summary: `Run ${detail.run} undone: ${summary.reverted.length} field(s) written back, ${summary.failures.length} failed, ${summary.left.length} left.`,
        result: { reverted: summary.reverted.length, failed: summary.failures, left: summary.left.map((l) => ({ key: l.key, field: l.field, why: l.why })) },
      },
    };
  } finally {
    ledger.close();
  }
}

async function applyCatalog(session: Session, call: CallContext, plan: StoredPlan, recorder: RunRecorder): Promise<Outcome> {
  const { store, options } = session;
  const { file } = plan.detail as { file: string };
  const { command, summary } = await runApply(store.client, {
    file,
    name: plan.id,
    recorder,
    apiUrl: store.apiUrl,
    storeId: store.storeId,
    appId: store.appId,
    env: options.env,
    brakes: options.brakes,
    signal: call.signal,
  });
  const counts = summary as unknown as Record<string, unknown>;
  const failures = (counts.failures as unknown[] | undefined) ?? [];
  return {
    summary: `${command} plan written: ${String(counts.updated ?? 0)} updated${counts.created !== undefined ? `, ${String(counts.created)} created` : ''}, ${String(counts.failed ?? 0)} failed.`,
    result: { command, updated: counts.updated ?? null, created: counts.created ?? null, failed: counts.failed ?? null, failures: failures.slice(0, 50) },
  };
}

function appliedReply(applied: AppliedPlan, again: boolean): ToolReply {
  return {
    summary: again ? `Plan ${applied.plan} was applied already (${applied.applied_at}); nothing was sent now. ${applied.summary}` : applied.summary,
    data: { plan_id: applied.plan, run: applied.run, applied_at: applied.applied_at, already_applied: again, ...applied.result },
    isError: Boolean(applied.result.refused) && !again,
  };
}

export const applyPlanTool = tool({
  name: 'apply_plan',
  toolset: 'core',
  write: true,
  title: 'Apply a plan',
  description: 'Write exactly the plan a plan_ tool or undo_run returned, once: refused with nothing sent if the store changed since; a repeated call writes nothing. Recorded in the run ledger (show_run).',
  input: z.object({ plan_id: z.string() }),
  output: z.looseObject({ plan_id: z.string(), run: z.string().nullable(), already_applied: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run(args, session, call) {
    const { env } = session.options;
    const plan = await loadPlan(env, args.plan_id.trim());
    const store = { store_id: session.store.storeId, api_host: new URL(session.store.apiUrl).host };
    if (plan.store.store_id !== store.store_id || plan.store.api_host !== store.api_host) {
      throw new UsageError(`Plan ${plan.id} was made for store ${plan.store.store_id} at ${plan.store.api_host}, not this one; nothing was sent.`);
    }
    const earlier = await appliedResult(env, plan.id);
    if (earlier) return appliedReply(earlier, true);
    // In addition to the plan, where the host can ask the user: a no leaves the plan unapplied (it may be applied later).
    const shown = plan.changes.slice(0, 10).map((c) => `${c.key} ${c.field}${c.location ? ` at location ${c.location}` : ''}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`);
    const confirmed = await call.confirm(`${plan.summary}\n${shown.join('\n')}${plan.changes.length > shown.length ? `\n… and ${plan.changes.length - shown.length} more` : ''}`);
    if (confirmed === false) {
      return { summary: `The user did not confirm plan ${plan.id}; nothing was sent. It can be applied later.`, data: { plan_id: plan.id, run: null, already_applied: false, declined: true } };
    }
    if (!(await claimPlan(env, plan.id, call.clientName))) {
      const done = await appliedResult(env, plan.id);
      if (done) return appliedReply(done, true);
      throw new UsageError(`Plan ${plan.id} is being applied by another call, or its apply stopped without an answer (list_runs shows what was written); nothing was sent now. Make a new plan if needed.`);
    }
    let recorder = recorderFor(session, call, plan.id);
    let outcome: Outcome;
    try {
      // A catalog plan takes the store's lock in the job (runBulkJob), as `store apply` does; the others here.
      if (plan.kind === 'catalog') outcome = await applyCatalog(session, call, plan, recorder);
      else {
        const lock = lockStore({ apiUrl: session.store.apiUrl, storeId: session.store.storeId, appId: session.store.appId, env }, 'mcp apply_plan');
        try {
          if (plan.kind === 'undo') ({ outcome, recorder } = await applyUndo(session, call, plan));
          else outcome = await applyOrder(session, plan, recorder);
        } finally {
          lock.release();
        }
      }
      recorder.finish(0);
    } catch (error) {
      recorder.finish(error instanceof StoppedBeforeWriting ? 5 : 1);
      const message = error instanceof Error ? error.message : String(error);
      // Kept as the plan's outcome: the same plan is never tried twice (a refused one must be planned again).
      const refused: AppliedPlan = { plan: plan.id, run: recorder.runId ?? null, applied_at: new Date().toISOString(), summary: message, result: { refused: true, reason: message } };
      await recordApplied(env, refused);
      return appliedReply(refused, false);
    }
    const applied: AppliedPlan = { plan: plan.id, run: recorder.runId ?? null, applied_at: new Date().toISOString(), summary: `${outcome.summary}${recorder.runId ? ` Run ${recorder.runId} in the ledger.` : ''}`, result: outcome.result };
    await recordApplied(env, applied);
    return appliedReply(applied, false);
  },
});

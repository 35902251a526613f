import { formatBytes } from '../client/errors.js';
import type { RunRecord } from '../ledger/types.js';
import { type Column, plural, terminalSafe, truncateToWidth } from '../output/format.js';
import type { ShownChange } from '../services/runs/runs.js';

/** How the run ledger reads (docs/ledger.md): `runs list`, `runs show`, `history`. */

/** A run's state in one word: ok, exit N, or running/died (no end recorded). */
export function runState(run: RunRecord): string {
  if (run.exit_code === null) return 'no end';
  return run.exit_code === 0 ? (run.failed + run.unknown > 0 ? 'partial' : 'ok') : `exit ${run.exit_code}`;
}

/** `runs list`: fits 80 columns (the id whole, the command cut, counts right-aligned). */
export const runColumns: Column<RunRecord>[] = [
  { header: 'id', get: (r) => r.id, kind: 'id' },
  { header: 'started_at', label: 'started', get: (r) => r.started_at, kind: 'time' },
  { header: 'command', get: (r) => r.command, kind: 'text' },
  { header: 'state', get: (r) => runState(r), kind: 'state' },
  { header: 'changes', get: (r) => r.changes, kind: 'count' },
  { header: 'failed', get: (r) => r.failed, kind: 'count', priority: 1 },
  { header: 'unknown', get: (r) => r.unknown, kind: 'count', priority: 1 },
  { header: 'ended_at', label: 'ended', get: (r) => r.ended_at, kind: 'time', priority: 3 },
  { header: 'exit_code', label: 'exit', get: (r) => r.exit_code, kind: 'count', priority: 2 },
];

/** The ledger's file and size, said under `runs list` (stderr). */
export function ledgerSizeLine(path: string, bytes: number, runs: number): string {
  return `Ledger ${path}: ${formatBytes(bytes)}; ${plural(runs, 'run')} listed (\`store runs prune --older-than 90d\` keeps it small).`;
}

/** `runs show`: the run's summary, before its changes. */
export function runSummaryLines(run: RunRecord): string[] {
  const seconds = run.ended_at ? Math.round((Date.parse(run.ended_at) - Date.parse(run.started_at)) / 1000) : undefined;
  const ended = run.ended_at ? `ended ${run.ended_at} (${seconds} s), exit ${run.exit_code}` : `no end recorded (still running as pid ${run.pid}, or it was killed)`;
  const where = [run.profile && `profile ${run.profile}`, run.store_id && `store ${run.store_id}`, run.api_host && `at ${run.api_host}`].filter(Boolean).join(', ');
  return [
    `Run ${run.id}: store ${[run.command, ...run.argv].join(' ')}`,
    ...(where ? [`  ${where}`] : []),
    `  started ${run.started_at}, ${ended}`,
    ...(run.undoes ? [`  undoes run ${run.undoes}`] : []),
    `  ${plural(run.changes, 'change')}: ${run.confirmed} confirmed, ${run.failed} failed, ${run.unknown} unknown`,
  ];
}

const SECTION: Record<string, string> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  action: 'Actions',
  request: 'Raw requests',
};

/** A value as a change line shows it: text as it is, (none) for null, (not known) when nothing was read. */
function valueText(value: unknown, known = true): string {
  if (!known) return '(not known)';
  if (value === null || value === undefined || value === '') return '(none)';
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** One field of a change: `price 10.00 → 12.00`, `stock@LOC 3 → 5`, a create's or delete's record in short. */
function fieldText(c: ShownChange): string {
  const field = c.location ? `${c.field}@${c.location}` : c.field;
  if (c.kind === 'create') return c.field === '*' ? 'created' : `${field} + ${valueText(c.after)}`;
  if (c.kind === 'delete') return c.before_known ? 'deleted (kept whole in the ledger)' : 'deleted';
  if (c.kind === 'request') return `${c.field} ${c.id ?? ''}`.trim();
  return `${field} ${valueText(c.before, c.before_known)} → ${valueText(c.after)}`;
}

/** What a change's record is called on its line: resource, key and id. */
function recordName(c: ShownChange): string {
  const key = c.key && c.key !== c.id ? ` ${c.key}` : '';
  return `${c.resource}${key}${c.id ? ` (${c.id})` : ''}`;
}

/**
 * The changes of a run as lines, grouped like a dry run's plan (views/bulk.ts): a heading per kind of write, one
 * line per record with each field old → new, and what did not end confirmed marked. Lines are made as the
 * changes are read, so a run of any size starts printing at once; a record's consecutive changes share a line.
 */
export function* changeLines(changes: Iterable<ShownChange>, width: number): Generator<string> {
  let section: string | undefined;
  let line: { name: string; record: string; parts: string[] } | undefined;
  const flush = function* () {
    if (line) yield truncateToWidth(terminalSafe(`  ${line.name}: ${line.parts.join('; ')}`), width);
    line = undefined;
  };
  for (const c of changes) {
    const heading = SECTION[c.kind] ?? c.kind;
    const record = `${c.resource}|${c.id}|${c.key}|${c.kind}`;
    if (line && line.record !== record) yield* flush();
    if (heading !== section) {
      yield* flush();
      section = heading;
      yield `${heading}:`;
    }
    const mark = c.outcome === 'confirmed' ? '' : ` [${c.outcome}${c.reason ? `: ${c.reason}` : ''}]`;
    const irreversible = c.irreversible ? ` [irreversible: ${c.irreversible}]` : '';
    line ??= { name: recordName(c), record, parts: [] };
    line.parts.push(`${fieldText(c)}${mark}${irreversible}`);
  }
  yield* flush();
}

/** `runs show --csv` and `history --csv`: one row per change. */
export const changeColumns: Column<ShownChange>[] = [
  { header: 'run', get: (c) => c.run, kind: 'id' },
  { header: 'seq', get: (c) => c.seq, kind: 'count', priority: 3 },
  { header: 'resource', get: (c) => c.resource, kind: 'id' },
  { header: 'id', get: (c) => c.id, kind: 'id' },
  { header: 'parent', get: (c) => c.parent, kind: 'id', priority: 3 },
  { header: 'key', get: (c) => c.key, kind: 'id' },
  { header: 'field', get: (c) => (c.location ? `${c.field}@${c.location}` : c.field), kind: 'id' },
  { header: 'kind', get: (c) => c.kind, kind: 'state', priority: 2 },
  { header: 'before', get: (c) => (c.before_known ? valueText(c.before) : ''), kind: 'text' },
  { header: 'after', get: (c) => valueText(c.after), kind: 'text' },
  { header: 'outcome', get: (c) => c.outcome, kind: 'state' },
  { header: 'reason', get: (c) => c.reason, kind: 'text', priority: 4 },
];

/** `history KEY` on a terminal: when, which run, the field old → new, the outcome. */
export const historyColumns: Column<ShownChange>[] = [
  { header: 'at', label: 'when', get: (c) => c.at, kind: 'time' },
  { header: 'run', get: (c) => c.run, kind: 'id', priority: 1 },
  { header: 'resource', get: (c) => c.resource, kind: 'id', priority: 2 },
  { header: 'key', get: (c) => c.key ?? c.id, kind: 'id', priority: 1 },
  { header: 'field', get: (c) => (c.location ? `${c.field}@${c.location}` : c.field), kind: 'id' },
  { header: 'before', get: (c) => valueText(c.before, c.before_known), kind: 'text' },
  { header: 'after', get: (c) => valueText(c.after), kind: 'text' },
  { header: 'outcome', get: (c) => c.outcome, kind: 'state' },
];

/** `config list`. */
export const settingColumns: Column<{ name: string; value: string | null; flag: string; description: string }>[] = [
  { header: 'name', get: (s) => s.name, kind: 'id' },
  { header: 'value', get: (s) => s.value, kind: 'id' },
  { header: 'flag', get: (s) => s.flag, kind: 'id', priority: 2 },
  { header: 'description', get: (s) => s.description, kind: 'text', priority: 1 },
];

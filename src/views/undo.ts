import { plural, terminalSafe } from '../output/format.js';
import { formatDuration } from '../output/progress.js';
import { shownValue } from '../services/catalog-files/record-values.js';
import type { LeftField } from '../services/undo/plan-product.js';
import type { RevertedField, UndoPreview, UndoSummary } from '../services/undo/summary.js';

/**
 * How `store undo RUN` reads: the question it asks, then what it put back, what it deleted or made again, and —
 * listed one by one, never only counted — what it left as it is and why (changed since by someone else, an action
 * no write takes back, a value the run did not know). A dry run shows each field it would write back.
 */

/** Fields listed one by one (a dry run's, and those left); the rest are counted. */
export const UNDO_LINES = 50;

const what = (run: UndoPreview['run']) => `run ${run.id} (${run.command}, ${run.started_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')})`;

export function undoQuestion(p: UndoPreview): string {
  const resumed = p.resumes.length > 0 ? `, finishing the interrupted undo ${p.resumes[0]}` : '';
  return `Undo ${plural(p.fields, 'change')} to ${plural(p.records, 'record')} of ${what(p.run)}${resumed}?`;
}

const fieldName = (f: { field: string; location: string | null }) => (f.location ? `stock at ${f.location}` : f.field);
const recordName = (f: { resource: string; id: string | null; key: string }) => `${terminalSafe(f.key || f.id || '')} (${f.resource}${f.id && f.id !== f.key ? ` ${f.id}` : ''})`;

function revertedLine(r: RevertedField): string {
  return `  ${recordName(r)} ${fieldName(r)}: ${shownValue(r.from, r.field)} → ${shownValue(r.to, r.field)}`;
}

function leftLine(l: LeftField): string {
  const values = l.field === '*' ? '' : `: the run wrote ${shownValue(l.wrote, l.field)}${l.now === undefined ? '' : `, the store holds ${shownValue(l.now, l.field)}`}`;
  return `  ${recordName(l)} ${l.field === '*' ? '' : fieldName(l)}${values} — ${l.why}`.replace('  —', ' —');
}

function listed<T>(items: T[], line: (item: T) => string, more: string): string[] {
  const lines = items.slice(0, UNDO_LINES).map(line);
  if (items.length > UNDO_LINES) lines.push(`  … and ${plural(items.length - UNDO_LINES, more)} (--json lists them all)`);
  return lines;
}

/** The summary on stdout. */
export function undoLines(s: UndoSummary): string[] {
  if (s.cancelled) return [];
  const verb = s.dryRun ? 'Would undo' : s.interrupted ? 'Interrupted undo of' : 'Undid';
  const lines = [`${verb} ${what(s.run)}: ${plural(s.preview.fields, 'change')} to ${plural(s.preview.records, 'record')}.`];
  const stock = s.reverted.filter((r) => r.field === 'stock').length;
  lines.push(`  written back: ${plural(s.reverted.length, 'field')}${stock ? ` (${stock} stock by difference: sales since are kept)` : ''}`);
  if (s.deleted.length || s.recreated.length) lines.push(`  records:      ${s.deleted.length} deleted (made by the run, unchanged since), ${s.recreated.length} made again (deleted by the run)`);
  lines.push(`  left as is:   ${plural(s.left.length, 'field')}${s.left.length ? ' (listed below)' : ''}`);
  const quiet = [s.already && `${s.already} already as before`, s.notApplied && `${s.notApplied} never applied by the store`, s.doneEarlier && `${s.doneEarlier} done by the interrupted undo`].filter(Boolean);
  if (quiet.length) lines.push(`  nothing to do: ${quiet.join(', ')}`);
  if (s.failures.length) lines.push(`  failed:       ${plural(s.failures.length, 'field')} (listed on stderr)`);
  if (s.verify) lines.push(`  verified:     ${plural(s.verify.checked, 'field')} read back${s.verify.failed.length ? `; ${s.verify.failed.length} not held as written (listed on stderr)` : ', all held as written'}`);
  lines.push(`  requests:     ${s.requests} sent, ${formatDuration(s.seconds)}`);
  if (s.dryRun && s.reverted.length) lines.push('Would write back:', ...listed(s.reverted, revertedLine, 'more field'));
  return lines;
}

/** What stderr lists: the fields left and why, the records that cannot come back, notes, failures. */
export function undoNotices(s: UndoSummary): string[] {
  const lines: string[] = [];
  const irreversible = s.left.filter((l) => l.kind === 'irreversible');
  const changed = s.left.filter((l) => l.kind !== 'irreversible');
  if (changed.length) lines.push('Left as the store has them (changed since the run, gone, or not known; --force writes a field changed since back):', ...listed(changed, leftLine, 'more field'));
  if (irreversible.length) lines.push('Not undone (no write takes these back):', ...listed(irreversible, leftLine, 'more'));
  for (const r of s.recreated) lines.push(`Made again: ${terminalSafe(r.key)} — ${r.lost}.`);
  for (const n of s.notes) lines.push(`Note: ${terminalSafe(n)}.`);
  for (const f of s.failures) lines.push(`Failed: ${terminalSafe(f.key)} ${f.field}: ${terminalSafe(f.reason)}.`);
  for (const f of s.verify?.failed ?? []) lines.push(`Not held as written: ${terminalSafe(f.key)} ${f.location ? `stock at ${f.location}` : f.field}: ${terminalSafe(f.reason)}.`);
  return lines;
}

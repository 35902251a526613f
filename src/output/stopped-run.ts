import { plural, terminalSafe } from './format.js';
import { type TrippedBrake, type TrippedRecord, brakeSentence } from '../services/bulk/brakes.js';
import type { StaleRecord } from '../services/catalog-files/apply/unchanged.js';
import { shownValue } from '../services/catalog-files/record-values.js';

/**
 * What a run stopped before its first write (exit 5) prints on stderr under its plan's summary: each brake that
 * tripped and the records that tripped it, or each record a saved plan touches that the store changed since.
 */

/** Records listed per brake; the rest are counted (`--dry-run` lists the whole plan). */
export const RECORDS_SHOWN = 20;

const recordName = (r: { resource: string; id?: number | string; key: string }) =>
  `${terminalSafe(r.key || String(r.id ?? ''))}${r.id !== undefined && String(r.id) !== r.key ? ` (${r.resource} ${r.id})` : ` (${r.resource})`}`;

function recordLine(brake: TrippedBrake['brake'], r: TrippedRecord): string {
  const name = recordName(r);
  if (brake === 'max-price-change') {
    const sign = Number(r.after) >= Number(r.before) ? '+' : '−';
    return `  ${name}: ${r.field} ${shownValue(r.before, r.field)} → ${shownValue(r.after, r.field)} (${sign}${(r.percent ?? 0).toLocaleString('en-US')}%)`;
  }
  if (brake === 'max-zero-stock') return `  ${name}: stock ${shownValue(r.before, 'stock')} → 0`;
  return `  ${name}`;
}

export function brakeLines(tripped: TrippedBrake[]): string[] {
  const lines: string[] = [];
  for (const t of tripped) {
    lines.push(`Stopped by ${brakeSentence(t)}:`);
    for (const r of t.records.slice(0, RECORDS_SHOWN)) lines.push(recordLine(t.brake, r));
    if (t.records.length > RECORDS_SHOWN) lines.push(`  … and ${plural(t.records.length - RECORDS_SHOWN, 'more record')} (\`--dry-run\` lists the plan).`);
  }
  lines.push('Nothing was sent. Raise the brake (or drop it) if this plan is what you mean.');
  return lines;
}

export function staleLines(stale: StaleRecord[]): string[] {
  const lines = [`Changed in the store since the plan was made (${plural(stale.length, 'field')}):`];
  for (const s of stale) {
    const field = s.field ? ` ${s.location ? `stock at ${s.location}` : s.field}` : '';
    lines.push(`  ${recordName(s)}${field}: ${s.why}`);
  }
  lines.push('Nothing was sent. Make the plan again (`--plan-out`) against the store as it is now.');
  return lines;
}

/**
 * The platform's timestamps (docs/platform.md §0) come with either offset form: `2022-02-23T12:25:18+0000` and
 * `2013-01-03T09:11:51-03:00`. The client reads both and writes one (docs/decisions.md "Tables that fit").
 */

const COMPACT_OFFSET = /([+-]\d{2})(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** The timestamp in ISO 8601's extended form (`+00:00`, a T between date and time), its offset kept; other text as it is. */
export function normalizeTimestamp(value: string): string {
  const trimmed = value.trim();
  if (!TIMESTAMP.test(trimmed)) return value;
  return trimmed.replace(COMPACT_OFFSET, '$1:$2').replace(' ', 'T');
}

/** The moment a timestamp names (either offset form), or undefined when the text is not one. */
export function parseTimestamp(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value.trim().replace(COMPACT_OFFSET, '$1:$2').replace(/ /, 'T'));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

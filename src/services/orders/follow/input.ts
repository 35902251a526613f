import { UsageError } from '../../../errors.js';
import { MAX_TIMER_MS } from '../../../platform/clock.js';
import { parseDate } from '../../common/validate.js';

/** The flags of `orders follow` that are read before any request: the feed's name, the interval, --since. */

/** A feed's name: it names the checkpoint file. */
export function parseFeedName(value: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(value)) return value;
  throw new UsageError(`--name "${value}" is not a feed name; use letters, digits, ".", "_" or "-" (at most 64), such as erp.`);
}

/** `--interval 30s|5m|1h|90`: seconds when no unit is given; at least one second. */
export function parseInterval(value: string): number {
  const match = /^\s*(\d{1,7})\s*(s|m|h)?\s*$/i.exec(value);
  const ms = match ? Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's').toLowerCase() as 's' | 'm' | 'h'] : 0;
  if (!match || ms < 1000) throw new UsageError(`--interval "${value}" is not a duration of at least 1 second; write it like 30s, 5m or 1h.`);
  // Past Node's longest timer the wait would fire after 1 ms: the feed would poll without pause.
  const most = Math.floor(MAX_TIMER_MS / 3_600_000);
  if (ms > MAX_TIMER_MS) throw new UsageError(`--interval "${value}" is too long: at most ${most}h (about ${Math.floor(most / 24)} days).`);
  return ms;
}

/**
 * The time `--since` names (the first run's start). The one place the flag is read, so that it takes the
 * date forms of `orders list` (services/common/validate.ts) as they grow.
 */
export function parseSince(value: string): number {
  return Date.parse(parseDate('--since', value));
}

import type { Webhook } from '../api/webhooks.js';
import { cellText, type Column, displayWidth, truncateToWidth } from '../output/format.js';
import type { ReceivedNotification } from '../services/webhooks/listener.js';

/** Names only: custom headers often carry a receiver's key, and tables end up in screenshots (`--json` has all). */
function headerNames(headers: Webhook['headers']): string {
  return Object.keys(headers ?? {}).join(', ');
}

/** `webhooks list`, and the webhook `add` and `update` print. */
export const webhookColumns: Column<Webhook>[] = [
  { header: 'id', get: (w) => w.id, kind: 'id' },
  { header: 'event', get: (w) => w.event, kind: 'id' },
  { header: 'url', get: (w) => w.url, kind: 'text' },
  { header: 'headers', get: (w) => headerNames(w.headers), kind: 'text', priority: 2 },
  { header: 'created_at', label: 'created', get: (row) => row.created_at, kind: 'time', priority: 1 },
];

/** What `webhooks listen` says once it is ready, in one line on stderr. */
export function readyLine(url: string, registered: number, opts: { register: boolean; forwardTo?: string }): string {
  const what = registered > 0 || opts.register
    ? `${registered} webhook${registered === 1 ? '' : 's'} registered`
    : 'register it with `store webhooks add EVENT URL`';
  return `Ready! Listening on ${url}, ${what}${opts.forwardTo ? `, forwarding to ${opts.forwardTo}` : ''} (Ctrl-C to quit)`;
}

/**
 * One notification `webhooks listen` received. On a terminal (`width` given): the local time, the event, the id
 * whole, and the summary cut with … so the line fits; piped: tab-separated, ISO 8601 time, nothing cut.
 */
export function notificationLine(n: ReceivedNotification, width?: number): string {
  const [at, event, id, summary] = [n.received_at, n.event, n.id === undefined ? '-' : String(n.id), n.summary].map((c) => cellText(c)) as [
    string, string, string, string,
  ];
  if (width === undefined) return `${[at, event, id, summary].join('\t')}\n`;
  const received = new Date(at);
  const time = Number.isNaN(received.getTime()) ? at : received.toTimeString().slice(0, 8);
  // Most events are 20 characters or fewer: aligned then; the long fulfillment-order ones take their length.
  const head = `${time}  ${event.padEnd(20)}  ${id}`;
  const room = width - displayWidth(head) - 2;
  if (summary === '' || room < 2) return `${head}\n`;
  // A summary names products and customers: measured in terminal columns (an emoji or CJK takes two).
  return `${head}  ${truncateToWidth(summary, room)}\n`;
}

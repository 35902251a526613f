import type { Webhook } from '../api/webhooks.js';
import { cellText, type Column } from '../output/format.js';
import type { ReceivedNotification } from '../services/webhooks-listener.js';

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

/** One notification `webhooks listen` received: aligned columns on a terminal, tab-separated when piped. */
export function notificationLine(n: ReceivedNotification, tty: boolean): string {
  const cells = [n.received_at, n.event, n.id === undefined ? '-' : String(n.id), n.summary].map((c) => cellText(c));
  return `${tty ? `${cells[0]}  ${cells[1]!.padEnd(41)} ${cells[2]!.padEnd(26)} ${cells[3]}` : cells.join('\t')}\n`;
}

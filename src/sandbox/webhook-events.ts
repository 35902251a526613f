/**
 * The webhook events the sandbox accepts and emits: the platform's documented list (spec/platform.md §7), the
 * same list the client knows (src/api/webhook-events.ts, dependency-free), not a copy of it.
 */
export { WEBHOOK_EVENTS } from '../api/webhook-events.js';

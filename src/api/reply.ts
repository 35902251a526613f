import type { z } from 'zod';
import { StoreError } from '../errors.js';

/** The server answered 2xx with a body that is not the record we expect (exit 1, docs/exit-codes.md). */
export class UnexpectedReplyError extends StoreError {
  constructor(what: string, detail: string) {
    super(`The store sent an unexpected ${what}: ${detail}.`, 1);
    this.name = 'UnexpectedReplyError';
  }
}

/**
 * Checks a reply against a resource's schema. Schemas are loose objects: fields the platform adds later
 * pass through untouched, while the fields the CLI relies on are checked.
 */
export function parseReply<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new UnexpectedReplyError(what, `${issue.message}${where}`);
}

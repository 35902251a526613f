import { z } from 'zod';
import type { StoreClient } from '../client/index.js';
import { parseReply } from './reply.js';

/**
 * GET /store (DESIGN.md §5.19): tells the client whether the store is multilingual and which language
 * keys to send in localized fields, and which plan (location limits) it is on.
 *
 * This module is the template for every resource module: zod schemas of the records (loose objects),
 * and one small function per endpoint that calls the client and checks the reply.
 */
export const StoreInfoSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  name: z.union([z.string(), z.record(z.string(), z.string())]),
  plan: z.string(),
  languages: z.array(z.string()),
  main_language: z.string(),
  currency: z.string(),
  country: z.string(),
});
export type StoreInfo = z.infer<typeof StoreInfoSchema>;

export async function getStore(client: StoreClient): Promise<StoreInfo> {
  const res = await client.request({ method: 'GET', path: '/store' });
  return parseReply(StoreInfoSchema, res.body, 'store record');
}

/** A localized field as the store expects it: a plain string on a one-language store, else keyed by language. */
export function isMultilingual(store: StoreInfo): boolean {
  return store.languages.length > 1;
}

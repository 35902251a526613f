/** The order versions `orders follow` delivers, as its tests compare them: (id, updated_at) keys and NDJSON lines. */

export interface OrderJson {
  id: number;
  number: number;
  updated_at: string;
  created_at: string;
}

/** An order version's key, `id@updated_at in ms` (both offset forms read). */
export const versionKey = (o: { id: number; updated_at: string }) => `${o.id}@${Date.parse(o.updated_at.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))}`;

/** The orders of NDJSON text, one a line. */
export const ndjsonOrders = (text: string): OrderJson[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as OrderJson);

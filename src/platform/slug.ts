/**
 * The URL slug of a text (docs/csv.md "Catalog"): lower case, accents removed, runs of other characters → `-`, no `-` at
 * either end. The importer computes product keys with this same function, so both sides agree.
 */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

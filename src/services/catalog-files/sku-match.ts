/**
 * SKUs are compared exactly, as the store holds them (issue 31): a SKU typed with a trailing space in the admin,
 * or composed in another Unicode form, is a different SKU to the store. Such a near miss is reported as what it is
 * ("the store's SKU has a trailing space"), and the variant is never zeroed, written or created because of it.
 */

/** What two SKUs that differ only in whitespace or Unicode normalisation share. */
export function looseSku(sku: string): string {
  return sku.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** How the store's SKU differs from the file's, in words; undefined when they are the same string. */
export function skuDifference(fileSku: string, storeSku: string): string | undefined {
  if (fileSku === storeSku) return undefined;
  const differences: string[] = [];
  if (/^\s/u.test(storeSku) && !/^\s/u.test(fileSku)) differences.push('a leading space');
  if (/\s$/u.test(storeSku) && !/\s$/u.test(fileSku)) differences.push('a trailing space');
  const inner = (s: string) => s.trim().replace(/\s+/gu, ' ');
  if (inner(storeSku) === inner(fileSku)) return `the store's SKU ${JSON.stringify(storeSku)} has ${differences.join(' and ')}`;
  if (storeSku.normalize('NFC') === fileSku.normalize('NFC')) {
    return `the store's SKU ${JSON.stringify(storeSku)} is written in another Unicode form (${storeSku.normalize('NFC') === storeSku ? 'NFC' : 'decomposed, NFD'})`;
  }
  return `the store's SKU ${JSON.stringify(storeSku)} differs in whitespace${differences.length > 0 ? ` (${differences.join(' and ')})` : ''} or Unicode form`;
}

/** The failed row's reason for a SKU the store holds only in a near form. */
export function nearSkuReason(fileSku: string, storeSkus: string[]): string {
  const described = [...new Set(storeSkus)].map((s) => skuDifference(fileSku, s)).join('; ');
  return `SKU ${fileSku} is not in the store as written: ${described}. Nothing was written to it; make the file and the store agree`;
}

import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../platform/pagination.js';

/** The records of one page of a listing, with x-total-count when the store sent it. */
export interface ListPage<T> {
  items: T[];
  total?: number;
}

/** Which part of a listing to show: the paging flags as the services take them. */
export interface Paging {
  /** At most this many records, from the first page on (default DEFAULT_PER_PAGE). */
  limit?: number;
  /** One given page instead, of `perPage` records. */
  page?: number;
  perPage?: number;
  /** Every record. */
  all?: boolean;
}

/** How a listing is read from the store: one page, or every page from the first (following the Link header). */
export interface ListSource<T> {
  page(page: number, perPage: number): Promise<ListPage<T>>;
  pages(perPage: number): AsyncIterable<ListPage<T>>;
  id(item: T): number | string;
}

/**
 * The pages of a listing as they arrive, so that `--all` prints a store of any size without holding it:
 * `--page` is one request; otherwise pages from the first, `--limit` cutting the last one short. On a list
 * newest first (orders), a record created while we page pushes the others down one place, so the next page
 * starts with one already listed: skipping seen ids keeps each record once.
 */
export async function* listPages<T>(source: ListSource<T>, paging: Paging): AsyncGenerator<ListPage<T>> {
  if (paging.page !== undefined) {
    yield await source.page(paging.page, paging.perPage ?? DEFAULT_PER_PAGE);
    return;
  }
  let left = paging.all ? Number.POSITIVE_INFINITY : (paging.limit ?? DEFAULT_PER_PAGE);
  const seen = new Set<number | string>();
  for await (const page of source.pages(Math.min(left, MAX_PER_PAGE))) {
    const items = page.items.filter((item) => !seen.has(source.id(item))).slice(0, left);
    for (const item of items) seen.add(source.id(item));
    left -= items.length;
    yield { items, total: page.total };
    if (left <= 0) return;
  }
}

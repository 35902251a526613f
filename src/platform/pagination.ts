/** Page sizes of every list endpoint (docs/platform.md "Pagination"). */

/** What a list answers when the request names no per_page. */
export const DEFAULT_PER_PAGE = 30;
/** The largest page the API serves: the client asks for it when fetching everything. */
export const MAX_PER_PAGE = 200;
/**
 * GET /orders serves at most this many results of one query (docs/platform.md §9): a page reaching past the
 * 10,000th is refused. Readers of every order split the query into created_at windows of at most this many.
 */
export const ORDER_QUERY_LIMIT = 10_000;

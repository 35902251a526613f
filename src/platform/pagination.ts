/** Page sizes of every list endpoint (docs/platform.md "Pagination"). */

/** What a list answers when the request names no per_page. */
export const DEFAULT_PER_PAGE = 30;
/** The largest page the API serves: the client asks for it when fetching everything. */
export const MAX_PER_PAGE = 200;

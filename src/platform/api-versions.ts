/**
 * The API versions of the platform (docs/platform.md §12): paths are `{base}/{version}/{store_id}/…`, with `v1` or a
 * dated stable version. `v1` gets no new features after 2025-03 but is not retired: it stays the default until the
 * platform publishes a sunset. The resources this project uses keep their paths and shapes between the two;
 * `2025-03` dropped the deprecated shipping actions (`POST /orders/{id}/pack|fulfill`, §10).
 */
export const API_VERSIONS = ['v1', '2025-03'] as const;

export type ApiVersion = (typeof API_VERSIONS)[number];

export const DEFAULT_API_VERSION: ApiVersion = 'v1';

export function isApiVersion(value: string): value is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(value);
}

/** A path segment that names a version, known or not: `v1`, `v2`, `2025-03` (a pasted URL's, a raw path's). */
export const VERSION_SEGMENT = /^(v\d+|\d{4}-\d{2})$/;

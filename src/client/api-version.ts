import { UsageError } from '../errors.js';
import { API_VERSIONS, DEFAULT_API_VERSION, isApiVersion, type ApiVersion } from '../platform/api-versions.js';

/**
 * The API version every path of a client goes through (docs/platform.md §12): `v1` unless told. An unknown one is
 * one sentence naming where it came from (`--api-version`, the profile's setting), said before any request.
 */
export function checkedApiVersion(value: string | undefined, source = '--api-version'): ApiVersion {
  if (value === undefined || value.trim() === '') return DEFAULT_API_VERSION;
  const text = value.trim();
  if (isApiVersion(text)) return text;
  throw new UsageError(`Unknown API version "${value}" (${source}); the platform's versions are ${API_VERSIONS.join(' and ')}.`);
}

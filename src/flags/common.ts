import { Flags } from '@oclif/core';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../platform/pagination.js';

/**
 * Flags several commands share, defined once so that they read and behave the same everywhere. Only flag
 * specs live here (src/commands/ would take any file for a command); BaseCommand and the commands use them.
 */

/**
 * The fleet flags (docs/fleet.md): the same command over several profiles, each store its own process. Every
 * command has them (a command that reaches no store refuses them in one sentence).
 */
export const FLEET_FLAGS = {
  profiles: Flags.string({
    description: 'Run over these profiles (comma-separated), each store on its own, side by side: a fleet (docs/fleet.md).',
    helpGroup: 'FLEET',
    helpValue: 'A,B,…',
    exclusive: ['all-profiles', 'fleet', 'profile'],
  }),
  'all-profiles': Flags.boolean({
    description: 'Run over every profile, each store on its own.',
    helpGroup: 'FLEET',
    exclusive: ['fleet', 'profile'],
  }),
  fleet: Flags.string({
    description: 'Run over the stores of this file (JSON, CSV or TSV: profile, then values its {column} arguments take).',
    helpGroup: 'FLEET',
    helpValue: 'FILE',
    exclusive: ['profile'],
  }),
  concurrency: Flags.integer({
    description: 'Stores run at once in a fleet (default: the stores, at most 8).',
    helpGroup: 'FLEET',
    min: 1,
    max: 256,
  }),
  'output-dir': Flags.string({
    description: "A fleet's output, reports and exports, in one folder per store (DIR/PROFILE/).",
    helpGroup: 'FLEET',
    helpValue: 'DIR',
  }),
  shard: Flags.string({
    description: "Run only this machine's part of the fleet: i/N, or auto (JOB_COMPLETION_INDEX or STORE_SHARD_INDEX, with STORE_SHARD_COUNT).",
    helpGroup: 'FLEET',
    helpValue: 'i/N|auto',
  }),
  'results-dir': Flags.string({
    description: 'Write one JSON result per store here (`store fleet merge DIR` sums up the shards).',
    helpGroup: 'FLEET',
    helpValue: 'DIR',
  }),
  yes: Flags.boolean({
    char: 'y',
    description: 'Write to every store of a fleet without asking (needed when not on a terminal).',
    helpGroup: 'FLEET',
  }),
};

/** Flags of every command. */
export const GLOBAL_FLAGS = {
  ...FLEET_FLAGS,
  profile: Flags.string({
    description: 'Profile to use (default: the one chosen with `store auth switch`).',
    env: 'STORE_PROFILE',
    helpGroup: 'GLOBAL',
  }),
  debug: Flags.boolean({
    description: 'Log every HTTP request and response line to stderr (token redacted).',
    helpGroup: 'GLOBAL',
  }),
  'api-version': Flags.string({
    description: 'The platform API version every request names: v1 (the default) or 2025-03. Also a profile setting: `store config set api-version 2025-03`.',
    env: 'STORE_API_VERSION',
    helpGroup: 'GLOBAL',
    helpValue: 'v1|2025-03',
  }),
  'allow-insecure-http': Flags.boolean({
    description: 'Send the token over plain http:// to a host other than this machine (refused otherwise).',
    env: 'STORE_ALLOW_INSECURE_HTTP',
    helpGroup: 'GLOBAL',
  }),
};

/**
 * Flags of the commands that print records (`static enableJsonFlag = true`), like gh's: `--json` prints
 * everything, `--json id,status` only those fields, `--jq` filters the JSON. They replace oclif's boolean
 * `--json` (same name, so oclif's own is never added); BaseCommand takes the field list off argv before oclif parses.
 */
export const RECORD_FLAGS = {
  json: Flags.boolean({
    description: 'Print JSON. `--json FIELDS` (comma-separated, e.g. --json id,status) prints only those fields.',
    helpGroup: 'GLOBAL',
  }),
  jq: Flags.string({
    description: "Filter the JSON with a jq expression (implies --json), e.g. --jq '.[0].id'.",
    helpGroup: 'GLOBAL',
    helpValue: 'EXPR',
  }),
  wide: Flags.boolean({
    description: 'Show every column of a table, nothing cut (else a narrow terminal drops some).',
    helpGroup: 'GLOBAL',
  }),
};

/** `--csv` of every command that lists records (a table on a terminal and TSV when piped otherwise). */
export const csvFlag = Flags.boolean({ description: 'Print CSV (formula-escaped) instead of a table.' });

/**
 * The paging flags of the lists that can be long (orders, products): without them the first
 * DEFAULT_PER_PAGE records; `--per-page` without `--page` is refused by the paged-list helper (it names the
 * flag to use instead). `one` names a record ("order"), for the help.
 */
export function pagingFlags(one: string) {
  const many = `${one}s`;
  return {
    limit: Flags.integer({
      description: `Show at most this many ${many}, from the first page on (default ${DEFAULT_PER_PAGE}).`,
      min: 1,
      exclusive: ['all', 'page', 'per-page'],
    }),
    // Each pair is declared once, so a clash is one sentence.
    all: Flags.boolean({ description: `Fetch every matching ${one}, ${MAX_PER_PAGE} per request.`, exclusive: ['page', 'per-page'] }),
    page: Flags.integer({ description: 'Show this page only (from 1).', min: 1 }),
    'per-page': Flags.integer({
      description: `${many[0]!.toUpperCase()}${many.slice(1)} per page with --page (1-${MAX_PER_PAGE}, default ${DEFAULT_PER_PAGE}).`,
      min: 1,
      max: MAX_PER_PAGE,
    }),
  };
}

/** The paging flags' values, as a list command has them. */
export interface PagingFlagValues {
  limit?: number;
  all?: boolean;
  page?: number;
  'per-page'?: number;
}

export const yesFlag = Flags.boolean({ char: 'y', description: 'Do not ask for confirmation (needed when not on a terminal).' });

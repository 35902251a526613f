import { setFlagsFromString } from 'node:v8';
import type { StoreContext } from '../auth/context.js';
import type { Clock } from '../platform/clock.js';
import { schedulerFor } from '../client/index.js';
import type { ImportSummary } from '../services/import/index.js';
import { plural, terminalSafe } from './format.js';
import { io, type OutputStream } from './io.js';
import { ProgressView, formatDuration } from './progress.js';

/**
 * What the bulk commands (products import, variants sync) share on the command side: the progress view
 * wired to stderr and to the store's rate scheduler, Ctrl-C handling, and the summary text. It lives with
 * the output code, not in src/services, because it prints: the services only emit events and return data.
 */

/**
 * Lets V8 grow the heap by half of what survives a collection instead of its default of up to 4×. A bulk
 * command holds the whole file and the store's catalog at once while it makes much short-lived garbage
 * (every list page parsed, checked and copied), so by default its resident memory climbs to about 2.5× what
 * it uses: 100,000 variants peaked near 400 MB and plan in about 290 MB with this, for a few more collections
 * (docs/benchmarks.md). Process-wide; harmless for a process that runs one command and exits.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}

/** Retries of idempotent requests for the bulk commands (the interactive default is 3). */
export const BULK_RETRIES = 8;

export async function bulkProgress(
  ctx: Pick<StoreContext, 'apiUrl' | 'storeId' | 'appId'>,
  label: string,
  quiet: boolean,
  stream: OutputStream = io().stderr,
  unit = 'products',
  /** The clock the command's client was made with (BaseCommand's factory), so that this is its bucket. */
  clock?: Clock,
): Promise<ProgressView> {
  const scheduler = schedulerFor(ctx.apiUrl.replace(/\/+$/, ''), ctx.storeId, ctx.appId, clock);
  const tty = Boolean(stream.isTTY);
  const SingleBar = tty && !quiet ? (await import('cli-progress')).default.SingleBar : undefined;
  return new ProgressView({ stream, tty, quiet, label, unit, bucket: () => scheduler.snapshot(), SingleBar });
}

/** The exit code of a run ended by a signal: 128 + its number, as a shell reports it. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/**
 * While writing, the first Ctrl-C or SIGTERM asks the running work to stop after its current requests (the
 * journal is fsync'd after every write); a second one exits at once. Before anything is written (reading
 * the file, fetching the store: `writing()` is false) there is nothing to finish, so the process exits at
 * once. Either way the exit code says which signal: 130 for SIGINT, 143 for SIGTERM (`received`).
 */
export function trapInterrupt(writing: () => boolean = () => true): {
  signal: AbortSignal;
  received(): StopSignal | undefined;
  exitCode(): number;
  dispose(): void;
} {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const onSignal = (name: StopSignal) => {
    const first = received === undefined;
    received ??= name;
    if (!first || !writing()) process.exit(SIGNAL_EXIT_CODES[received]);
    io().stderr.write(`\nStopping after the requests in flight (${name === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    received: () => received,
    exitCode: () => SIGNAL_EXIT_CODES[received ?? 'SIGINT'],
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

export function summaryLines(s: ImportSummary): string[] {
  const lines: string[] = [];
  const verb = s.dryRun ? 'Would import' : 'Imported';
  lines.push(`${verb} ${s.file} (${dialectName(s.dialect)}): ${plural(s.rows, 'row')}, ${plural(s.products, 'product')}.`);
  const counts = [
    `${s.created} created`,
    `${s.updated} updated`,
    `${s.unchanged} unchanged`,
    ...(s.skipped ? [`${s.skipped} skipped`] : []),
    `${s.failed} failed`,
  ];
  lines.push(`  products:   ${counts.join(', ')}${s.resumedProducts ? ` (${s.resumedProducts} finished by the interrupted run)` : ''}`);
  if (s.categoriesCreated) lines.push(`  categories: ${s.categoriesCreated} ${s.dryRun ? 'to create' : 'created'}`);
  if (s.dryRun) lines.push(`  writes:     ${s.plannedWrites} would be sent`);
  lines.push(`  requests:   ${s.requests} sent (${s.retries} retried), ${s.rateLimited} × 429, ${formatDuration(s.seconds)}`);
  if (s.ignoredColumns.length > 0) lines.push(`  not imported (no API counterpart): ${s.ignoredColumns.join(', ')}`);
  return lines;
}

function dialectName(dialect: string): string {
  return (
    { canonical: 'canonical columns', 'admin-es': 'admin export, Spanish', 'admin-pt': 'admin export, Portuguese', shopify: 'Shopify export' } as Record<string, string>
  )[dialect] ?? dialect;
}

export function printSummary(
  s: ImportSummary,
  opts: { quiet: boolean; report?: string },
  out: NodeJS.WritableStream = io().stdout,
  err: NodeJS.WritableStream = io().stderr,
): void {
  if (!opts.quiet) out.write(`${summaryLines(s).join('\n')}\n`);
  if (s.earlierRunUnfinished && !opts.quiet) {
    err.write('Note: an earlier run of this file was interrupted; what it did was found in the store and not sent again (--resume also keeps its counts).\n');
  }
  const shown = s.failures.slice(0, 50);
  for (const f of shown) {
    err.write(terminalSafe(`${s.file}, line ${f.line}${f.stage === 'validation' ? '' : ` (${f.key})`}: ${f.reason}`) + '\n');
  }
  if (s.failures.length > shown.length) err.write(`… and ${s.failures.length - shown.length} more failures.\n`);
  if (s.failed > 0 && opts.report) err.write(`The failed rows are listed in ${opts.report}.\n`);
}

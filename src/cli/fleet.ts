import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import { canPrompt, io } from '../output/io.js';
import { colorEnabled, isTTY, terminalWidth } from '../output/terminal.js';
import { fleetMembers, lanesOf, parseShard, shardOf, storeKey, type FleetMember, type Shard } from '../services/fleet/members.js';
import { worstExitCode, writeResult, writeShardManifest, type StoreResult } from '../services/fleet/results.js';
import { runFleet } from '../services/fleet/runner.js';
import { memberArgv, readArgv, readsStdin, type FlagDefinition } from './fleet-argv.js';
import { FleetOutput, type FleetOutputMode } from './fleet-output.js';
import { FleetProgress } from '../output/fleet-progress.js';
import { printFleetSummary, storeLine } from './fleet-summary.js';

/** What the fleet takes from the command it was given with (base-command.ts). */
export interface FleetHost {
  /** oclif's id ("orders:list"). */
  id: string;
  /** The command line after the command's words, as given. */
  argv: string[];
  flags: Record<string, unknown>;
  /** The command's flag definitions, global flags included. */
  definitions: Record<string, FlagDefinition>;
  /** `--json` or `--jq`. */
  json: boolean;
}

/** Commands that reach no store, or manage the fleet itself: a fleet of them means nothing. */
const NOT_A_STORE_COMMAND = /^(auth|sandbox|fleet|config|runs)(:|$)|^(history|help|autocomplete|mcp)$/;

/** Stores run at once unless --concurrency: the stores, at most this many (each is a process of ~60 MB). */
const DEFAULT_CONCURRENCY = 8;

/** The program each store runs: this one. */
const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

/**
 * Runs the command over a fleet of stores (docs/fleet.md): each store its own process of this program, at most
 * --concurrency at once, one store's profiles one after another; their output merged; a write confirmed once for
 * every store; the fleet summary on stderr; the exit code the worst of the stores'.
 */
export async function runAsFleet(host: FleetHost): Promise<void> {
  const flags = host.flags as {
    profiles?: string;
    'all-profiles'?: boolean;
    fleet?: string;
    concurrency?: number;
    'output-dir'?: string;
    shard?: string;
    'results-dir'?: string;
    yes?: boolean;
    'dry-run'?: boolean;
    quiet?: boolean;
    jq?: string;
    ndjson?: boolean;
    csv?: boolean;
  };
  if (NOT_A_STORE_COMMAND.test(host.id)) {
    throw new UsageError(`\`store ${host.id.replaceAll(':', ' ')}\` reaches no store: --profiles, --all-profiles, --fleet and the other fleet flags are for commands that do.`);
  }
  if (flags.profiles === undefined && !flags['all-profiles'] && flags.fleet === undefined) {
    throw new UsageError('--concurrency, --output-dir, --shard and --results-dir need a fleet: --profiles A,B, --all-profiles or --fleet FILE.');
  }
  const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  const fleet = await fleetMembers({ profiles: flags.profiles, allProfiles: flags['all-profiles'], fleetFile: flags.fleet });
  const members = shard ? fleet.filter((m) => shardOf(m, shard.count) === shard.index) : fleet;

  const words = readArgv(host.argv, host.definitions);
  const exportsToArgument = /:export$/.test(host.id);
  if (readsStdin(words, exportsToArgument)) {
    throw new UsageError('A fleet cannot share standard input ("-"): give each store its file, e.g. {feed} with --fleet FILE (docs/fleet.md).');
  }
  const known = new Set(fleet.flatMap((m) => Object.keys(m.vars)));
  // A command that writes has --dry-run or its own --yes (FLEET_FLAGS' --yes is in the FLEET group).
  const ownYes = 'yes' in host.definitions && (host.definitions.yes as { helpGroup?: string }).helpGroup !== 'FLEET';
  const writes = 'dry-run' in host.definitions || ownYes;
  const outputDir = flags['output-dir'];
  const mode: FleetOutputMode = host.json && flags.jq === undefined ? 'json' : flags.ndjson ? 'ndjson' : 'lines';
  const plan = { host, words, known, exportsToArgument, outputDir, mode, concurrency: flags.concurrency, quiet: Boolean(flags.quiet) };

  if (members.length === 0) {
    io().stderr.write(`Shard ${shard!.index}/${shard!.count} holds none of the fleet's ${fleet.length} stores; nothing to do.\n`);
  }
  if (writes && !flags['dry-run'] && !flags.yes && members.length > 0) {
    const go = await confirmWrites(members, plan, 'dry-run' in host.definitions);
    if (!go) return;
  }
  const extra = writes && ownYes && !flags['dry-run'] ? ['--yes'] : [];
  const ran = members.length > 0 ? await runMembers(members, { ...plan, extra }) : [];
  // In the fleet's order (lanes put one store's profiles together).
  const results = members.map((m) => ran.find((r) => r.store === m.profile)!);

  if (flags['results-dir']) {
    for (const result of results) await writeResult(flags['results-dir'], shard ? { ...result, shard: `${shard.index}/${shard.count}` } : result);
    if (shard) await writeShardManifest(flags['results-dir'], { shard: `${shard.index}/${shard.count}`, fleet_size: fleet.length, stores: members.map((m) => m.profile) });
  }
  const exitCode = worstExitCode(results.map((r) => r.exit_code));
  await printFleetSummary(results, exitCode, { quiet: Boolean(flags.quiet), shard: shardName(shard, fleet.length) });
  process.exitCode = exitCode;
}

function shardName(shard: Shard | undefined, size: number): string | undefined {
  return shard ? `shard ${shard.index}/${shard.count} of a fleet of ${size}` : undefined;
}

interface FleetPlan {
  host: FleetHost;
  words: ReturnType<typeof readArgv>;
  known: Set<string>;
  exportsToArgument: boolean;
  outputDir?: string;
  mode: FleetOutputMode;
  concurrency?: number;
  quiet: boolean;
}

/** Runs every store and merges their output; their results in the fleet's order. */
async function runMembers(members: FleetMember[], plan: FleetPlan & { extra: string[] }): Promise<StoreResult[]> {
  const stdout = io().stdout;
  const csv = plan.words.some((w) => w.flag === 'csv');
  const table = isTTY() && !csv && plan.mode === 'lines';
  const output = new FleetOutput({
    mode: plan.mode,
    table,
    write: (text) => stdout.write(text),
    writeError: (text) => io().stderr.write(text),
    renderTable: async (rows, columns) => {
      const { renderRows } = await import('../output/render.js');
      await renderRows(rows, columns, 'table', (text) => stdout.write(text), { color: colorEnabled(), width: terminalWidth() });
    },
  });
  // On a terminal, a status line per store drawn in place; else each line as it comes, led by the store.
  const progress = new FleetProgress(io().stderr, isTTY(io().stderr) && !plan.quiet && plan.mode === 'lines');
  const argvOf = new Map<FleetMember, string[]>();
  for (const member of members) {
    const storeDir = plan.outputDir ? join(plan.outputDir, member.profile) : undefined;
    if (storeDir) await mkdir(storeDir, { recursive: true });
    argvOf.set(member, memberArgv({ command: plan.host.id.split(':'), words: plan.words, member, known: plan.known, storeDir, exportsToArgument: plan.exportsToArgument, extra: plan.extra }));
  }
  const env = { ...process.env };
  // A fleet is its profiles: the environment's single store (STORE_TOKEN + STORE_ID) would make every store that one.
  delete env.STORE_TOKEN;
  delete env.STORE_ID;
  delete env.STORE_PROFILE;
  const stop = new AbortController();
  const onTerm = () => stop.abort();
  // Ctrl-C reaches every store's process itself (one process group); SIGTERM to the fleet is passed on.
  const onInt = () => undefined;
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  try {
    return await runFleet({
      lanes: lanesOf(members),
      concurrency: plan.concurrency ?? Math.min(members.length, DEFAULT_CONCURRENCY),
      signal: stop.signal,
      command: (member) => ({
        argv: [BIN, ...argvOf.get(member)!],
        env,
        stdoutFile: plan.outputDir ? join(plan.outputDir, member.profile, `output.${outputExtension(plan, csv)}`) : undefined,
      }),
      onStart: (member) => progress.start(member.profile),
      onLine: (member, stream, line) => (stream === 'stderr' && plan.mode === 'lines' ? progress.line(member.profile, line) : output.line(member, stream, line)),
      onDone: (member, result) => {
        output.done(member);
        if (!plan.quiet || result.exit_code !== 0) progress.done(member.profile, storeLine(result));
      },
    }).finally(async () => {
      progress.stop();
      await output.finish();
    });
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
}

function outputExtension(plan: FleetPlan, csv: boolean): string {
  if (plan.mode === 'json') return 'json';
  if (plan.mode === 'ndjson') return 'ndjson';
  return csv || plan.exportsToArgument ? 'csv' : 'tsv';
}

/**
 * One confirmation for a write to several stores: on a terminal each store's dry run first (what will change
 * there, when the command has --dry-run), else the list of stores and their command lines; without a terminal
 * --yes is needed (exit 2). Two profiles of one store are said to run one after the other.
 */
async function confirmWrites(members: FleetMember[], plan: FleetPlan, hasDryRun: boolean): Promise<boolean> {
  const names = members.map((m) => `${m.profile} (store ${m.storeId})`).join(', ');
  if (!canPrompt()) {
    throw new UsageError(`Writing to ${members.length} store${members.length === 1 ? '' : 's'} needs confirmation: pass --yes when not running in a terminal (the stores: ${names}).`);
  }
  const stderr = io().stderr;
  if (hasDryRun) {
    stderr.write(`What each store would change (a dry run of each; nothing is sent):\n`);
    await runMembers(members, { ...plan, extra: ['--dry-run'], quiet: true });
  } else {
    for (const m of members) {
      const argv = memberArgv({ command: plan.host.id.split(':'), words: plan.words, member: m, known: plan.known, exportsToArgument: plan.exportsToArgument, extra: [] });
      stderr.write(`  ${m.profile} (store ${m.storeId} at ${m.apiHost}): store ${argv.join(' ')}\n`);
    }
  }
  const shared = lanesOf(members).filter((lane) => lane.length > 1);
  for (const lane of shared) stderr.write(`${lane.map((m) => m.profile).join(', ')} are one store (${storeKey(lane[0]!)}): they run one after another.\n`);
  const { confirmThenAct } = await import('./confirm.js');
  return confirmThenAct({
    message: `Write to these ${members.length} stores: ${names}?`,
    yes: false,
    nothingDone: 'Nothing written.',
    declined: () => false,
    act: async () => true,
  });
}

import { Command, type Interfaces } from '@oclif/core';
import type { StoreContext } from '../auth/context.js';
import type { ClientConfig, StoreClient } from '../client/index.js';
import type { Recorder, RunRecorder } from '../ledger/recorder.js';
import { GLOBAL_FLAGS, RECORD_FLAGS } from '../flags/common.js';
import type { Column } from '../output/format.js';
import { chooseFormat } from '../output/format.js';
import { asksForJson, type ErrorReport, writeError } from './error-output.js';
import { countRows, fleetMember, withStoreColumn, writeMemberResult } from './fleet-member.js';
import type { DetailSection } from './record-view.js';
import { io, type IOStreams } from '../output/io.js';
import { addSecret, guardOutput } from '../output/secrets.js';
import { colorEnabled, isTTY, paint, terminalWidth } from '../output/terminal.js';
import type { Clock } from '../platform/clock.js';
import { SIGNAL_EXIT_CODES } from '../util/process.js';


/**
 * What a command takes from outside itself (gh's Factory), besides its streams (`io()` of output/io.ts): how
 * it finds its profile and reaches the store. The binary uses the process's; a test that runs commands in its
 * own process (test/helpers/run-in-process.ts) gives each run its own streams and rate-scheduler clock.
 */
interface Factory {
  /** The rate scheduler's clock; each clock keeps its own bucket per store (the client's default when unset). */
  clock?: Clock;
  /** The profile's context: store, API URL, credentials (environment overrides first). */
  context(profile: string | undefined): Promise<StoreContext>;
  createClient(config: ClientConfig): Promise<StoreClient>;
}

export const processFactory: Factory = {
  context: (profile) => import('../auth/context.js').then(({ resolveContext }) => resolveContext({ profile })),
  createClient: (config) => import('../client/index.js').then(({ createClient }) => createClient(config)),
};

type BaseFlags = typeof GLOBAL_FLAGS & Partial<typeof RECORD_FLAGS>;
export type CommandFlags<T extends typeof Command> = Interfaces.InferredFlags<BaseFlags & T['flags']>;
export type CommandArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

/**
 * STORE_HTTP_TIMEOUT: seconds one HTTP attempt may take (default 30, the client's); anything but a positive
 * number is ignored. A slow link may need more; tests of a server that never answers need less.
 */
function attemptTimeoutMs(value: string | undefined): number | undefined {
  const seconds = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 3600) * 1000 : undefined;
}

/** `--json FIELDS`: one or more comma-separated field names (an argument after `--json` that is not one stays an argument). */
const FIELD_LIST = /^[A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * What every `store` command shares: the global flags, the profile's context and HTTP client,
 * rendering, and the mapping of errors to one sentence on stderr and an exit code (docs/exit-codes.md).
 * Heavy modules (got, zod, the jq engine, …) are imported on first use so that help and --version stay fast.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  /** The global flags of every command. */
  static baseFlags: BaseFlags = GLOBAL_FLAGS;

  /**
   * The global flags of a command that prints records: `static baseFlags = BaseCommand.recordFlags` next to
   * `static enableJsonFlag = true` (an own static property, so oclif's manifest and help see it).
   */
  static readonly recordFlags: BaseFlags = { ...GLOBAL_FLAGS, ...RECORD_FLAGS };

  /** Where every command gets its streams, profile and client (replaced by the in-process test runner). */
  static factory: Factory = processFactory;

  /**
   * The fields `--json FIELDS` may name, for commands that can tell before they run (so an unknown field
   * fails before anything is changed). Without it, the fields are checked against the records printed.
   */
  static jsonFields?: () => Promise<readonly string[]>;

  /** Flags whose values are credentials (`--header`): kept out of the run ledger's command line whole. */
  static secretFlags?: readonly string[];

  protected flags!: CommandFlags<T>;
  protected args!: CommandArgs<T>;
  /** `--json id,status`: the fields to print; undefined prints every field. */
  protected jsonFieldList?: string[];
  private cachedContext?: Promise<StoreContext>;
  private cachedClient?: Promise<StoreClient>;
  /** A retry because the store could not be reached was said (once is all --quiet says). */
  private toldUnreachable = false;
  private runRecorder?: Promise<RunRecorder>;
  /** The sentence the command failed with (a fleet's store reports it to the fleet's summary). */
  private failure?: string;

  public async init(): Promise<void> {
    // Printing the token is `store auth token`'s job; every other command has known secrets scrubbed from its output.
    if (this.id !== 'auth:token') guardOutput();
    await super.init();
    const ctor = this.ctor as unknown as typeof BaseCommand;
    if (ctor.enableJsonFlag) this.takeJsonFields();
    const { args, flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: ctor.baseFlags,
      enableJsonFlag: false,
      // oclif would read a piped stdin as a missing argument's value; stdin is data (`import -`, a token), never that.
      args: Object.fromEntries(Object.entries(this.ctor.args ?? {}).map(([name, arg]) => [name, { ...arg, ignoreStdin: true }])),
      strict: this.ctor.strict,
    });
    this.flags = flags as CommandFlags<T>;
    this.args = args as CommandArgs<T>;
    if (this.jsonFieldList && ctor.jsonFields) await this.checkJsonFields(await ctor.jsonFields());
  }

  protected get factory(): Factory {
    return BaseCommand.factory;
  }

  /** The command's stdin, stdout and stderr. */
  protected get io(): IOStreams {
    return io();
  }

  /** JSON output: `--json` or `--jq` on a command that prints records. */
  public jsonEnabled(): boolean {
    return Boolean(this.ctor.enableJsonFlag) && asksForJson(this.argv);
  }

  /** Takes `--json=FIELDS` / `--json FIELDS` apart into `--json` and the field list. */
  private takeJsonFields(): void {
    const argv = [...this.argv];
    let end = argv.indexOf('--') === -1 ? argv.length : argv.indexOf('--');
    for (let i = 0; i < end; i++) {
      const arg = argv[i]!;
      if (arg.startsWith('--json=')) {
        this.jsonFieldList = arg.slice('--json='.length).split(',').map((f) => f.trim()).filter(Boolean);
        argv[i] = '--json';
      } else if (arg === '--json' && i + 1 < end && FIELD_LIST.test(argv[i + 1]!)) {
        this.jsonFieldList = argv[i + 1]!.split(',');
        argv.splice(i + 1, 1);
        end--;
      }
    }
    this.argv = argv;
  }

  protected async checkJsonFields(valid: readonly string[]): Promise<void> {
    const unknown = (this.jsonFieldList ?? []).filter((f) => !valid.includes(f));
    if (unknown.length === 0) return;
    const { UsageError } = await import('../errors.js');
    throw new UsageError(
      `Unknown JSON field${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}; the fields are: ${[...valid].sort().join(', ')}.`,
    );
  }

  /**
   * oclif's run loop, with the JSON printed by the command itself: the field selection and `--jq` are async
   * (the jq engine loads on first use), and a failure there is an error like any other.
   */
  protected override async _run<R>(): Promise<R> {
    let err: Error | undefined;
    let result: R | undefined;
    try {
      await this.init();
      if (this.asksForFleet()) await this.runFleet();
      else {
        result = (await this.run()) as R;
        if (result !== undefined && this.jsonEnabled()) await this.printJson(result);
      }
    } catch (error) {
      err = error as Error;
      await this.catch(error as Error);
    } finally {
      await this.endRun();
      if (fleetMember()) {
        const stats = this.cachedClient ? (await this.cachedClient.catch(() => undefined))?.stats() : undefined;
        await writeMemberResult({ exitCode: Number(process.exitCode ?? 0), error: this.failure, result, stats });
      }
      await this.finally(err);
    }
    return result as R;
  }

  /** A fleet flag was given (docs/fleet.md), and this is not already one store of a fleet. */
  private asksForFleet(): boolean {
    const f = this.flags as Record<string, unknown>;
    const named = ['profiles', 'all-profiles', 'fleet', 'shard', 'results-dir', 'output-dir', 'concurrency'].some((k) => f[k] !== undefined && f[k] !== false);
    return named && !fleetMember();
  }

  /** The command over every store of the fleet, each in its own process (cli/fleet.ts). */
  private async runFleet(): Promise<void> {
    const { runAsFleet } = await import('./fleet.js');
    // takeJsonFields took `--json FIELDS` apart; each store's run gets it back whole.
    const argv = this.jsonFieldList ? this.argv.map((a) => (a === '--json' ? `--json=${this.jsonFieldList!.join(',')}` : a)) : this.argv;
    const ctor = this.ctor as unknown as typeof BaseCommand;
    await runAsFleet({ id: this.id ?? '', argv, flags: this.flags, definitions: { ...ctor.baseFlags, ...this.ctor.flags }, json: this.jsonEnabled() });
  }

  /**
   * The recorder of this command's writes (docs/ledger.md): give it to the service that writes. The run is
   * started in the ledger on its first change, so a command that ends up writing nothing leaves no run.
   */
  protected recorder(start: { undoes?: string } = {}): Promise<RunRecorder> {
    this.runRecorder ??= (async () => {
      const ctx = await this.context();
      const [{ RunRecorder }, { openLedger }, { scrubArgv }] = await Promise.all([
        import('../ledger/recorder.js'),
        import('../ledger/store.js'),
        import('../output/secrets.js'),
      ]);
      return new RunRecorder(() => openLedger(), {
        command: (this.id ?? '').replaceAll(':', ' '),
        argv: scrubArgv(this.argv, (this.ctor as unknown as typeof BaseCommand).secretFlags),
        profile: ctx.profile,
        storeId: ctx.storeId,
        apiHost: new URL(ctx.apiUrl).host,
        // `store undo RUN`: the run this one reverts (undoing it redoes).
        undoes: start.undoes ?? null,
      });
    })();
    return this.runRecorder;
  }

  /** Ends the ledger's run, if the command wrote, with the exit code the command ends with. */
  private async endRun(): Promise<void> {
    if (!this.runRecorder) return;
    const recorder = await this.runRecorder.catch(() => undefined);
    const { error } = recorder?.finish(Number(process.exitCode ?? 0)) ?? {};
    if (error) this.warnUser(error.message);
  }

  /** The command's result as JSON on stdout: `--json FIELDS` picks fields, `--jq` filters. */
  protected async printJson(result: unknown): Promise<void> {
    let value = result;
    if (this.jsonFieldList) {
      const records = Array.isArray(value) ? value : [value];
      if (!(this.ctor as unknown as typeof BaseCommand).jsonFields && records.length > 0) {
        const keys = new Set<string>();
        for (const r of records) if (r && typeof r === 'object') for (const k of Object.keys(r)) keys.add(k);
        await this.checkJsonFields([...keys]);
      }
      value = Array.isArray(value) ? value.map((record) => this.pickJsonFields(record)) : this.pickJsonFields(value);
    }
    if (fleetMember()) countRows(Array.isArray(value) ? value.length : 1);
    const expression = this.flags.jq;
    if (expression === undefined) {
      this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      return;
    }
    await this.printFiltered(value, expression);
  }

  /** A record as `--json FIELDS` prints it: those fields in that order, null for one it lacks; as it is without FIELDS. */
  protected pickJsonFields(record: unknown): unknown {
    const fields = this.jsonFieldList;
    if (!fields || !record || typeof record !== 'object') return record;
    return Object.fromEntries(fields.map((f) => [f, (record as Record<string, unknown>)[f] ?? null]));
  }

  /** `--jq EXPR` on `value`: strings printed raw (like `jq -r` and gh); what jq printed before an error is kept. */
  protected async printFiltered(value: unknown, expression: string): Promise<void> {
    const { filterJson } = await import('../output/jq.js');
    const { output, error } = await filterJson(value, expression);
    if (output !== '') this.io.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    if (error) throw error;
  }

  /** The resolved profile (environment overrides first), loaded once per command. */
  protected context(): Promise<StoreContext> {
    this.cachedContext ??= this.factory.context(this.flags.profile).then((ctx) => {
      addSecret(ctx.token);
      addSecret(ctx.clientSecret);
      return ctx;
    });
    return this.cachedContext;
  }

  /**
   * The API version of every request (docs/platform.md §12): `--api-version` (or STORE_API_VERSION), else the
   * profile's `api-version` setting, else v1. An unknown one is refused here, before any request.
   */
  private async apiVersion(): Promise<string> {
    const { checkedApiVersion } = await import('../client/api-version.js');
    const flag = (this.flags as { 'api-version'?: string })['api-version'];
    if (flag !== undefined) return checkedApiVersion(flag, '--api-version');
    // The profile `store config set` writes to (with STORE_TOKEN too, the profile it borrows defaults from).
    const { getSetting, settingsProfile } = await import('../services/runs/settings.js');
    const profile = await settingsProfile(this.flags.profile).catch(() => undefined);
    const setting = profile === undefined ? undefined : await getSetting(profile, 'api-version').catch(() => undefined);
    return checkedApiVersion(setting, `the api-version setting of profile "${profile}"`);
  }

  /**
   * The HTTP client for the current profile; `--debug` lines go to stderr. A nightly job should outlast a
   * flaky hour: bulk commands pass more retries of idempotent requests (creates are reconciled by the importer).
   */
  protected client(options: { retries?: number } = {}): Promise<StoreClient> {
    this.cachedClient ??= (async () => {
      const ctx = await this.context();
      const { refuseInsecureHttp } = await import('../client/transport.js');
      const source = ctx.profile === 'env' ? 'STORE_API_URL' : `profile "${ctx.profile}"`;
      refuseInsecureHttp(ctx.apiUrl, source, this.flags['allow-insecure-http']);
      const { setDisplayLanguage } = await import('../api/read.js');
      return this.factory.createClient({
        apiUrl: ctx.apiUrl,
        apiVersion: await this.apiVersion(),
        storeId: ctx.storeId,
        token: ctx.token,
        appName: ctx.appName,
        appId: ctx.appId,
        profile: ctx.profile,
        tokenFromEnv: ctx.tokenSource === 'env' && (ctx.tokenVariable ?? true),
        retries: options.retries,
        timeoutMs: attemptTimeoutMs(process.env.STORE_HTTP_TIMEOUT),
        debug: this.flags.debug ? (line: string) => this.io.stderr.write(`${line}\n`) : undefined,
        warn: (message: string) => this.warnUser(message),
        // A long pause is never silent. --quiet (cron) keeps stderr for errors, and for one line when the store
        // cannot be reached: a dead store must not pass for a slow one.
        onWait: ({ kind, message }) => {
          if ((this.flags as { quiet?: boolean }).quiet && (kind !== 'unreachable' || this.toldUnreachable)) return;
          this.toldUnreachable ||= kind === 'unreachable';
          this.noteWait(message);
        },
        onMainLanguage: setDisplayLanguage,
        clock: this.factory.clock,
      });
    })();
    return this.cachedClient;
  }

  /**
   * Writes rows as a table (TTY, fitted to the terminal's width), TSV (piped, never cut) or CSV (`--csv`);
   * with `--json` nothing: the command's result is printed as JSON instead.
   */
  protected async renderList<Row>(rows: Row[], columns: Column<Row>[], opts: { csv?: boolean; header?: boolean } = {}): Promise<void> {
    const format = chooseFormat({ json: this.jsonEnabled(), csv: opts.csv }, isTTY());
    if (format === 'json') return;
    const member = fleetMember();
    if (member) {
      columns = withStoreColumn(columns, member);
      countRows(rows.length);
    }
    const { renderRows } = await import('../output/render.js');
    const width = terminalWidth();
    const { hidden } = await renderRows(rows, columns, format, (text) => this.io.stdout.write(text), {
      header: opts.header,
      color: colorEnabled(),
      width: format === 'table' ? width : undefined,
      wide: Boolean((this.flags as { wide?: boolean }).wide),
    });
    if (hidden.length > 0) {
      const { wrapText } = await import('../output/render.js');
      this.note(wrapText(`Hidden to fit: ${hidden.join(', ')} (--wide or --json to see them).`, width).join('\n'));
    }
  }

  /**
   * One record as aligned "key value" lines (long values wrapped to the terminal), then its sections: titled
   * lists, or titled labelled lines. Prints nothing with `--json`, where the command's result is printed instead.
   */
  protected async renderDetail(fields: [string, unknown][], sections: DetailSection[] = []): Promise<void> {
    if (this.jsonEnabled()) return;
    const { recordOfRow, renderRecord } = await import('../output/render.js');
    const write = (text: string) => this.io.stdout.write(text);
    const tty = isTTY();
    const opts = tty ? { width: terminalWidth(), now: Date.now() } : {};
    renderRecord(fields, write, opts);
    for (const { title, rows, columns, fields: lines, rowsAsRecords } of sections) {
      write(`\n${title}\n`);
      if (lines && lines.length > 0) renderRecord(lines, write, { ...opts, indent: 2 });
      else if (lines || rows.length === 0) write('  (none)\n');
      else if (rowsAsRecords && tty) {
        rows.forEach((row, i) => {
          if (i > 0) write('\n');
          renderRecord(recordOfRow(row as never, columns), write, { ...opts, indent: 2 });
        });
      } else await this.renderList(rows as never[], columns);
    }
  }

  /**
   * What an export writes, to FILE or, for none (or "-"), to stdout. FILE gets it whole or not at all: a temporary
   * file renamed over it once `write` is done, so a failed or interrupted export leaves the previous file as it
   * was. FILE is the user's input: one that cannot be written is a usage error (exit 2), before any request.
   */
  protected async writeOutput<T>(file: string | undefined, write: (out: NodeJS.WritableStream) => Promise<T>): Promise<T> {
    const path = file === '-' ? undefined : file;
    const { CannotWriteError, openAtomic } = await import('../util/atomic-file.js');
    const { UsageError } = await import('../errors.js');
    const target = path
      ? await openAtomic(path).catch((error: unknown) => {
          throw error instanceof CannotWriteError ? new UsageError(error.message) : error;
        })
      : undefined;
    try {
      const result = await write(target?.out ?? this.io.stdout);
      await target?.commit();
      return result;
    } catch (error) {
      await target?.abort();
      throw error;
    }
  }

  /** Progress, warnings and notes: stderr, never mixed with data. */
  protected note(message: string): void {
    this.io.stderr.write(`${message}\n`);
  }

  /** The one line that says the command is waiting for the store (a bulk command writes it clear of its progress bar). */
  protected noteWait(line: string): void {
    this.note(line);
  }

  protected warnUser(message: string): void {
    this.io.stderr.write(`${paint('Warning:', 'yellow')} ${message}\n`);
  }

  /**
   * Every error ends here: one sentence on stderr (a JSON line with `--json`) and the exit code of docs/exit-codes.md,
   * usage errors of oclif's parser included (exit 2); no stack traces for expected errors, nothing on stdout.
   */
  public async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (err.name === 'ExitPromptError') {
      process.exitCode = SIGNAL_EXIT_CODES.SIGINT;
      return;
    }
    // this.exit(n): the command has said what it had to say.
    if (err.oclif?.exit !== undefined && (err as { code?: string }).code === 'EEXIT') {
      process.exitCode = err.oclif.exit;
      return;
    }
    const { describeError } = await import('../errors.js');
    const report = describeError(err, `${this.config.bin} ${(this.id ?? '').replaceAll(':', ' ')}`.trim());
    writeError(report, asksForJson(this.argv));
    this.failure = report.message;
    // Anything unexpected is a bug or an unexpected failure: the stack only with --debug.
    if (report.unexpected && this.argv.includes('--debug') && err.stack) this.io.stderr.write(`${err.stack}\n`);
    process.exitCode = report.exitCode;
    return;
  }
}

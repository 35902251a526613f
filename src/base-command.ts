import { Command, Flags, type Interfaces } from '@oclif/core';
import type { StoreContext } from './auth/context.js';
import type { StoreClient } from './client/index.js';
import type { Column } from './output/format.js';
import { chooseFormat, terminalSafe } from './output/format.js';
import { addSecret, guardOutput } from './output/secrets.js';
import { colorEnabled, isTTY, paint } from './output/terminal.js';

/** A titled list under a record in a detail view (an order's items, a product's variants). */
export interface DetailSection {
  title: string;
  rows: unknown[];
  columns: Column<never>[];
}

/** Builds a section, keeping the row type of its columns checked against its rows. */
export function section<Row>(title: string, rows: Row[], columns: Column<Row>[]): DetailSection {
  return { title, rows, columns: columns as Column<never>[] };
}

export type CommandFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;
export type CommandArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

/**
 * What every `store` command shares: the global flags, the profile's context and HTTP client,
 * rendering, and the mapping of errors to one sentence on stderr and an exit code (DESIGN.md §7).
 * Heavy modules (got, zod, cli-table3, …) are imported on first use so that help and --version stay fast.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static baseFlags = {
    profile: Flags.string({
      description: 'Profile to use (default: the one chosen with `store auth switch`).',
      env: 'STORE_PROFILE',
      helpGroup: 'GLOBAL',
    }),
    debug: Flags.boolean({
      description: 'Log every HTTP request and response line to stderr (token redacted).',
      helpGroup: 'GLOBAL',
    }),
    'allow-insecure-http': Flags.boolean({
      description: 'Send the token over plain http:// to a host other than this machine (refused otherwise).',
      env: 'STORE_ALLOW_INSECURE_HTTP',
      helpGroup: 'GLOBAL',
    }),
  };

  protected flags!: CommandFlags<T>;
  protected args!: CommandArgs<T>;
  private cachedContext?: Promise<StoreContext>;
  private cachedClient?: Promise<StoreClient>;

  public async init(): Promise<void> {
    // Printing the token is `store auth token`'s job; every other command has known secrets scrubbed from its output.
    if (this.id !== 'auth:token') guardOutput();
    await super.init();
    const { args, flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as CommandFlags<T>;
    this.args = args as CommandArgs<T>;
  }

  /** The resolved profile (environment overrides first), loaded once per command. */
  protected context(): Promise<StoreContext> {
    this.cachedContext ??= import('./auth/context.js').then(({ resolveContext }) =>
      resolveContext({ profile: this.flags.profile }).then((ctx) => {
        addSecret(ctx.token);
        addSecret(ctx.clientSecret);
        return ctx;
      }),
    );
    return this.cachedContext;
  }

  /**
   * The HTTP client for the current profile; `--debug` lines go to stderr. A nightly job should outlast a
   * flaky hour: bulk commands pass more retries of idempotent requests (creates are reconciled by the importer).
   */
  protected client(options: { retries?: number } = {}): Promise<StoreClient> {
    this.cachedClient ??= (async () => {
      const ctx = await this.context();
      const { refuseInsecureHttp } = await import('./client/transport.js');
      const source = ctx.profile === 'env' ? 'STORE_API_URL' : `profile "${ctx.profile}"`;
      refuseInsecureHttp(ctx.apiUrl, source, this.flags['allow-insecure-http']);
      const { createClient } = await import('./client/index.js');
      const { setDisplayLanguage } = await import('./api/read.js');
      return createClient({
        apiUrl: ctx.apiUrl,
        storeId: ctx.storeId,
        token: ctx.token,
        appName: ctx.appName,
        appId: ctx.appId,
        profile: ctx.profile,
        retries: options.retries,
        debug: this.flags.debug ? (line: string) => process.stderr.write(`${line}\n`) : undefined,
        warn: (message: string) => this.warnUser(message),
        onMainLanguage: setDisplayLanguage,
      });
    })();
    return this.cachedClient;
  }

  /** Writes rows as a table (TTY), TSV (piped) or CSV (`--csv`); `--json` is printed by oclif from run()'s result. */
  protected async renderList<Row>(rows: Row[], columns: Column<Row>[], opts: { csv?: boolean; header?: boolean } = {}): Promise<void> {
    const format = chooseFormat({ json: this.jsonEnabled(), csv: opts.csv }, isTTY());
    if (format === 'json') return;
    const { renderRows } = await import('./output/render.js');
    await renderRows(rows, columns, format, (text) => process.stdout.write(text), {
      header: opts.header,
      color: colorEnabled(),
    });
  }

  /**
   * One record as aligned "key value" lines, then its sections as titled lists. Prints nothing with `--json`,
   * where oclif prints run()'s result instead.
   */
  protected async renderDetail(fields: [string, unknown][], sections: DetailSection[] = []): Promise<void> {
    if (this.jsonEnabled()) return;
    const { renderRecord } = await import('./output/render.js');
    const write = (text: string) => process.stdout.write(text);
    renderRecord(fields, write);
    for (const { title, rows, columns } of sections) {
      write(`\n${title}\n`);
      if (rows.length === 0) write('  (none)\n');
      else await this.renderList(rows as never[], columns);
    }
  }

  /** Progress, warnings and notes: stderr, never mixed with data. */
  protected note(message: string): void {
    process.stderr.write(`${terminalSafe(message)}\n`);
  }

  /** Warnings may quote what the store sent: shown terminal-safe. */
  protected warnUser(message: string): void {
    process.stderr.write(`${paint('Warning:', 'yellow')} ${terminalSafe(message)}\n`);
  }

  /** One sentence on stderr and the exit code of DESIGN.md §7; no stack traces for expected errors. */
  public async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    const { StoreError } = await import('./client/errors.js');
    // Error messages quote what the server said: control characters are shown escaped, never obeyed.
    if (err instanceof StoreError) {
      process.stderr.write(`${paint('Error:', 'red')} ${terminalSafe(err.message)}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    if (err.oclif?.exit !== undefined || err.name === 'ExitPromptError') {
      if (err.name === 'ExitPromptError') {
        process.exitCode = 130;
        return;
      }
      return super.catch(err);
    }
    // Anything else is a bug or an unexpected failure: one line, and the stack only with --debug.
    process.stderr.write(`${paint('Error:', 'red')} ${terminalSafe(err.message)}\n`);
    if (this.flags?.debug && err.stack) process.stderr.write(`${err.stack}\n`);
    process.exitCode = 1;
    return;
  }
}

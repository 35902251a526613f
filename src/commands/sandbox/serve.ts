import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { PLANS } from '../../platform/plans.js';
import { watchStopSignals } from '../../cli/signals.js';

export default class SandboxServe extends BaseCommand<typeof SandboxServe> {
  static summary = 'Run the local sandbox store in the foreground.';
  static description = `Serves the whole store API (same endpoints, limits, errors, OAuth and webhooks) on a loopback port until Ctrl-C or SIGTERM. Once the port is bound it prints the API URL, the OAuth URL, the store id and the demo app's credentials and token; with --json exactly one JSON line: {"api_url","auth_url","store_id","app_name","client_id","client_secret","access_token","pid"}.

State is kept in --state (default $XDG_DATA_HOME/store/sandbox): every change is journaled, so a restart loads the same store, app and token; --seed only fills a new, empty state. The sandbox's credentials are not secret: they only open this local server.

--faults takes name=value pairs separated by commas: 5xx=P, reset=P, lost=P (probabilities), latency=MS or latency=MIN-MAX, seed=N, for PATCH /products/stock-price variant-fail=P or variant-fail-sku=SKU|SKU (single variants answer success: false), and ack-drop=P (writes to existing products and variants answered as applied and not applied). See docs/sandbox.md.`;

  static examples = [
    '<%= config.bin %> sandbox serve',
    '<%= config.bin %> sandbox serve --port 8080 --seed empty --plan b',
    '<%= config.bin %> sandbox serve --json --state ./sandbox-state --rate off',
    '<%= config.bin %> sandbox serve --orders 50000 --rate off',
    '<%= config.bin %> sandbox serve --faults 5xx=0.1,lost=0.05,latency=20-200,seed=7',
  ];

  static flags = {
    port: Flags.integer({ description: 'Port on 127.0.0.1 (0 picks a free port).', default: 0, min: 0, max: 65535 }),
    state: Flags.string({ description: 'State directory (default: $XDG_DATA_HOME/store/sandbox).' }),
    seed: Flags.string({ description: 'What a new, empty state starts with.', options: ['demo', 'empty'], default: 'demo' }),
    orders: Flags.integer({
      description: 'Add this many generated orders at start, spread over the last year (a store past the 10,000-result cap of GET /orders).',
      min: 1,
      max: 1_000_000,
    }),
    plan: Flags.string({
      description: 'Store plan: sets the locations limit and the rate (next and evolution get ×10).',
      options: [...PLANS],
    }),
    rate: Flags.string({ description: 'Leaky bucket as CAPACITY:LEAK_PER_SECOND (default 40:2), or "off".' }),
    'weighted-rate': Flags.string({ description: 'The weighted bucket of variant writes as CAPACITY:LEAK_PER_SECOND in weight units (default 5000:500; off with --rate off), or "off". Weights: docs/sandbox.md.' }),
    faults: Flags.string({ description: 'Inject faults, e.g. 5xx=0.1,reset=0.05,lost=0.05,latency=50-200,seed=42.' }),
    'auto-approve': Flags.boolean({ description: 'Approve OAuth authorizations without showing the approve page.' }),
    'code-ttl': Flags.integer({ description: 'Lifetime of OAuth codes in seconds (default 300).', min: 1 }),
    'webhook-retry-base': Flags.integer({ description: 'Delay before the first webhook retry, in ms (default 1000).', min: 1 }),
    'idle-timeout': Flags.integer({ description: 'Stop after this many seconds without requests (default: never).', min: 1 }),
    'clock-offset': Flags.string({ description: "Run the store's clock this far from this machine's: -10m (behind), +90s, 2h." }),
    json: Flags.boolean({ description: 'Print one JSON line once the port is bound.' }),
    'ready-file': Flags.string({ hidden: true, description: 'Also write the JSON line to this file (atomically).' }),
  };

  async run(): Promise<void> {
    const { flags } = this;
    const { UsageError, StoreError } = await import('../../errors.js');
    const rate = parseRate(flags.rate, UsageError);
    const weightedRate = parseRate(flags['weighted-rate'], UsageError, '--weighted-rate');
    if (flags.faults !== undefined) {
      const { parseFaults, FaultSpecError } = await import('../../sandbox/faults.js');
      try {
        parseFaults(flags.faults);
      } catch (error) {
        if (error instanceof FaultSpecError) throw new UsageError(error.message);
        throw error;
      }
    }
    let clockOffsetMs: number | undefined;
    if (flags['clock-offset'] !== undefined) {
      const { parseClockOffset, ClockOffsetError } = await import('../../sandbox/admin.js');
      try {
        clockOffsetMs = parseClockOffset(flags['clock-offset']);
      } catch (error) {
        if (error instanceof ClockOffsetError) throw new UsageError(error.message);
        throw error;
      }
    }
    const shared = await import('../../services/local-sandbox/shared-sandbox.js');
    const { lockStateDir, StateDirInUseError } = await import('../../sandbox/state-dir.js');
    const stateDir = flags.state ?? shared.defaultSandboxDataDir(process.env);
    let unlock: () => void;
    try {
      unlock = lockStateDir(stateDir);
    } catch (error) {
      if (error instanceof StateDirInUseError) throw new StoreError(error.message, 1);
      throw error;
    }

    try {
      const { startSandbox } = await import('../../sandbox/index.js');
      let sandbox;
      try {
        sandbox = await startSandbox({
          port: flags.port,
          host: '127.0.0.1',
          stateDir,
          seed: flags.seed as 'demo' | 'empty',
          orders: flags.orders,
          plan: flags.plan,
          rate,
          weightedRate,
          faults: flags.faults,
          autoApprove: flags['auto-approve'],
          codeTtlSeconds: flags['code-ttl'],
          webhookRetryBaseMs: flags['webhook-retry-base'],
          idleTimeoutSeconds: flags['idle-timeout'],
          clockOffsetMs,
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new StoreError(`Port ${flags.port} on 127.0.0.1 is already in use; choose another with --port.`, 1);
        throw error;
      }

      // Listen for the stop signals before announcing the server: a supervisor may signal as soon as it reads the line.
      const unwatch = stopOnSignals(sandbox);
      const info = {
        api_url: sandbox.apiUrl,
        auth_url: sandbox.authUrl,
        store_id: sandbox.storeId,
        app_name: sandbox.appName,
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        access_token: sandbox.accessToken,
        pid: process.pid,
      };
      // The sandbox's credentials are not secret (they open only this local server): printed even when STORE_TOKEN
      // holds the same token, where the output guard would otherwise scrub it.
      const { notASecret } = await import('../../output/secrets.js');
      notASecret(sandbox.accessToken, sandbox.clientSecret);
      const line = JSON.stringify(info);
      if (flags['ready-file']) {
        const { writeFileAtomic } = await import('../../util/atomic-file.js');
        await writeFileAtomic(flags['ready-file'], `${line}\n`);
      }
      if (flags.json) {
        this.io.stdout.write(`${line}\n`);
      } else {
        const { sandboxServeText } = await import('../../views/sandbox.js');
        this.io.stdout.write(sandboxServeText(info, stateDir));
        this.note('The sandbox is running; press Ctrl-C to stop it.');
      }

      try {
        await sandbox.closed;
      } finally {
        unwatch();
      }
    } finally {
      unlock();
    }
  }
}

/** `CAP:LEAK` or `off`; undefined keeps the platform's 40:2 (×10 on the high plans). */
function parseRate(
  value: string | undefined,
  UsageError: new (message: string) => Error,
  flag = '--rate',
): { capacity: number; leakPerSecond: number } | 'off' | undefined {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'off') return 'off';
  const match = /^\s*(\d+)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
  const capacity = match ? Number(match[1]) : NaN;
  const leakPerSecond = match ? Number(match[2]) : NaN;
  if (!(capacity >= 1) || !(leakPerSecond > 0)) {
    throw new UsageError(`Invalid ${flag} "${value}": use CAPACITY:LEAK_PER_SECOND such as ${flag === '--rate' ? '40:2' : '5000:500'}, or off.`);
  }
  return { capacity, leakPerSecond };
}

/** SIGINT and SIGTERM close the sandbox cleanly (exit 0); the idle timeout closes it too. Returns the unsubscribe. */
function stopOnSignals(sandbox: { close(): Promise<void> }): () => void {
  return watchStopSignals(() => void sandbox.close()).dispose;
}

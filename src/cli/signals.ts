import { io } from '../output/io.js';
import { SIGNAL_EXIT_CODES, type StopSignal } from '../util/process.js';

/**
 * The one handler of the stop signals (Ctrl-C's SIGINT, SIGTERM) of a command that runs until stopped or stops
 * cleanly: bulk commands (`trapInterrupt`), `sandbox serve`, `webhooks listen`, `orders follow`. Listening replaces
 * Node's default (exit at once), so each signal goes to `onSignal` with how many came so far, and `first` resolves
 * with the first. `dispose` gives the signals back to Node.
 */
export interface StopSignals {
  /** The first signal received. */
  first: Promise<StopSignal>;
  received(): StopSignal | undefined;
  /** The exit code that names the first signal (130 for SIGINT, 143 for SIGTERM; 130 before any). */
  exitCode(): number;
  dispose(): void;
}

export function watchStopSignals(onSignal: (signal: StopSignal, count: number) => void = () => {}): StopSignals {
  let received: StopSignal | undefined;
  let count = 0;
  let resolveFirst!: (signal: StopSignal) => void;
  const first = new Promise<StopSignal>((resolve) => (resolveFirst = resolve));
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((name) => {
    const handler = () => {
      received ??= name;
      count++;
      resolveFirst(received);
      onSignal(name, count);
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  return {
    first,
    received: () => received,
    exitCode: () => SIGNAL_EXIT_CODES[received ?? 'SIGINT'],
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}

/** What a bulk command says when asked to stop while it writes. */
export const stoppingAfterRequests = (signal: StopSignal) =>
  `\nStopping after the requests in flight (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…\n`;

/**
 * While writing, the first Ctrl-C or SIGTERM asks the running work to stop after its current requests (the
 * journal is fsync'd after every write); a second one exits at once. Before anything is written (reading
 * the file, fetching the store: `writing()` is false) there is nothing to finish, so the process exits at
 * once. Either way the exit code says which signal: 130 for SIGINT, 143 for SIGTERM (`received`). `notice` is
 * what the first signal writes to stderr (nothing when it gives undefined).
 */
export function trapInterrupt(
  writing: () => boolean = () => true,
  notice: (signal: StopSignal) => string | undefined = stoppingAfterRequests,
): {
  signal: AbortSignal;
  received(): StopSignal | undefined;
  exitCode(): number;
  dispose(): void;
} {
  const controller = new AbortController();
  const signals = watchStopSignals((name, count) => {
    if (count > 1 || !writing()) process.exit(signals.exitCode());
    const text = notice(name);
    if (text !== undefined) io().stderr.write(text);
    controller.abort();
  });
  return { signal: controller.signal, received: signals.received, exitCode: signals.exitCode, dispose: signals.dispose };
}

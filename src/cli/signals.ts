import { io } from '../output/io.js';
import { SIGNAL_EXIT_CODES, type StopSignal } from '../util/process.js';

/** What a bulk command says when asked to stop while it writes. */
const stoppingAfterRequests = (signal: StopSignal) =>
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
  let received: StopSignal | undefined;
  const onSignal = (name: StopSignal) => {
    const first = received === undefined;
    received ??= name;
    if (!first || !writing()) process.exit(SIGNAL_EXIT_CODES[received]);
    const text = notice(name);
    if (text !== undefined) io().stderr.write(text);
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

import fs from 'node:fs';

/**
 * Whether process `pid` is running, for the lock files that hold their owner's pid (the shared sandbox's lock and
 * the state-dir lock of `sandbox serve`). A zombie (exited, not yet reaped: common under a container's init)
 * counts as gone.
 */
export function pidAlive(pid: number | undefined): boolean {
  if (!pid || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  let stat = '';
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    // No /proc (macOS) or the process just went: signal 0 answered, so count it alive.
  }
  return !/^\d+ \(.*\) Z /s.test(stat);
}

/** The exit code of a run ended by a stop signal: 128 + its number, as a shell reports it (docs/exit-codes.md). */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

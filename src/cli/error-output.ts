import { terminalSafe } from '../output/format.js';
import { io } from '../output/io.js';
import { paint } from '../output/terminal.js';

/** Where an error ends: one sentence, the exit code of README's table, and the HTTP status when there was one. */
export interface ErrorReport {
  message: string;
  exitCode: number;
  status?: number;
}

/**
 * Writes an error the one way every `store` error is written: "Error: sentence" on stderr, or with `--json`
 * one JSON line `{"error":{"message","exit_code","status"?}}` on stderr; stdout is never used.
 */
export function writeError(report: ErrorReport, json: boolean): void {
  if (json) {
    const error = { message: report.message, exit_code: report.exitCode, ...(report.status ? { status: report.status } : {}) };
    io().stderr.write(`${JSON.stringify({ error })}\n`);
  } else {
    // Error messages quote what the server said: control characters are shown escaped, never obeyed.
    io().stderr.write(`${paint('Error:', 'red')} ${terminalSafe(report.message)}\n`);
  }
}

/** Whether the command line asks for JSON (`--json`, `--json=…` or `--jq`, before any `--`). */
export function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--json' || a.startsWith('--json=') || a === '--jq' || a.startsWith('--jq='));
}


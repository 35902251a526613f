import { io, type OutputStream } from './io.js';

/** TTY and colour detection (like gh's iostreams): one place that decides how output looks. */
export function isTTY(stream: OutputStream = io().stdout): boolean {
  return Boolean(stream.isTTY);
}

export function colorEnabled(stream: OutputStream = io().stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  const forced = io().color;
  if (forced !== undefined) return forced;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.TERM === 'dumb') return false;
  return isTTY(stream);
}

const ANSI = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] } as const;
export type Style = keyof typeof ANSI;

export function paint(text: string, style: Style, enabled = colorEnabled(io().stderr)): string {
  if (!enabled) return text;
  const [open, close] = ANSI[style];
  return `\u001B[${open}m${text}\u001B[${close}m`;
}

/**
 * Columns a table may use: COLUMNS when set (scripts and tests pin it), else the terminal's width, else 80.
 * Only asked for tables, which are drawn on a terminal; piped output is never cut.
 */
export function terminalWidth(stream: OutputStream = io().stdout, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return stream.columns && stream.columns > 0 ? stream.columns : 80;
}

/** TTY and colour detection (like gh's iostreams): one place that decides how output looks. */
export function isTTY(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY);
}

export function colorEnabled(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.TERM === 'dumb') return false;
  return isTTY(stream);
}

const ANSI = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] } as const;
export type Style = keyof typeof ANSI;

export function paint(text: string, style: Style, enabled = colorEnabled(process.stderr)): string {
  if (!enabled) return text;
  const [open, close] = ANSI[style];
  return `\u001B[${open}m${text}\u001B[${close}m`;
}

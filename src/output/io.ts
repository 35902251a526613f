/**
 * The streams a command reads and writes (gh's iostreams): the process's own by default; a test that runs
 * commands in its own process (test/helpers/run-in-process.ts) gives each run its own, with the terminal it
 * pretends to have. Everything in src/ that prints, reads stdin or asks whether it talks to a terminal goes
 * through `io()`, so one switch redirects all of it.
 */

interface InputStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}

export interface OutputStream extends NodeJS.WritableStream {
  isTTY?: boolean;
  /** The terminal's width, when it is one. */
  columns?: number;
}

export interface IOStreams {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Forces colour on or off; otherwise NO_COLOR, FORCE_COLOR, TERM and whether the stream is a terminal decide. */
  color?: boolean;
}

/** The process's streams, looked up when used: touching process.stdin opens it, which only readers should do. */
export const processIO: IOStreams = {
  get stdin() {
    return process.stdin;
  },
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
};

let active: IOStreams = processIO;

/** The streams of the command running now. */
export function io(): IOStreams {
  return active;
}

/** Makes `streams` the ones every later write and read goes to (the in-process test runner, around each run). */
export function useIO(streams: IOStreams): void {
  active = streams;
}

/**
 * Writes `chunk` and, when the stream's buffer is full (a pipe whose reader is slower), resolves only once it has
 * drained: a command that streams a large result awaits this between chunks, so it holds one chunk, not the
 * whole output (`runs show --json` of a 100,000-change run into a pipe held 388 MiB without it).
 */
export function writeOut(out: NodeJS.WritableStream, chunk: string): Promise<void> {
  if (out.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => out.once('drain', () => resolve()));
}

/** Whether a question can be asked: someone types on stdin and reads stderr, where prompts go (stdout may be piped). */
export function canPrompt(): boolean {
  return Boolean(active.stdin.isTTY && active.stderr.isTTY);
}

/**
 * All of standard input, as text. Past `maxBytes` the reading stops (nothing more is held) with the error
 * `tooLarge` makes: what stdin feeds is held in memory whole, so each reader says how much it takes.
 */
export async function readStdin(maxBytes = Number.POSITIVE_INFINITY, tooLarge: (maxBytes: number) => Error = (max) => new Error(`standard input is larger than ${max} bytes`)): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of active.stdin) {
    bytes += (chunk as Buffer).length;
    if (bytes > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The error taxonomy of the CLI. Every error a command can end with is a StoreError: its `message` is one
 * sentence for stderr and its `exitCode` follows docs/exit-codes.md. The HTTP errors (ApiError and its kinds,
 * NetworkError) extend it in client/errors.ts.
 */
import { closestMatches, orList } from './util/suggest.js';

export class StoreError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad usage or invalid input (unknown flag, invalid value, a row that fails validation). */
export class UsageError extends StoreError {
  constructor(message: string) {
    super(message, 2);
  }
}

const FILE_ERROR_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
};

/**
 * A local file the user named cannot be read: one sentence, "[--flag: ]Cannot read PATH: reason." (exit 2).
 * The reason is said in words; a raw errno code would not tell a user what to fix.
 */
export function unreadableFile(path: string, error: unknown, flag?: string): UsageError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const reason = FILE_ERROR_REASONS[code] ?? (error instanceof Error ? error.message : String(error));
  return new UsageError(`${flag ? `${flag}: cannot` : 'Cannot'} read ${path}: ${reason}.`);
}


/** Some items failed and the rest were done; the message says how many. */
export class PartialFailureError extends StoreError {
  constructor(
    message: string,
    readonly failures: unknown[] = [],
  ) {
    super(message, 3);
  }
}


/**
 * Stopped before the first write, nothing sent (exit 5): a brake of an unattended run tripped, or a saved plan's
 * records changed in the store since it was made. `detail` is what the command prints besides the sentence (the
 * plan's summary and the records that stopped it).
 */
export class StoppedBeforeWriting extends StoreError {
  constructor(
    message: string,
    readonly detail: unknown = undefined,
  ) {
    super(message, 5);
  }
}

export function stripPeriod(text: string): string {
  return text.trim().replace(/\.+$/, '');
}


/** How the command layer reports an error: one sentence, the exit code, the HTTP status when there was one. */
export interface ErrorDescription {
  message: string;
  exitCode: number;
  status?: number;
  /** Not an error the CLI expects (a bug, or an unknown failure): its stack is worth showing with --debug. */
  unexpected?: boolean;
}

/**
 * Any error a command can end with, as one sentence and an exit code (README's table). oclif's parse errors
 * (unknown flag, missing or unexpected argument, invalid value) are usage errors, exit 2, their several lines
 * made one sentence that points at the command's help.
 */
export function describeError(err: Error & { oclif?: { exit?: number }; parse?: unknown }, command: string): ErrorDescription {
  if (err instanceof StoreError) {
    // An HTTP error (client/errors.ts's ApiError) carries the status it ended with; 0 when no exchange happened.
    const status = (err as StoreError & { status?: unknown }).status;
    return { message: err.message, exitCode: err.exitCode, ...(typeof status === 'number' && status > 0 ? { status } : {}) };
  }
  const help = `see \`${command} --help\``;
  if (err.parse !== undefined) {
    const e = err as Error & { args?: { name?: string }[]; flags?: string[] };
    const kind = err.constructor.name;
    if (kind === 'NonExistentFlagsError' && e.flags) {
      return { message: `Unknown flag${e.flags.length === 1 ? '' : 's'} ${e.flags.join(', ')} (${help}).`, exitCode: 2 };
    }
    if (kind === 'UnexpectedArgsError' && e.args) {
      return { message: `Unexpected argument${e.args.length === 1 ? '' : 's'} ${e.args.join(' ')} (${help}).`, exitCode: 2 };
    }
    if (kind === 'FlagInvalidOptionError' || kind === 'ArgInvalidOptionError') {
      const invalid = invalidOption(err.message);
      if (invalid) return { message: `${invalid} (${help}${invalid.includes('did you mean') ? '' : ' for the values'}).`, exitCode: 2 };
    }
    if (kind === 'RequiredArgsError' && e.args) {
      const names = e.args.map((a) => (a.name ?? '').toUpperCase());
      return { message: `Missing argument${names.length === 1 ? '' : 's'} ${names.join(' and ')} (${help}).`, exitCode: 2 };
    }
    return { message: `${oneSentence(err.message)} (${help}).`, exitCode: 2 };
  }
  if (err.oclif?.exit !== undefined) return { message: oneSentence(err.message), exitCode: err.oclif.exit };
  return { message: oneSentence(err.message), exitCode: 1, unexpected: true };
}

/**
 * oclif's "Expected --status=opne to be one of: open, closed, …" as "--status opne is not valid; did you mean
 * open?": the closest values only, the whole list is the help's to show.
 */
function invalidOption(message: string): string | undefined {
  const match = /^Expected (?:(--[\w-]+)=)?([\s\S]*) to be one of: ([\s\S]*)$/.exec(message.trim());
  if (!match) return undefined;
  const [, flag, value, list] = match as unknown as [string, string | undefined, string, string];
  const suggestions = closestMatches(value, list.split(', '), { limit: 3 });
  const what = flag ? `${flag} ${value}` : `"${value}"`;
  return `${what} is not valid${suggestions.length > 0 ? `; did you mean ${orList(suggestions)}?` : ''}`;
}

/** oclif's multi-line messages as one line: no colour, no "See more help", no headings, lines joined by "; ". */
function oneSentence(message: string): string {
  const lines = message
    // eslint-disable-next-line no-control-regex
    .replace(/\u001B\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^See more help with --help$/.test(l) && !/^The following errors? occurred:$/.test(l) && !/^(Note:|Alternatively,)/.test(l));
  return stripPeriod(lines.join('; ') || 'Unknown error');
}

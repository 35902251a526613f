import { StoreError } from '../../errors.js';
import type { BulkFile } from './bulk-file.js';

/**
 * A problem of one row of a bulk file, found before anything is sent: where it is (file, line and, when it is
 * in one cell, column and header) and what is wrong, in words the person who edits the file can act on.
 */
export interface RowError {
  file: string;
  line: number;
  /** 1-based column number and header, when the problem is in one cell. */
  column?: number;
  header?: string;
  /** The row's key (handle, SKU), when known. */
  key?: string;
  message: string;
}

export function formatRowError(error: RowError): string {
  const where = error.column !== undefined ? `, column ${error.column}${error.header ? ` (${error.header})` : ''}` : '';
  return `${error.file}, line ${error.line}${where}: ${error.message}`;
}

/** The file has row errors: nothing was sent (exit 2). The command lists `errors`; the message says what to do. */
export class FileInvalidError extends StoreError {
  /** Why `--report` could not be written, when it could not: said after the row errors. */
  reportProblem?: string;

  constructor(
    readonly errors: RowError[],
    message: string,
    /** The file as read, for the report of its rows (report.ts). */
    readonly source?: BulkFile,
  ) {
    super(message, 2);
  }
}

/** A bulk file as its kind read it: its rows' errors, whether its header spoils every row, the file itself. */
export interface CheckedFile {
  /** How messages name the file. */
  file: string;
  errors: RowError[];
  /** The header is unusable (a column unknown or twice, a required one missing): no row can be read. */
  headerBroken?: boolean;
  source?: BulkFile;
}

/**
 * The rule of every bulk file: nothing is sent while a row is invalid, unless `--skip-invalid` (then the valid
 * rows go, and the invalid ones are failed rows). Throws FileInvalidError (exit 2) when the file cannot go;
 * `valid` counts what --skip-invalid would send (`unit`: "product", "row"), and the hint to use it is given
 * only when it would send something.
 */
export function refuseInvalidFile(checked: CheckedFile, valid: number, how: { skipInvalid?: boolean; verb: string; unit: string }): void {
  if (checked.errors.length === 0) return;
  const usable = !checked.headerBroken && valid > 0;
  if (how.skipInvalid && usable) return;
  const hint = usable ? `fix the file, or use --skip-invalid to ${how.verb} ${valid === 1 ? `the valid ${how.unit}` : `the ${valid} valid ${how.unit}s`}` : 'fix the file and run it again';
  throw new FileInvalidError(checked.errors, `${checked.file} has ${errorCount(checked.errors)}; nothing was sent (${hint}).`, checked.source);
}

/** "3 errors", "1 error": how many problems a file has, for the messages of FileInvalidError. */
export function errorCount(errors: RowError[]): string {
  return `${errors.length} ${errors.length === 1 ? 'error' : 'errors'}`;
}

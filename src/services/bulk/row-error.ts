import { StoreError } from '../../errors.js';
import type { ReportRow } from './report.js';

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

/** A row error as a line of the failure report (the file is the report's own subject, so it is left out). */
export function validationRow(e: RowError): ReportRow {
  const where = e.column !== undefined ? `column ${e.column}${e.header ? ` (${e.header})` : ''}: ` : '';
  return { line: e.line, key: e.key ?? '', stage: 'validation', reason: `${where}${e.message}` };
}

/** The file has row errors: nothing was sent (exit 2). The command lists `errors`; the message says what to do. */
export class FileInvalidError extends StoreError {
  /** Why `--report` could not be written, when it could not: said after the row errors. */
  reportProblem?: string;

  constructor(
    readonly errors: RowError[],
    message: string,
  ) {
    super(message, 2);
  }
}

/** "3 errors", "1 error": how many problems a file has, for the messages of FileInvalidError. */
export function errorCount(errors: RowError[]): string {
  return `${errors.length} ${errors.length === 1 ? 'error' : 'errors'}`;
}

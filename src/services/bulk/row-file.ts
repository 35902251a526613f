import { basename } from 'node:path';
import { StoreError } from '../../errors.js';
import { BulkFile, type BulkFileOptions, type FileColumn, cellValue } from './bulk-file.js';
import type { CheckedFile, RowError } from './row-error.js';

/**
 * A file of rows of one kind (the invoices of `invoices attach --file`, the shipments of `orders ship --file`;
 * docs/csv.md) read and checked whole through the file model (bulk-file.ts): the header's columns against the
 * kind's, each row's cells through the kind's parsers, every problem a row error with its line and column, so that
 * the rows are checked before anything is sent. The kind says what its columns are and what a row asks.
 */

export interface RowFileKind<Column extends string, Request> {
  columns: readonly Column[];
  required: readonly Column[];
  /** The unknown-column message's list of the kind's columns: "an invoices file has order_id, key, …". */
  has: string;
  /** What an empty file lacks: "a header row with order_id, key and link". */
  needs: string;
  /** What the empty cell of a required column says. */
  empty: Partial<Record<Column, string>>;
  /** The column whose cell keys a row's errors (its order), for the failure report. */
  keyColumn: Column;
  /**
   * A reader of one file's rows, made per file (it may keep what earlier rows named): a row's request, or
   * undefined once the row is invalid (its errors kept through `cells`).
   */
  rowReader(): (cells: RowCells<Column>) => Request | undefined;
}

/** One row's cells as a kind reads them. */
export interface RowCells<Column extends string> {
  line: number;
  has(name: Column): boolean;
  /** The cell's text (blank when the column is absent). */
  value(name: Column): string;
  /** The cell's value read by `parse`, or undefined after its error (at its column) was kept. */
  check<T>(name: Column, parse: (text: string) => T): T | undefined;
  /** Keeps an error of the row at a column's cell. */
  fail(name: Column, message: string): void;
}

export interface Row<Request> {
  line: number;
  request: Request;
}

export interface RowFile<Request> extends CheckedFile {
  /** The valid rows, in file order. */
  good: Row<Request>[];
  /** Rows read (blank ones skipped), valid or not. */
  rows: number;
}

export interface ReadRowFileOptions extends BulkFileOptions {
  name?: string;
}

export async function readRowFile<Column extends string, Request>(path: string, kind: RowFileKind<Column, Request>, options: ReadRowFileOptions = {}): Promise<RowFile<Request>> {
  const file = options.name ?? basename(path);
  const read: RowFile<Request> = { file, errors: [], good: [], rows: 0 };
  const opened = await BulkFile.open(path, options, file);
  if ('problem' in opened) {
    read.errors.push(opened.problem);
    read.headerBroken = true;
    return read;
  }
  read.source = opened;
  let columns: Map<Column, FileColumn> | undefined;
  const readRequest = kind.rowReader();
  for await (const event of opened.read()) {
    if (event.kind === 'problem') {
      read.errors.push(event.error);
      if (!columns) read.headerBroken = true;
    } else if (event.kind === 'header') {
      columns = readHeader(kind, file, event.header.line, event.header.columns, read);
    } else if (columns && !read.headerBroken) {
      read.rows++;
      readRow(kind, file, event, columns, readRequest, read);
    }
  }
  if (!columns) {
    read.headerBroken = true;
    if (read.errors.length === 0) read.errors.push({ file, line: 1, message: `the file is empty; it needs ${kind.needs}` });
  }
  return read;
}

function readHeader<Column extends string>(kind: RowFileKind<Column, unknown>, file: string, line: number, header: FileColumn[], read: CheckedFile): Map<Column, FileColumn> {
  const columns = new Map<Column, FileColumn>();
  for (const column of header) {
    const name = column.name.toLowerCase() as Column;
    if (kind.columns.includes(name)) {
      columns.set(name, column);
      continue;
    }
    read.errors.push({
      file,
      line,
      column: column.index + 1,
      header: column.header,
      message: `unknown column "${column.name}"; ${kind.has}: rename it with --map '${column.header}=COLUMN', or leave it out with --map '${column.header}='`,
    });
    read.headerBroken = true;
  }
  for (const required of kind.required) {
    if (columns.has(required)) continue;
    read.errors.push({ file, line, message: `no "${required}" column; every row needs one: add the column, or name yours with --map 'YOUR_COLUMN=${required}'` });
    read.headerBroken = true;
  }
  return columns;
}

function readRow<Column extends string, Request>(
  kind: RowFileKind<Column, Request>,
  file: string,
  record: { line: number; cells: string[]; problems: RowError[] },
  columns: Map<Column, FileColumn>,
  readRequest: (cells: RowCells<Column>) => Request | undefined,
  read: RowFile<Request>,
): void {
  const { line, cells } = record;
  const errors: RowError[] = [...record.problems];
  const value = (name: Column) => {
    const column = columns.get(name);
    return column ? cellValue(cells[column.index] ?? '') : '';
  };
  const fail = (column: FileColumn, message: string) => errors.push({ file, line, column: column.index + 1, header: column.header, message });
  const request = readRequest({
    line,
    has: (name) => columns.has(name),
    value,
    check: (name, parse) => {
      const column = columns.get(name);
      if (!column) return parse('');
      const text = value(name);
      if ((cells[column.index] ?? '').includes('\uFFFD')) return undefined; // said by the file model
      try {
        const empty = kind.empty[name];
        if (text === '' && empty) throw new StoreError(empty, 2);
        return parse(text);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        fail(column, error.message.trim().replace(/\.$/, ''));
        return undefined;
      }
    },
    fail: (name, message) => fail(columns.get(name)!, message),
  });
  if (errors.length > 0 || request === undefined) {
    const keyCell = value(kind.keyColumn);
    for (const e of errors) read.errors.push({ ...e, key: keyCell || undefined });
    return;
  }
  read.good.push({ line, request });
}

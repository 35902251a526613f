import type { Column } from '../output/format.js';

/** A titled part under a record in a detail view: a list (an order's items) or labelled lines (its shipping address). */
export interface DetailSection {
  title: string;
  rows: unknown[];
  columns: Column<never>[];
  /** Labelled lines instead of a list. */
  fields?: [string, unknown][];
  /**
   * On a terminal, each row as labelled lines (long values wrapped) instead of a table row: for the few,
   * wide rows under a record (an order's shipments and invoices). Piped, the rows are TSV like any list.
   */
  rowsAsRecords?: boolean;
}

/** Builds a section, keeping the row type of its columns checked against its rows. */
export function section<Row>(title: string, rows: Row[], columns: Column<Row>[], opts: { rowsAsRecords?: boolean } = {}): DetailSection {
  return { title, rows, columns: columns as Column<never>[], ...opts };
}

/** A section of labelled lines ("Shipping address": name, street, city…). */
export function fieldSection(title: string, fields: [string, unknown][]): DetailSection {
  return { title, rows: [], columns: [], fields };
}

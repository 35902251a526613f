import type { Dialect } from './dialects.js';

/**
 * The `command` column of a catalog file (docs/csv.md, "What each row does"): Matrixify's per-row commands.
 * A blank cell is MERGE, today's default (create what is missing, update what differs).
 *
 *   NEW      create the row's record; a row whose variant (or product) the store already holds fails
 *   MERGE    create or update
 *   UPDATE   update only; a row whose record the store does not hold fails
 *   REPLACE  the variant becomes what the row says (its blank cells clear the field); when every row of the
 *            product says REPLACE, the product's variants no row names are removed too
 *   DELETE   a row without SKU and option values deletes its product; with them, that variant
 *   IGNORE   the row is skipped (not even checked)
 */

export const ROW_COMMANDS = ['NEW', 'MERGE', 'UPDATE', 'REPLACE', 'DELETE', 'IGNORE'] as const;
export type RowCommand = (typeof ROW_COMMANDS)[number];

/** The admin export's languages' words for the commands, accepted in a file of that dialect. */
const WORDS: Partial<Record<Dialect, Record<string, RowCommand>>> = {
  'admin-es': { NUEVO: 'NEW', FUSIONAR: 'MERGE', COMBINAR: 'MERGE', ACTUALIZAR: 'UPDATE', REEMPLAZAR: 'REPLACE', ELIMINAR: 'DELETE', BORRAR: 'DELETE', IGNORAR: 'IGNORE' },
  'admin-pt': { NOVO: 'NEW', MESCLAR: 'MERGE', ATUALIZAR: 'UPDATE', SUBSTITUIR: 'REPLACE', EXCLUIR: 'DELETE', APAGAR: 'DELETE', IGNORAR: 'IGNORE' },
};

/** A command cell read: the command, or the sentence that says what the cell may hold. Case and accents aside. */
export function readCommand(text: string, dialect: Dialect): RowCommand | { error: string } {
  const word = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toUpperCase();
  if ((ROW_COMMANDS as readonly string[]).includes(word)) return word as RowCommand;
  const local = WORDS[dialect]?.[word];
  if (local) return local;
  const words = WORDS[dialect] ? ` (or ${Object.keys(WORDS[dialect]!).join(', ')})` : '';
  return { error: `"${text}" is not a command; write NEW, MERGE, UPDATE, REPLACE, DELETE or IGNORE${words}, or leave it blank for MERGE` };
}

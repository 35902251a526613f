import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cellText, chooseFormat, escapeFormula, terminalSafe, toTsvLine, unescapeFormula } from '../../../src/output/format.js';
import { toCsvLine } from '../../../src/output/render.js';
import { renderRecord } from '../../../src/output/render.js';
import { renderRows } from '../../../src/output/render.js';
import { colorEnabled } from '../../../src/output/terminal.js';

describe('output formats', () => {
  it('chooses a table on a TTY, TSV when piped, and the explicit flags first', () => {
    expect(chooseFormat({}, true)).toBe('table');
    expect(chooseFormat({}, false)).toBe('tsv');
    expect(chooseFormat({ csv: true }, true)).toBe('csv');
    expect(chooseFormat({ json: true, csv: true }, false)).toBe('json');
  });

  it('escapes cells a spreadsheet would run as formulas, but keeps negative numbers', () => {
    expect(escapeFormula('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(escapeFormula('+1+1')).toBe("'+1+1");
    expect(escapeFormula('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(escapeFormula('-5')).toBe('-5');
    expect(escapeFormula('-2.50')).toBe('-2.50');
    expect(escapeFormula('Camisa')).toBe('Camisa');
  });

  it('escapes text that already starts with quotes before a formula character, so one quote removed gives it back', () => {
    expect(escapeFormula("'=1+1")).toBe("''=1+1");
    expect(escapeFormula("''-x")).toBe("'''-x");
    expect(escapeFormula("'hola")).toBe("'hola");
  });

  it('escapes a formula on any line of a cell, whatever precedes it, and a cell starting with a line break', () => {
    expect(escapeFormula('Harmless\n=1+1')).toBe("Harmless\n'=1+1");
    expect(escapeFormula('a\r\n@x\r+y')).toBe("a\r\n'@x\r'+y");
    expect(escapeFormula('\r=1')).toBe("'\r'=1");
    expect(escapeFormula('Tab\n\t=2')).toBe("Tab\n'\t=2");
    expect(escapeFormula('\uFF1D1+1')).toBe("'\uFF1D1+1");
    expect(escapeFormula('line\nplain')).toBe('line\nplain');
  });

  it('unescapeFormula undoes escapeFormula exactly, for any text', () => {
    const alphabet = fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', '\n', 'a', '1', '.', ' ', '\uFF1D');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join('')), (text) => {
        expect(unescapeFormula(escapeFormula(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('shows control characters from the store escaped in every format, never raw', () => {
    const hostile = 'Eve\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e\r\nok';
    expect(terminalSafe(hostile)).toBe('Eve\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202e\nok');
    expect(cellText(hostile)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    // JSON already escapes C0 controls; C1 ones (U+009B, a one-byte CSI) it leaves raw, so they are escaped too.
    expect(cellText({ note: '\u001b[2J\u009b' })).toBe('{"note":"\\u001b[2J\\x9b"}');
    for (const format of ['table', 'tsv', 'csv'] as const) {
      let out = '';
      renderRows([{ name: hostile }], [{ header: 'name', get: (r) => r.name }], format, (t) => (out += t));
      expect(out, format).not.toMatch(/[\u001b\u0007\u009b\u202e\r]/);
    }
    let record = '';
    renderRecord([['Customer', hostile]], (t) => (record += t));
    expect(record).not.toContain('\u001b');
    // Layout characters stay: tab and line feed are handled by each format.
    expect(terminalSafe('a\tb\nc')).toBe('a\tb\nc');
  });

  it('quotes CSV cells with commas, quotes and newlines', () => {
    expect(toCsvLine(['a,b', 'say "hi"', 'two\nlines', '=1+1'])).toBe(`"a,b","say ""hi""","two\nlines",'=1+1`);
  });

  it('keeps one record per TSV line', () => {
    expect(toTsvLine(['a\tb', 'c\nd'])).toBe('a b\tc d');
  });

  it('renders cells of every type as text', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(12.5)).toBe('12.5');
    expect(cellText(['a', 'b'])).toBe('a, b');
    expect(cellText({ es: 'Camisa' })).toBe('{"es":"Camisa"}');
  });

  it('renders rows as TSV, CSV and an aligned table', async () => {
    const rows = [
      { id: 1, name: 'Camisa' },
      { id: 22, name: '=cmd' },
    ];
    const columns = [
      { header: 'id', get: (r: (typeof rows)[0]) => r.id },
      { header: 'name', get: (r: (typeof rows)[0]) => r.name },
    ];
    let out = '';
    await renderRows(rows, columns, 'tsv', (t) => (out += t));
    expect(out).toBe('id\tname\n1\tCamisa\n22\t=cmd\n');
    out = '';
    await renderRows(rows, columns, 'csv', (t) => (out += t));
    expect(out).toBe("id,name\n1,Camisa\n22,'=cmd\n");
    out = '';
    await renderRows(rows, columns, 'table', (t) => (out += t));
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME$/);
    expect(lines[2]).toMatch(/^22\s+=cmd$/);
    expect(lines[1].indexOf('Camisa')).toBe(lines[0].indexOf('NAME'));
  });

  it('honours NO_COLOR and FORCE_COLOR', () => {
    const tty = { isTTY: true } as NodeJS.WriteStream;
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: false } as NodeJS.WriteStream, { FORCE_COLOR: '1' })).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { describeError } from '../../../src/errors.js';
import fc from 'fast-check';
import { cellText, displayWidth, layoutTable, minimumTableWidth, plural, relativeTime, truncateToWidth } from '../../../src/output/format.js';
import { renderRecord, renderRows, wrapText } from '../../../src/output/render.js';
import { colorEnabled } from '../../../src/output/terminal.js';

describe('tables fitted to the terminal', () => {
  it('measures what a terminal shows: colour codes none, accents one, CJK and emoji two', () => {
    expect(displayWidth('\u001B[1mID\u001B[22m')).toBe(2);
    expect(displayWidth('Sánchez')).toBe(7);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('商品')).toBe(4);
    expect(truncateToWidth('Diego Sánchez', 6)).toBe('Diego…');
    expect(truncateToWidth('商品名', 4)).toBe('商…');
    expect(truncateToWidth('short', 8)).toBe('short');
  });

  it('drops the lowest-priority columns whole before cutting free text; ids, states, amounts and headers stay whole', () => {
    const headers = ['ID', 'STATUS', 'CREATED', 'CUSTOMER', 'TOTAL'];
    const cells = [['1000000100', 'cancelled', 'yesterday 14:05', 'Diego Sánchez <diego@example.com>', '25200.00 ARS']];
    const fits = [
      { cut: false, priority: 0 },
      { cut: false, priority: 0 },
      { cut: false, priority: 1 },
      { cut: true, priority: 0 },
      { cut: false, priority: 0 },
    ];
    // Everything fits: nothing dropped, nothing cut.
    expect(layoutTable(headers, cells, fits, 200)).toEqual({ shown: [0, 1, 2, 3, 4], widths: [10, 9, 15, 33, 12] });
    // The text fits at its comfortable width: it is cut, the date stays.
    expect(layoutTable(headers, cells, fits, 70)).toEqual({ shown: [0, 1, 2, 3, 4], widths: [10, 9, 15, 16, 12] });
    // Narrower: the created column goes whole, then the customer is cut.
    expect(layoutTable(headers, cells, fits, 50)).toEqual({ shown: [0, 1, 3, 4], widths: [10, 9, 13, 12] });
    // --wide: every column, nothing cut.
    expect(layoutTable(headers, cells, fits, 50, { wide: true })).toEqual({ shown: [0, 1, 2, 3, 4], widths: [10, 9, 15, 33, 12] });
    expect(minimumTableWidth(headers, cells, fits)).toBe(10 + 9 + 8 + 12 + 6);
  });

  it('drops an empty optional column before cutting text', () => {
    const layout = layoutTable(['URL', 'HEADERS'], [['https://example.com/a/long/path', '']], [{ cut: true, priority: 0 }, { cut: true, priority: 2 }], 30);
    expect(layout).toEqual({ shown: [0], widths: [30] });
  });

  it('property: on any terminal at least the minimum wide, no line is wider, headers and identifying columns whole', async () => {
    const column = fc.record({
      header: fc.stringMatching(/^[A-Z]{1,12}$/),
      cut: fc.boolean(),
      priority: fc.integer({ min: 0, max: 4 }),
    });
    const cell = fc.oneof(fc.string({ maxLength: 40 }), fc.stringMatching(/^[0-9]{1,12}$/), fc.constantFrom('商品名', 'Sánchez 🎉', 'e\u0301t\u00e9'));
    const table = fc.array(column, { minLength: 1, maxLength: 8 }).chain((cols) =>
      fc.record({ cols: fc.constant(cols), rows: fc.array(fc.array(cell, { minLength: cols.length, maxLength: cols.length }), { minLength: 1, maxLength: 6 }), extra: fc.integer({ min: 0, max: 120 }) }),
    );
    for (const run of fc.sample(table, { numRuns: 300, seed: 23 })) {
      const { cols, rows, extra } = run;
      const columns = cols.map((c, i) => ({ header: c.header.toLowerCase(), get: (r: string[]) => r[i], kind: c.cut ? ('text' as const) : ('id' as const), priority: c.priority }));
      const fits = cols.map((c) => ({ cut: c.cut, priority: c.priority }));
      const headers = cols.map((c) => c.header);
      const safe = rows.map((r) => r.map((v) => cellText(v).replace(/[\t\r\n]+/g, ' ')));
      const width = minimumTableWidth(headers, safe, fits) + extra;
      let out = '';
      await renderRows(rows, columns, 'table', (t) => (out += t), { width });
      const lines = out.trimEnd().split('\n');
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      const { shown } = layoutTable(headers, safe, fits, width);
      // Every header shown is whole, and every column never dropped is shown.
      for (const i of shown) expect(lines[0]).toContain(headers[i]);
      for (const [i, c] of cols.entries()) if (c.priority === 0) expect(shown).toContain(i);
      // Identifying cells are whole.
      for (const [r, row] of safe.entries()) for (const i of shown) if (!cols[i]!.cut) expect(lines[r + 1]).toContain(row[i]!.trimEnd());
    }
  });

  it('draws headers aligned with their data with colour on, every line within the width', async () => {
    const rows = [{ id: 1, name: 'Camisa Oxford de algodón pima', price: '32000.00' }];
    const columns = [
      { header: 'id', get: (r: (typeof rows)[0]) => r.id },
      { header: 'name', get: (r: (typeof rows)[0]) => r.name },
      { header: 'price', get: (r: (typeof rows)[0]) => r.price },
    ];
    let out = '';
    await renderRows(rows, columns, 'table', (t) => (out += t), { color: true, width: 24 });
    const [head, row] = out.replace(/\u001B\[[0-9;]*m/g, '').trimEnd().split('\n');
    expect(head).toBe('ID  NAME        PRICE');
    expect(row).toBe('1   Camisa Ox…  32000.00');
    expect(row!.indexOf('32000.00')).toBe(head!.indexOf('PRICE'));
    for (const line of out.replace(/\u001B\[[0-9;]*m/g, '').trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(24);
  });
});

describe('times, money and states in a table', () => {
  const now = Date.parse('2026-11-25T17:30:00Z');
  const utc = 'UTC';

  it('reads times relative to an injected clock: just now, minutes, hours today, yesterday with the time, then the date', () => {
    expect(relativeTime(new Date('2026-11-25T17:29:31Z'), now, utc)).toBe('just now');
    expect(relativeTime(new Date('2026-11-25T17:18:00Z'), now, utc)).toBe('12m ago');
    expect(relativeTime(new Date('2026-11-25T14:10:00Z'), now, utc)).toBe('3h ago');
    expect(relativeTime(new Date('2026-11-24T14:05:00Z'), now, utc)).toBe('yesterday 14:05');
    expect(relativeTime(new Date('2026-11-20T09:00:00Z'), now, utc)).toBe('2026-11-20');
    // In Buenos Aires (UTC−3) 01:00Z on the 25th was still the 24th.
    expect(relativeTime(new Date('2026-11-25T01:00:00Z'), now, 'America/Argentina/Buenos_Aires')).toBe('yesterday 22:00');
    // Another clock ahead of ours: the date and time, never "in 5m".
    expect(relativeTime(new Date('2026-11-25T18:00:00Z'), now, utc)).toBe('2026-11-25 18:00');
  });

  const rows = [
    { id: 1, status: 'cancelled', created_at: '2026-11-25T14:10:00+0000', total: '16700.00', currency: 'ARS' },
    { id: 22, status: 'paid', created_at: '2026-11-24T14:05:00-03:00', total: '900.50', currency: 'ARS' },
  ];
  type Row = (typeof rows)[number];
  const columns = [
    { header: 'id', get: (r: Row) => r.id, kind: 'id' as const },
    { header: 'status', get: (r: Row) => r.status, kind: 'state' as const },
    { header: 'created_at', label: 'created', get: (r: Row) => r.created_at, kind: 'time' as const },
    { header: 'total', get: (r: Row) => r.total, show: (r: Row) => `${r.total} ${r.currency}`, kind: 'money' as const },
    { header: 'currency', get: (r: Row) => r.currency, only: 'machine' as const },
  ];

  it('a table: relative times, amounts right-aligned with their currency, states coloured only with colour on', async () => {
    let plain = '';
    await renderRows(rows, columns, 'table', (t) => (plain += t), { now, timeZone: utc, color: false });
    expect(plain).toBe(
      ['ID  STATUS     CREATED                 TOTAL', '1   cancelled  3h ago           16700.00 ARS', '22  paid       yesterday 17:05    900.50 ARS', ''].join('\n'),
    );
    expect(plain).not.toContain('\u001B');
    let coloured = '';
    await renderRows(rows, columns, 'table', (t) => (coloured += t), { now, timeZone: utc, color: true });
    expect(coloured).toContain('\u001B[31mcancelled\u001B[39m');
    expect(coloured).toContain('\u001B[32mpaid\u001B[39m');
    expect(coloured.replace(/\u001B\[[0-9;]*m/g, '')).toBe(plain);
  });

  it('colour is on only for a terminal without NO_COLOR: a pipe gets none, and TSV never', async () => {
    expect(colorEnabled({ isTTY: true } as NodeJS.WriteStream, {})).toBe(true);
    expect(colorEnabled({ isTTY: true } as NodeJS.WriteStream, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: false } as NodeJS.WriteStream, {})).toBe(false);
    let tsv = '';
    await renderRows(rows, columns, 'tsv', (t) => (tsv += t), { color: true });
    expect(tsv).not.toContain('\u001B');
  });

  it('TSV and CSV: every timestamp in one ISO 8601 form with its offset, the currency in its own column', async () => {
    let tsv = '';
    await renderRows(rows, columns, 'tsv', (t) => (tsv += t));
    expect(tsv).toBe('id\tstatus\tcreated_at\ttotal\tcurrency\n1\tcancelled\t2026-11-25T14:10:00+00:00\t16700.00\tARS\n22\tpaid\t2026-11-24T14:05:00-03:00\t900.50\tARS\n');
    let csv = '';
    await renderRows(rows, columns, 'csv', (t) => (csv += t));
    expect(csv.split('\n')[1]).toBe('1,cancelled,2026-11-25T14:10:00+00:00,16700.00,ARS');
  });

  it('a record wraps long values under themselves instead of cutting them', () => {
    const url = 'https://tracking.example.com/shipments/TNKN21Q49286CA?lang=es&utm_source=store';
    let out = '';
    renderRecord([['tracking', url], ['address', 'Av. Corrientes 1234, piso 5, C1043 Ciudad Autónoma de Buenos Aires, Argentina']], (t) => (out += t), { width: 40 });
    const lines = out.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    expect(lines[0]!.startsWith('tracking  https://')).toBe(true);
    expect(lines.filter((l) => l.startsWith('          ')).length).toBeGreaterThan(1);
    expect(out.replace(/\n {10}/g, '').includes(url)).toBe(true);
    expect(wrapText('a bb ccc', 4)).toEqual(['a bb', 'ccc']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });
});

describe('plural', () => {
  it('says 1 product, 2 products, 1 category, 2 categories', () => {
    expect(plural(1, 'product')).toBe('1 product');
    expect(plural(2, 'product')).toBe('2 products');
    expect(plural(1, 'category', 'categories')).toBe('1 category');
    expect(plural(0, 'category', 'categories')).toBe('0 categories');
  });
});

describe('describeError', () => {
  it('makes oclif’s multi-line parse errors one usage sentence, exit 2', () => {
    const parse = Object.assign(new Error('The following error occurred:\n  --all=true cannot also be provided when using --limit\nSee more help with --help'), {
      parse: {},
      oclif: { exit: 2 },
    });
    expect(describeError(parse, 'store orders list')).toEqual({
      message: '--all=true cannot also be provided when using --limit (see `store orders list --help`).',
      exitCode: 2,
    });
    expect(describeError(new Error('boom'), 'store x')).toEqual({ message: 'boom', exitCode: 1, unexpected: true });
  });
});

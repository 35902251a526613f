import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/client/errors.js';
import { displayWidth, fitColumns, plural, truncateToWidth } from '../../src/output/format.js';
import { renderRows } from '../../src/output/render.js';

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

  it('shrinks the widest text column first; ids, amounts, timestamps and one-word values keep their width', () => {
    const cells = [['1000000100', 'cancelled', '2026-11-24T03:14:39+00:00', 'Diego Sánchez <diego@example.com>', '25200.00 ARS']];
    const headers = ['ID', 'STATUS', 'CREATED AT', 'CUSTOMER', 'TOTAL'];
    const widths = fitColumns(cells, headers, [], 70);
    expect(widths).toEqual([10, 9, 25, 6, 12]);
    expect(widths.reduce((a, b) => a + b, 0) + 2 * 4).toBe(70);
    expect(fitColumns(cells, headers, [], 200)).toEqual([10, 9, 25, 33, 12]);
    // Nothing left to give: the narrowest allowed, even past the terminal's width.
    expect(fitColumns(cells, headers, [], 10)[3]).toBe(5);
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

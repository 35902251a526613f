import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileInvalidError, formatRowError } from '../../src/services/bulk/row-error.js';
import { createClient, type StoreClient } from '../../src/client/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { attachInvoicesFromFile as attachFile, type InvoiceFileEvent, type InvoiceFileOptions } from '../../src/services/invoices/invoice-file.js';
import { readInvoices } from '../../src/services/orders/order-invoices.js';
import { accessKey } from '../helpers/sandbox.js';
import { testLedger } from '../helpers/ledger.js';

const ledger = testLedger('invoices attach');

/**
 * The invoice file service (CSV.md §3) against a real sandbox, without the CLI around it: how rows are read
 * (delimiters, quoting, line numbers), checked and sent.
 */

let sandbox: RunningSandbox;
let client: StoreClient;
let dir: string;
let orderIds: number[];

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  client = createClient({
    apiUrl: sandbox.apiUrl,
    storeId: sandbox.storeId,
    token: sandbox.accessToken,
    appName: sandbox.appName,
    appId: sandbox.clientId,
  });
  // Orders without invoices of either kind (nfe/list, or the older nfe/key + nfe/link pair).
  const withInvoices = new Set((await client.all<{ owner_id: number }>('/metafields/orders', { namespace: 'nfe' })).map((m) => m.owner_id));
  orderIds = (await client.all<{ id: number }>('/orders')).map((o) => o.id).filter((id) => !withInvoices.has(id));
  dir = mkdtempSync(join(tmpdir(), 'store-invoice-file-'));
});
afterAll(() => sandbox?.close());

let seq = 0;
const newKey = () => accessKey(`35261112345678000199550080000${String(++seq).padStart(6, '0')}`);
let next = 0;
const freshOrder = () => orderIds[next++]!;

/** The service as the command calls it: this sandbox's store, the journal and lock under the test's directory. */
function attachInvoicesFromFile(c: StoreClient, path: string, onEvent?: (event: InvoiceFileEvent) => void, options: Partial<InvoiceFileOptions> = {}) {
  return attachFile(c, path, { apiUrl: sandbox.apiUrl, storeId: sandbox.storeId, recorder: ledger.recorder, env: { XDG_STATE_HOME: join(dir, 'state') }, onEvent, ...options });
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('attachInvoicesFromFile', () => {
  it('reads "," files with quoted cells and counts lines where each row starts', async () => {
    const [a, b] = [freshOrder(), freshOrder()];
    const [k1, k2] = [newKey(), newKey()];
    const path = file(
      'quoted.csv',
      [
        'Order_ID , key,link',
        `${a},"${k1}","https://nfe.example.com/a.pdf?x=1,2"`,
        `${b},"not`,
        `a key",https://nfe.example.com/b.pdf`,
        '',
        `${b},${k2},https://nfe.example.com/b.pdf`,
      ].join('\n'),
    );
    const events: InvoiceFileEvent[] = [];
    const result = await attachInvoicesFromFile(client, path, (e) => events.push(e), { skipInvalid: true });
    expect(result).toMatchObject({ file: 'quoted.csv', rows: 3, attached: 2, unchanged: 0 });
    expect(result.failed).toEqual([
      { line: 3, key: String(b), stage: 'validation', column: 2, header: 'key', reason: 'the key "not\na key" is not a fiscal access key; it must be 44 digits' },
    ]);
    expect(events.filter((e) => e.type === 'attached').map((e) => (e as { line: number }).line).sort()).toEqual([2, 6]);
    expect((await readInvoices(client, a)).invoices).toEqual([{ key: k1, link: 'https://nfe.example.com/a.pdf?x=1,2', kind: 'nfe/list' }]);
  });

  it('keeps every row of one order while several orders are sent at once', async () => {
    const orders = Array.from({ length: 6 }, freshOrder);
    const keys = new Map(orders.map((id) => [id, [newKey(), newKey(), newKey()]]));
    const lines = ['order_id;key;link;fulfillment_order_id'];
    // Interleaved, so each order's three rows are spread over the file.
    for (let i = 0; i < 3; i++) for (const id of orders) lines.push(`${id};${keys.get(id)![i]};https://nfe.example.com/${id}-${i}.pdf;`);
    const result = await attachInvoicesFromFile(client, file('many.csv', lines.join('\r\n')));
    expect(result).toMatchObject({ rows: 18, attached: 18, failed: [] });
    for (const id of orders) expect((await readInvoices(client, id)).invoices.map((i) => i.key)).toEqual(keys.get(id));
  });

  it('refuses a file with malformed rows (extra cells, empty required cells, one key for two orders) before sending; --skip-invalid sends the valid ones', async () => {
    const [a, b] = [freshOrder(), freshOrder()];
    const key = newKey();
    const path = file(
      'rows.csv',
      [
        'order_id,key,link,fulfillment_order_id',
        `${a},${key},https://nfe.example.com/1.pdf,,surprise`,
        `${a},,https://nfe.example.com/2.pdf,`,
        `${a},${key},https://nfe.example.com/3.pdf,`,
        `${b},${key},https://nfe.example.com/4.pdf,`,
      ].join('\n'),
    );
    const before = client.stats().requests;
    const refusal = await attachInvoicesFromFile(client, path).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(FileInvalidError);
    expect((refusal as FileInvalidError).message).toBe('rows.csv has 3 errors; nothing was sent (fix the file, or use --skip-invalid to attach the valid row).');
    expect((refusal as FileInvalidError).errors.map(formatRowError)).toEqual([
      'rows.csv, line 2, column 5: the cell holds "surprise" but its column has no name in the header; name the column, or clear the cell',
      "rows.csv, line 3, column 2 (key): the access key is empty; every row needs the invoice's 44-digit access key",
      `rows.csv, line 5, column 2 (key): the same key is on line 2 for order ${a}; an invoice belongs to one order`,
    ]);
    expect(client.stats().requests).toBe(before);
    const result = await attachInvoicesFromFile(client, path, undefined, { skipInvalid: true });
    expect(result.attached).toBe(1);
    expect(result.failed.map((f) => f.line)).toEqual([2, 3, 5]);
  });

  it('fails the whole file before sending when the header is wrong or the file is empty', async () => {
    const refused = async (name: string, text: string) => {
      const error = await attachInvoicesFromFile(client, file(name, text), undefined, { skipInvalid: true }).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(FileInvalidError);
      return (error as FileInvalidError).errors.map(formatRowError);
    };
    expect(await refused('unknown.csv', 'order_id,key,link,amount\n')).toEqual([
      `unknown.csv, line 1, column 4 (amount): unknown column "amount"; an invoices file has order_id, key, link and fulfillment_order_id: rename it with --map 'amount=COLUMN', or leave it out with --map 'amount='`,
    ]);
    expect(await refused('twice.csv', 'order_id,key,link,key\n')).toEqual(['twice.csv, line 1, column 4 (key): the column appears twice (also column 2); keep one of them']);
    expect(await refused('empty.csv', '')).toEqual(['empty.csv, line 1: the file is empty; expected a header row']);
    expect(await refused('quote.csv', `order_id,key,link\n${freshOrder()},"${newKey()},x\n`)).toEqual([expect.stringMatching(/^quote\.csv, line 2, column 2 \(key\): a quoted cell is never closed/)]);
    const headerOnly = await attachInvoicesFromFile(client, file('header.csv', '\uFEFForder_id,key,link\r\n'));
    expect(headerOnly).toMatchObject({ rows: 0, attached: 0, failed: [] });
  });

  it('stops after the row in flight when interrupted; --resume sends only the rest, a plain run finds it all attached', async () => {
    const orders = Array.from({ length: 3 }, freshOrder);
    const keys = orders.map(() => newKey());
    const path = file('interrupted.csv', ['order_id,key,link', ...orders.map((id, i) => `${id},${keys[i]},https://nfe.example.com/${id}.pdf`)].join('\n'));
    const controller = new AbortController();
    const first = await attachInvoicesFromFile(client, path, (e) => e.type === 'attached' && controller.abort(), { signal: controller.signal, concurrency: 1 });
    expect(first).toMatchObject({ rows: 3, attached: 1, interrupted: true, failed: [] });

    const notResumed = await attachInvoicesFromFile(client, path, undefined, { dryRun: true });
    expect(notResumed).toMatchObject({ earlierRunUnfinished: true, attached: 2, unchanged: 1 });

    const sent: number[] = [];
    const resumed = await attachInvoicesFromFile(client, path, (e) => e.type !== 'failed' && sent.push(e.line), { resume: true });
    expect(resumed).toMatchObject({ rows: 3, attached: 3, unchanged: 0, resumedRows: 1, interrupted: false, earlierRunUnfinished: false });
    expect(sent).toEqual([3, 4]);
    for (const [i, id] of orders.entries()) expect((await readInvoices(client, id)).invoices.map((v) => v.key)).toEqual([keys[i]]);

    // The resumed run ended normally: there is nothing left to resume.
    const again = await attachInvoicesFromFile(client, path, undefined, { resume: true });
    expect(again).toMatchObject({ resumedRows: 0, attached: 0, unchanged: 3 });
  });

  it('writes the rows not done to --report in the shape of every bulk file: their own columns, then line, error and stage', async () => {
    const order = freshOrder();
    const key = newKey();
    const report = join(dir, 'report.csv');
    const path = file('report-rows.csv', ['order_id,key,link', `${order},123,https://nfe.example.com/1.pdf`, `=1+1,${key},https://nfe.example.com/2.pdf`].join('\n'));
    await expect(attachInvoicesFromFile(client, path, undefined, { report })).rejects.toBeInstanceOf(FileInvalidError);
    const { readFileSync } = await import('node:fs');
    // A cell a spreadsheet would run as a formula is kept inert.
    expect(readFileSync(report, 'utf8')).toBe(
      'order_id,key,link,line,error,stage\n' +
        `${order},123,https://nfe.example.com/1.pdf,2,column 2 (key): the key has 3 digits; a fiscal access key has 44,validation\n` +
        `'=1+1,${key},https://nfe.example.com/2.pdf,3,"column 1 (order_id): ""=1+1"" is not an order id; an order id is a whole number such as 123456789",validation\n`,
    );
    // Fixed, the report is the next file as it is.
    const fixedKey = newKey();
    const fixed = file('report-fixed.csv', readFileSync(report, 'utf8').replace(',123,', `,${fixedKey},`).replace("'=1+1", String(freshOrder())));
    const again = await attachInvoicesFromFile(client, fixed);
    expect(again).toMatchObject({ rows: 2, attached: 2, failed: [] });
  });
});

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { findEarlierRun } from '../../src/services/bulk/journal.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { accessKey, clientFor, type TestSandbox } from '../helpers/sandbox.js';

/** `store invoices …`: the order's nfe/list metafield, checked against what the API stores. */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
let orders: { id: number; number: number }[];
const store = (...args: string[]) => runInProcess(args, { env });

interface Invoice {
  key: string;
  link: string;
  fulfillment_order_id?: string;
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  api = clientFor(sandbox);
  dir = mkdtempSync(join(tmpdir(), 'store-invoices-'));
  env = {
    STORE_TOKEN: sandbox.accessToken,
    STORE_ID: String(sandbox.storeId),
    STORE_API_URL: sandbox.apiUrl,
    STORE_APP_NAME: sandbox.appName,
    STORE_APP_ID: sandbox.clientId,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
  };
  const all = (await api.get<{ id: number; number: number }[]>('/orders', { query: { per_page: 200 } })).body;
  // Orders that have no invoice of either kind yet, so each test starts from an empty list.
  const withInvoices = new Set(
    ((await api.get<{ owner_id: number }[]>('/metafields/orders', { query: { namespace: 'nfe', per_page: 200 } })).body).map((m) => m.owner_id),
  );
  orders = all.filter((o) => !withInvoices.has(o.id));
});
afterAll(() => sandbox?.close());

let nextOrder = 0;
function freshOrder(): { id: number; number: number } {
  return orders[nextOrder++]!;
}

let keySeq = 0;
function newKey(): string {
  keySeq++;
  return accessKey(`35261112345678000199550090000${String(keySeq).padStart(6, '0')}`);
}

function withWrongCheckDigit(key: string): string {
  return key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
}

async function storedInvoices(orderId: number): Promise<Invoice[]> {
  const res = await api.get<{ value: string }[]>('/metafields/orders', { query: { owner_id: orderId, namespace: 'nfe', key: 'list' } });
  // No metafield yet: the platform's empty list, a 404 "Last page is 0".
  if (res.status === 404) return [];
  expect(res.status).toBe(200);
  return JSON.parse(res.body[0]!.value) as Invoice[];
}

describe('invoices stored the older way: nfe/key + nfe/link (platform.md §6)', () => {
  let older: { orderId: number; key: string; link: string };

  beforeAll(async () => {
    const [keyField] = (await api.get<{ owner_id: number; value: string }[]>('/metafields/orders', { query: { namespace: 'nfe', key: 'key' } })).body;
    const [linkField] = (
      await api.get<{ value: string }[]>('/metafields/orders', { query: { namespace: 'nfe', key: 'link', owner_id: keyField!.owner_id } })
    ).body;
    older = { orderId: keyField!.owner_id, key: keyField!.value, link: linkField!.value };
  });

  it('invoices list and orders get show the older pair, marked as such', async () => {
    const list = await store('invoices', 'list', String(older.orderId));
    expect(list.code).toBe(0);
    // The last cell (fulfillment order) is empty for the older pair.
    expect(list.stdout.trimEnd().split('\n')).toEqual(['kind\tkey\tlink\tfulfillment_order_id', `nfe/key+link\t${older.key}\t${older.link}`]);
    const get = await store('orders', 'get', String(older.orderId), '--json');
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout).invoices).toEqual([{ key: older.key, link: older.link, kind: 'nfe/key+link' }]);
  });

  it('attaching to that order keeps the pair and appends to nfe/list; both kinds are then shown; the pair\'s key again changes nothing', async () => {
    const before = (await api.get<unknown[]>('/metafields/orders', { query: { owner_id: older.orderId, namespace: 'nfe' } })).body;
    const key = newKey();
    const attach = await store('invoices', 'attach', String(older.orderId), '--key', key, '--link', 'https://nfe.example.com/new.pdf');
    expect(attach.code, attach.stderr).toBe(0);
    expect(attach.stderr).toContain('(2 invoices now)');
    const after = (await api.get<{ key: string; value: string }[]>('/metafields/orders', { query: { owner_id: older.orderId, namespace: 'nfe' } })).body;
    // The older pair is left exactly as it was.
    expect(after.filter((m) => m.key !== 'list')).toEqual(before);
    expect(await storedInvoices(older.orderId)).toEqual([{ key, link: 'https://nfe.example.com/new.pdf' }]);

    const [list, get] = await Promise.all([
      store('invoices', 'list', String(older.orderId), '--json'),
      store('orders', 'get', String(older.orderId)),
    ]);
    expect(JSON.parse(list.stdout)).toEqual([
      { key: older.key, link: older.link, kind: 'nfe/key+link' },
      { key, link: 'https://nfe.example.com/new.pdf', kind: 'nfe/list' },
    ]);
    const invoicesSection = get.stdout.split('\nInvoices\n')[1]!.split('\n').map((line) => line.trimEnd()).filter(Boolean);
    expect(invoicesSection).toEqual([
      'kind\tkey\tlink\tfulfillment_order_id',
      `nfe/key+link\t${older.key}\t${older.link}`,
      `nfe/list\t${key}\thttps://nfe.example.com/new.pdf`,
    ]);

    const again = await store('invoices', 'attach', String(older.orderId), '--key', older.key, '--link', older.link, '--debug');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`Invoice ${older.key} is already attached to order ${older.orderId}; nothing changed.`);
    expect(again.stderr).not.toMatch(/→ (POST|PUT) /);
  });
});

describe('store invoices attach ORDER_ID', () => {
  it('keeps both of two invoices attached to one order; the same key again changes nothing', async () => {
    const order = freshOrder();
    const [k1, k2] = [newKey(), newKey()];
    const fo = (await api.get<{ id: string }[]>(`/orders/${order.id}/fulfillment-orders`)).body[0]!;
    const first = await store('invoices', 'attach', String(order.id), '--key', k1, '--link', 'https://nfe.example.com/1.pdf', '--fulfillment-order', fo.id);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`Attached invoice ${k1} to order ${order.id}`);
    const second = await store('invoices', 'attach', String(order.id), '--key', k2, '--link', 'https://nfe.example.com/2.pdf');
    expect(second.code).toBe(0);
    expect(await storedInvoices(order.id)).toEqual([
      { key: k1, link: 'https://nfe.example.com/1.pdf', fulfillment_order_id: fo.id },
      { key: k2, link: 'https://nfe.example.com/2.pdf' },
    ]);

    const again = await store('invoices', 'attach', String(order.id), '--key', k2, '--link', 'https://nfe.example.com/other.pdf', '--debug');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`Invoice ${k2} is already attached to order ${order.id}; nothing changed.`);
    expect(again.stderr).not.toMatch(/→ (POST|PUT) /);
    expect(await storedInvoices(order.id)).toHaveLength(2);

    const shown = (await storedInvoices(order.id)).map((i) => ({ ...i, kind: 'nfe/list' }));
    const list = await store('invoices', 'list', String(order.id), '--json');
    expect(JSON.parse(list.stdout)).toEqual(shown);
    const get = await store('orders', 'get', String(order.id), '--json');
    expect(JSON.parse(get.stdout).invoices).toEqual(shown);
  });


  it('never sends a key with a wrong check digit, or a link that is not http(s)', async () => {
    const order = freshOrder();
    const bad = withWrongCheckDigit(newKey());
    const r = await store('invoices', 'attach', String(order.id), '--key', bad, '--link', 'https://nfe.example.com/1.pdf', '--debug');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--key ${bad} has a wrong check digit`);
    expect(r.stderr).not.toContain('/metafields');
    expect(r.stderr).not.toContain('→');

    const link = await store('invoices', 'attach', String(order.id), '--key', newKey(), '--link', 'nfe.example.com/1.pdf', '--debug');
    expect(link.code).toBe(2);
    expect(link.stderr).toContain('--link "nfe.example.com/1.pdf" is not an http(s) URL');
    expect(link.stderr).not.toContain('→');
    expect(await storedInvoices(order.id)).toEqual([]);
  });

  it('names an unknown order (exit 1), takes an order number the store does not know as an id (said on stderr), names a foreign fulfillment order (422, exit 2)', async () => {
    const missing = await store('invoices', 'attach', '1999999999', '--key', newKey(), '--link', 'https://nfe.example.com/x.pdf');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Order 1999999999 not found.');

    const order = freshOrder();
    const number = await store('invoices', 'attach', String(order.number), '--key', newKey(), '--link', 'https://nfe.example.com/x.pdf');
    // Ids of any length go to the store (platform.md §0); after its 404 the number is looked up (q).
    expect(number.code).toBe(0);
    expect(number.stderr).toContain(`Order number ${order.number} is order ${order.id}; attaching the invoice to it.`);
    expect(await storedInvoices(order.id)).toHaveLength(1);
    const listed = await store('invoices', 'list', String(order.number), '--json');
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain(`Order number ${order.number} is order ${order.id}; listing its invoices.`);
    expect((JSON.parse(listed.stdout) as Invoice[]).map((i) => i.key)).toEqual((await storedInvoices(order.id)).map((i) => i.key));

    const other = freshOrder();
    const foreignFo = (await api.get<{ id: string }[]>(`/orders/${other.id}/fulfillment-orders`)).body[0]!;
    const foreign = await store('invoices', 'attach', String(order.id), '--key', newKey(), '--link', 'https://nfe.example.com/x.pdf', '--fulfillment-order', foreignFo.id);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(`Fulfillment order ${foreignFo.id} is not one of order ${order.id}`);
    expect(await storedInvoices(order.id)).toHaveLength(1);

    const list = await store('invoices', 'list', '1999999999');
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('Order 1999999999 not found.');
  });
});

describe('store invoices attach --file', () => {
  it('refuses a file with invalid rows (exit 2, nothing sent); --skip-invalid attaches the good rows and reports the rest, exit 3', async () => {
    const [a, b] = [freshOrder(), freshOrder()];
    const [k1, k2, k3, k4] = [newKey(), newKey(), newKey(), newKey()];
    const file = join(dir, 'invoices.csv');
    // The platform's spreadsheets: BOM, ";" separators, CRLF.
    const rows = [
      'order_id;key;link;fulfillment_order_id',
      `${a.id};${k1};https://nfe.example.com/a1.pdf;`,
      `${a.number};${k2};https://nfe.example.com/bad-order.pdf;`,
      `${b.id};${withWrongCheckDigit(k3)};https://nfe.example.com/bad-key.pdf;`,
      `${b.id};${k3};https://nfe.example.com/b1.pdf;`,
      `${a.id};${k4};https://nfe.example.com/a2.pdf;`,
      `1999999999;${newKey()};https://nfe.example.com/no-order.pdf;`,
      `${b.id};${newKey()};ftp://nfe.example.com/b2.pdf;`,
    ];
    writeFileSync(file, `\uFEFF${rows.join('\r\n')}\r\n`);
    const report = join(dir, 'failed.csv');
    // As for every bulk file: nothing is sent while a row is invalid, and each problem has its line and column.
    const refused = await store('invoices', 'attach', '--file', file, '--debug');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`invoices.csv, line 4, column 2 (key): the key ${withWrongCheckDigit(k3)} has a wrong check digit`);
    expect(refused.stderr).toContain('invoices.csv, line 8, column 3 (link): "ftp://nfe.example.com/b2.pdf" is not an http(s) URL; use a full address such as');
    expect(refused.stderr).toContain('Error: invoices.csv has 2 errors; nothing was sent (fix the file, or use --skip-invalid to attach the 5 valid rows).');
    expect(refused.stderr).not.toContain('/metafields');

    const r = await store('invoices', 'attach', '--file', file, '--skip-invalid', '--report', report);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^Attached invoices\.csv: 7 rows\.\n {2}invoices: 4 attached, 0 already attached, 3 failed\n/);
    // A partial result is a result: exit 3, the failed rows listed, no "Error:".
    expect(r.stderr).not.toContain('Error');
    // An order number is a well-formed id (ids have any length): after the store's 404 it is looked up (q).
    expect(r.stderr).toContain(`Order number ${a.number} is order ${a.id}; attaching its rows' invoices to it.`);
    expect(r.stderr).toContain('invoices.csv, line 4, column 2 (key): the key');
    expect(r.stderr).toContain('invoices.csv, line 7 (1999999999): Order 1999999999 not found.');
    expect(r.stderr).toContain('invoices.csv, line 8, column 3 (link):');

    // The rows of order a, by id and by number, were written by one worker in file order: none lost.
    expect((await storedInvoices(a.id)).map((i) => i.key)).toEqual([k1, k2, k4]);
    expect((await storedInvoices(b.id)).map((i) => i.key)).toEqual([k3]);

    // The report is shaped like the input (";", its byte order mark): the rows' own cells, then line, error, stage.
    const reported = readFileSync(report, 'utf8').trimEnd().split('\n');
    expect(reported[0]).toBe('\uFEFForder_id;key;link;fulfillment_order_id;line;error;stage');
    expect(reported.slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^${b.id};${withWrongCheckDigit(k3)};https://nfe.example.com/bad-key.pdf;;4;"column 2 \\(key\\): the key \\d+ has a wrong check digit .*";validation$`)),
      expect.stringMatching(/^1999999999;\d+;https:\/\/nfe.example.com\/no-order.pdf;;7;Order 1999999999 not found.*;request$/),
      expect.stringMatching(new RegExp(`^${b.id};\\d+;ftp://nfe.example.com/b2.pdf;;8;"column 3 \\(link\\): .*";validation$`)),
    ]);

    // Running the same file again attaches nothing twice.
    const again = await store('invoices', 'attach', '--file', file, '--skip-invalid', '--json');
    expect(again.code).toBe(3);
    expect(JSON.parse(again.stdout)).toMatchObject({ rows: 7, attached: 0, unchanged: 4 });
    expect((await storedInvoices(a.id)).map((i) => i.key)).toEqual([k1, k2, k4]);
  });

  it('a file whose every row is invalid sends nothing (exit 2); a missing column fails the file', async () => {
    const order = freshOrder();
    const invalid = join(dir, 'invalid.csv');
    writeFileSync(invalid, `order_id,key,link\n${order.id},123,https://nfe.example.com/1.pdf\n`);
    const r = await store('invoices', 'attach', '--file', invalid, '--debug');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid.csv, line 2, column 2 (key): the key has 3 digits; a fiscal access key has 44');
    // Every row is invalid: --skip-invalid would send nothing, so it is not suggested.
    expect(r.stderr).toContain('invalid.csv has 1 error; nothing was sent (fix the file and run it again).');
    expect(r.stderr).not.toContain('/metafields');

    const noLink = join(dir, 'no-link.csv');
    writeFileSync(noLink, `order_id,key\n${order.id},${newKey()}\n`);
    const missing = await store('invoices', 'attach', '--file', noLink);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no-link.csv, line 1: no "link" column; every row needs one: add the column, or name yours with --map 'YOUR_COLUMN=link'`);

    const absent = await store('invoices', 'attach', '--file', join(dir, 'nope.csv'));
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain('no such file');
    expect(await storedInvoices(order.id)).toEqual([]);
  });
});

describe('store invoices attach --file --dry-run / --resume', () => {
  it('--dry-run reads the orders and tells what would be attached; nothing is written', async () => {
    const [a, b] = [freshOrder(), freshOrder()];
    const [k1, k2] = [newKey(), newKey()];
    await store('invoices', 'attach', String(a.id), '--key', k1, '--link', 'https://nfe.example.com/a1.pdf');
    const file = join(dir, 'dry-run.csv');
    writeFileSync(
      file,
      ['order_id,key,link', `${a.id},${k1},https://nfe.example.com/a1.pdf`, `${b.id},${k2},https://nfe.example.com/b1.pdf`, `${b.id},${k2},https://nfe.example.com/b1.pdf`, `1999999999,${newKey()},https://nfe.example.com/x.pdf`].join('\n'),
    );
    const r = await store('invoices', 'attach', '--file', file, '--dry-run', '--debug');
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^Would attach dry-run\.csv: 4 rows\.\n {2}invoices: 1 to attach, 2 already attached, 1 failed\n {2}writes: {3}1 would be sent\n {2}requests: \d+ sent/);
    expect(r.stderr).toContain('dry-run.csv, line 5 (1999999999): Order 1999999999 not found.');
    expect(r.stderr).not.toMatch(/→ (POST|PUT) /);
    expect(await storedInvoices(b.id)).toEqual([]);

    const json = await store('invoices', 'attach', '--file', file, '--dry-run', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ dryRun: true, rows: 4, attached: 1, unchanged: 2, plannedWrites: 1, interrupted: false, failed: [{ line: 5, stage: 'plan' }] });
    expect(await storedInvoices(b.id)).toEqual([]);
  });

  it('--resume skips the rows an interrupted run journaled; the summary counts them', async () => {
    const [a, b] = [freshOrder(), freshOrder()];
    const [k1, k2] = [newKey(), newKey()];
    const file = join(dir, 'resume.csv');
    writeFileSync(file, ['order_id,key,link', `${a.id},${k1},https://nfe.example.com/a.pdf`, `${b.id},${k2},https://nfe.example.com/b.pdf`, ''].join('\n'));
    // What a run stopped by Ctrl-C after its first row leaves: begin, that row done, no end.
    const earlier = await findEarlierRun({ kind: 'invoices', file, apiUrl: sandbox.apiUrl, storeId: sandbox.storeId, env });
    mkdirSync(join(earlier.path, '..'), { recursive: true });
    writeFileSync(earlier.path, `${JSON.stringify({ t: 'begin', at: 'then', file: 'resume.csv', pid: 1 })}\n${JSON.stringify({ t: 'done', key: '2', outcome: 'attached' })}\n`);

    // A dry run of the resume counts the journaled row as done, not as a write it would send.
    const dry = await store('invoices', 'attach', '--file', file, '--resume', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, rows: 2, attached: 2, resumedRows: 1, plannedWrites: 1 });

    const resumed = await store('invoices', 'attach', '--file', file, '--resume', '--json');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ rows: 2, attached: 2, unchanged: 0, resumedRows: 1, earlierRunUnfinished: false, failed: [] });
    // Line 2 was taken as done (the journal says so), so only line 3 was sent.
    expect(await storedInvoices(a.id)).toEqual([]);
    expect((await storedInvoices(b.id)).map((i) => i.key)).toEqual([k2]);

    // That run finished: its journal is not resumed again, and a plain run sends what the store still lacks.
    const plain = await store('invoices', 'attach', '--file', file);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^Attached resume\.csv: 2 rows\.\n {2}invoices: 1 attached, 1 already attached, 0 failed\n {2}requests: /);
    expect(plain.stderr).toBe('');
    expect((await storedInvoices(a.id)).map((i) => i.key)).toEqual([k1]);
  });
});

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplayRequest, type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { type CliResult } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * Issue 13, "Done when": every read command succeeds on a store whose responses follow the platform's
 * documentation (test/fixtures/platform/, served by a plain replay server) and prints the documented values;
 * an export of that catalog re-imports with 0 writes. The rules are platform.md's, so the assertions name
 * values of the fixtures, not today's layout of the output.
 */

let store: ReplayServer;
let env: NodeJS.ProcessEnv;
let runs = 0;

interface Run extends CliResult {
  /** The requests this run sent (told apart by the app name in their User-Agent, so runs may overlap). */
  requests: ReplayRequest[];
}

async function cli(...args: string[]): Promise<Run> {
  const app = `Contract run ${++runs}`;
  const result = await runInProcess(args, { env: { ...env, STORE_APP_NAME: app } });
  const requests = store.requests.filter((r) => String(r.headers['user-agent'] ?? '').startsWith(`${app} (`));
  return { ...result, requests };
}

beforeAll(async () => {
  store = await startReplayServer();
  env = store.env('contract');
});
afterAll(() => store?.close());

const shared = new Map<string, Promise<Run>>();
/** One run shared by several tests (each checks one owner's part of the same output). */
function cliOnce(...args: string[]): Promise<Run> {
  const key = args.join('\0');
  if (!shared.has(key)) shared.set(key, cli(...args));
  return shared.get(key)!;
}

/** Exit 0, and no record of the documented fixtures was left out as unreadable. */
function expectOk(result: CliResult): void {
  expect(result.code, `exit code; stderr: ${result.stderr}`).toBe(0);
  expect(result.stderr).not.toMatch(/could not be read|unexpected .* (list|record)/i);
}

/** TSV output (stdout is piped) as rows of cells; the header row is kept (first). */
function tsv(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t').map((cell) => cell.trim()));
}

/** The TSV row whose cells include this value. */
function rowWith(rows: string[][], value: string): string[] {
  const row = rows.find((cells) => cells.includes(value));
  expect(row, `a row with ${value} in:\n${rows.map((r) => r.join(' | ')).join('\n')}`).toBeDefined();
  return row!;
}

/** The cell of a row under the first header matching `header`. */
function cell(rows: string[][], row: string[], header: RegExp): string {
  const index = rows[0]!.findIndex((h) => header.test(h));
  expect(index, `a column ${header} in ${rows[0]!.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return row[index] ?? '';
}

/** The queries of a run's GET requests to this path. */
function queriesTo(run: Run, path: string): URLSearchParams[] {
  return run.requests.filter((r) => r.method === 'GET' && r.path === path).map((r) => r.query);
}

describe.concurrent('auth status on the documented GET /store (platform.md §2)', () => {
  it('shows the name in the main language, plan_name, the active languages and the main currency', async () => {
    const result = await cli('auth', 'status');
    expectOk(result);
    expect(result.stdout).toContain('Loja Aurora');
    expect(result.stdout).toContain('Business');
    expect(result.stdout).toContain('BRL');
    const languages = result.stdout.split('\n').find((line) => /^\s*Languages/i.test(line)) ?? '';
    expect(languages).toMatch(/\bpt\b/);
    expect(languages).toMatch(/\bes\b/);
    expect(languages, 'en is not active').not.toMatch(/\ben\b/);
  });

  it('--json', async () => {
    const result = await cli('auth', 'status', '--json');
    expectOk(result);
    const status = JSON.parse(result.stdout);
    expect(status).toMatchObject({ storeName: 'Loja Aurora', plan: 'Business', currency: 'BRL', accepted: true });
    expect(status.languages).toEqual(['pt', 'es']);
  });
});

describe.concurrent('orders list on documented order records (platform.md §4)', () => {
  it('TSV: ids, numbers, status, payment and shipping state, customer and total of every order', async () => {
    const result = await cli('orders', 'list');
    expectOk(result);
    const rows = tsv(result.stdout);
    const a = rowWith(rows, '871254203');
    expect(a).toContain('1042');
    expect(a).toContain('open');
    expect(a).toContain('paid');
    expect(a).toContain('unfulfilled');
    expect(a.join(' ')).toContain('Mariana Lima');
    expect(a.join(' ')).toContain('144.70');
    // Numeric-string order lines: the record that failed the whole list before.
    const b = rowWith(rows, '871254198');
    expect(b).toContain('closed');
    expect(b).toContain('paid');
    expect(b.join(' ')).toMatch(/\b(shipped|fulfilled)\b/);
    expect(b.join(' ')).toContain('237.41');
    const c = rowWith(rows, '871254190');
    expect(c).toContain('cancelled');
    expect(c).toContain('voided');
    expect(c.join(' ')).toContain('65.80');
    expect(cell(rows, a, /^payment/i)).toBe('paid');
    expect(cell(rows, a, /^shipping/i)).toBe('unfulfilled');
  });

  it('--json passes the documented records through', async () => {
    const result = await cli('orders', 'list', '--json');
    expectOk(result);
    const orders = JSON.parse(result.stdout);
    expect(orders.map((o: { id: unknown }) => Number(o.id))).toEqual([871254203, 871254198, 871254190]);
    expect(orders[0]).toMatchObject({
      payment_status: 'paid',
      shipping_status: 'unfulfilled',
      gateway: 'mercadopago',
      shipping: 'correios',
      shipping_option: 'Correios - PAC',
      shipping_cost_customer: '15.90',
      total: '144.70',
      payment_details: { method: 'credit_card', credit_card_company: 'visa' },
    });
    expect(orders[1].products).toHaveLength(2);
    expect(Number(orders[1].products[0].quantity)).toBe(3);
    expect(orders[1].shipping_tracking_number).toBe('1Z999AA10123456784');
  });

  it('--csv names the columns as the API does (payment_status, shipping_status, total)', async () => {
    const result = await cli('orders', 'list', '--csv');
    expectOk(result);
    const records: Record<string, string>[] = parse(result.stdout, { columns: true });
    expect(Object.keys(records[0]!)).toEqual(expect.arrayContaining(['id', 'number', 'status', 'payment_status', 'shipping_status']));
    const a = records.find((r) => r.id === '871254203')!;
    expect(a).toMatchObject({ number: '1042', status: 'open', payment_status: 'paid', shipping_status: 'unfulfilled' });
    expect(Object.values(a).join(' ')).toContain('144.70');
    const c = records.find((r) => r.id === '871254190')!;
    expect(c).toMatchObject({ status: 'cancelled', payment_status: 'voided' });
  });

  it('--status closed asks status=closed', async () => {
    const closed = await cli('orders', 'list', '--status', 'closed');
    expectOk(closed);
    expect(closed.stdout).toContain('871254198');
    expect(closed.stdout).not.toContain('871254203');
    expect(queriesTo(closed, '/orders')[0]!.get('status')).toBe('closed');
  });

  it('--payment-status asks payment_status', async () => {
    const voided = await cli('orders', 'list', '--payment-status', 'voided');
    expectOk(voided);
    expect(voided.stdout).toContain('871254190');
    expect(voided.stdout).not.toContain('871254198');
    expect(queriesTo(voided, '/orders')[0]!.get('payment_status')).toBe('voided');
  });

  it('--shipping-status asks shipping_status', async () => {
    const unfulfilled = await cli('orders', 'list', '--shipping-status', 'unfulfilled');
    expectOk(unfulfilled);
    expect(unfulfilled.stdout).toContain('871254203');
    expect(unfulfilled.stdout).not.toContain('871254190');
    expect(queriesTo(unfulfilled, '/orders')[0]!.get('shipping_status')).toBe('unfulfilled');
  });

  it('--status paid keeps working: it asks for payment_status=paid, with a note', async () => {
    const result = await cli('orders', 'list', '--status', 'paid');
    expectOk(result);
    const query = queriesTo(result, '/orders')[0]!;
    expect(query.get('payment_status')).toBe('paid');
    expect(query.get('status')).not.toBe('paid');
    expect(result.stdout).toContain('871254203');
    expect(result.stdout).toContain('871254198');
    expect(result.stdout).not.toContain('871254190');
    expect(result.stderr).toMatch(/payment.status/i);
  });

  it('a filter matching nothing (404 Last page is 0) prints "No orders match" and exits 0', async () => {
    const result = await cli('orders', 'list', '--payment-status', 'abandoned');
    expectOk(result);
    expect(result.stderr).toMatch(/No orders match/);
    expect(result.stdout).not.toContain('8712');
  });
});

describe.concurrent('orders get (platform.md §4, §5, §6)', () => {
  it('a 9-digit id: payment from gateway/payment_status/payment_details, shipping, total, lines, fulfillment orders, nfe/list invoices', async () => {
    const result = await cli('orders', 'get', '871254203');
    expectOk(result);
    const out = result.stdout;
    for (const value of ['871254203', '1042', 'open', 'paid', 'unfulfilled', '144.70', '128.80', 'Mariana Lima']) {
      expect(out, value).toContain(value);
    }
    expect(out).toMatch(/mercadopago|Mercado Pago/);
    expect(out).toMatch(/credit_card|visa/);
    expect(out).toContain('Correios - PAC');
    expect(out).toContain('15.90');
    // Lines
    for (const value of ['CAM-AZ-M', 'Camiseta Básica (Azul, M)', 'BON-S', '39.90', '49.00']) expect(out, value).toContain(value);
    // Fulfillment orders with their items (line_items, not 0)
    expect(out).toContain('01HR2B4C6D8E0F2G4H6J8K0M2N');
    expect(out).toContain('01HR2B4C6D8E0F2G4H6J8K0M2P');
    expect(out).toMatch(/PACKED/i);
    const foRow = tsv(out).find((cells) => cells.includes('01HR2B4C6D8E0F2G4H6J8K0M2N'))!;
    expect(foRow, 'the fulfillment order row shows its 2 items').toContain('2');
    // Invoices of the nfe/list kind
    expect(out).toContain('35240312345678000199550010000010421001234562');
    expect(out).toContain('https://nfe.lojaaurora.example/danfe/1042-1.pdf');
    expect(out).toContain('35240312345678000199550010000010431701234562');
  });

  it('numeric-string lines, a line without SKU, shipping and tracking fields', async () => {
    const result = await cliOnce('orders', 'get', '871254198');
    expectOk(result);
    const out = result.stdout;
    for (const value of ['871254198', 'closed', '237.41', 'CAM-BR-M', 'Vale-presente', '1Z999AA10123456784', 'UPS Express Saver']) {
      expect(out, value).toContain(value);
    }
    expect(out).toMatch(/\b(shipped|fulfilled)\b/);
    expect(tsv(out).find((cells) => cells.includes('CAM-BR-M')), 'the line shows quantity 3').toContain('3');
  });

  it('invoices stored the older way, as nfe/key + nfe/link', async () => {
    const result = await cliOnce('orders', 'get', '871254198');
    expectOk(result);
    expect(result.stdout).toContain('35240212345678000199550010000010391101234565');
    expect(result.stdout).toContain('https://nfe.fazenda.sp.gov.br/portal/consulta?chave=35240212345678000199550010000010391101234565');
  });

  it('the older single-order shape: the total from `price`', async () => {
    const result = await cli('orders', 'get', '871254150');
    expectOk(result);
    expect(result.stdout).toContain('89.90');
    expect(result.stdout).toContain('CAM-AZ-M');
  });

  it('--json: the order as sent, its fulfillment orders and both invoices', async () => {
    const result = await cli('orders', 'get', '871254203', '--json');
    expectOk(result);
    const details = JSON.parse(result.stdout);
    expect(details.order).toMatchObject({ total: '144.70', payment_status: 'paid', shipping: 'correios' });
    expect(details.fulfillment_orders).toHaveLength(2);
    expect(details.invoices.map((i: { key: string }) => i.key)).toEqual([
      '35240312345678000199550010000010421001234562',
      '35240312345678000199550010000010431701234562',
    ]);
  });

  it('a customer-facing number is looked up with q after the store answers 404, and stderr names the order used', async () => {
    const result = await cli('orders', 'get', '1042');
    expectOk(result);
    expect(result.stdout).toContain('871254203');
    expect(result.stderr).toContain('871254203');
    expect(queriesTo(result, '/orders').some((q) => q.get('q') === '1042')).toBe(true);
  });
});

describe.concurrent('fulfillment orders (platform.md §5)', () => {
  it('list: ULIDs, upper-case statuses, the assigned location and the item count from line_items', async () => {
    const result = await cli('fulfillment-orders', 'list', '871254203');
    expectOk(result);
    const rows = tsv(result.stdout);
    const packed = rowWith(rows, '01HR2B4C6D8E0F2G4H6J8K0M2N');
    expect(packed.join(' ')).toMatch(/PACKED/i);
    expect(packed.join(' ')).toMatch(/Depósito São Paulo|01HQ7Z8K3M2N4P6R8T0V2W4Y6A/);
    expect(cell(rows, packed, /items|quantity/i)).toBe('2');
    const unpacked = rowWith(rows, '01HR2B4C6D8E0F2G4H6J8K0M2P');
    expect(unpacked.join(' ')).toMatch(/UNPACKED/i);
    expect(cell(rows, unpacked, /items|quantity/i)).toBe('1');
  });

  it('the order by its number and the fulfillment order by its number (list, get, invoices list)', async () => {
    const list = await cli('fulfillment-orders', 'list', '1042');
    expectOk(list);
    expect(list.stderr).toContain('Order number 1042 is order 871254203; listing its fulfillment orders.');
    expect(list.stdout).toContain('01HR2B4C6D8E0F2G4H6J8K0M2N');
    for (const number of ['2', '1042-2']) {
      const get = await cli('fulfillment-orders', 'get', '1042', number, '--json');
      expectOk(get);
      expect(JSON.parse(get.stdout).id).toBe('01HR2B4C6D8E0F2G4H6J8K0M2P');
    }
    const invoices = await cli('invoices', 'list', '1042');
    expectOk(invoices);
    expect(invoices.stderr).toContain('Order number 1042 is order 871254203; listing its invoices.');
    expect(invoices.stdout).toContain('35240312345678000199550010000010421001234562');
  });

  it('an order without fulfillment orders (404 Last page is 0) is an empty list', async () => {
    const result = await cli('fulfillment-orders', 'list', '871254190');
    expectOk(result);
    expect(result.stdout).not.toContain('01HR');
  });

  it('get: the order from the path, line items, tracking_info and tracking events', async () => {
    const result = await cli('fulfillment-orders', 'get', '871254198', '01HR2B4C6D8E0F2G4H6J8K0M2Q');
    expectOk(result);
    const out = result.stdout;
    expect(out).toContain('871254198');
    expect(out).toMatch(/DISPATCHED/i);
    expect(out).toContain('1Z999AA10123456784');
    expect(out).toContain('received_by_post_office');
    expect(out).toContain('in_transit');
    expect(tsv(out).find((cells) => cells.includes('401234503')), 'line item 401234503 with quantity 3').toContain('3');
    expect(out).toContain('401234521');
  });
});

describe.concurrent('invoices list (platform.md §6): both kinds', () => {
  it('nfe/list', async () => {
    const result = await cli('invoices', 'list', '871254203');
    expectOk(result);
    const row = rowWith(tsv(result.stdout), '35240312345678000199550010000010421001234562');
    expect(row).toContain('https://nfe.lojaaurora.example/danfe/1042-1.pdf');
    expect(row).toContain('01HR2B4C6D8E0F2G4H6J8K0M2N');
    expect(result.stdout).toContain('35240312345678000199550010000010431701234562');
  });

  it('the older nfe/key + nfe/link pair', async () => {
    const result = await cli('invoices', 'list', '871254198', '--json');
    expectOk(result);
    const invoices = JSON.parse(result.stdout);
    expect(invoices).toEqual([
      expect.objectContaining({
        key: '35240212345678000199550010000010391101234565',
        link: 'https://nfe.fazenda.sp.gov.br/portal/consulta?chave=35240212345678000199550010000010391101234565',
      }),
    ]);
  });

  it('an order without invoices (404 Last page is 0)', async () => {
    const result = await cli('invoices', 'list', '871254190');
    expectOk(result);
    expect(result.stdout.trim().split('\n').filter((l) => /\d{44}/.test(l))).toEqual([]);
  });
});

describe.concurrent('catalog reads (platform.md §3, §7)', () => {
  it('products list: names in the main language, first SKU and price, the SKU-less product', async () => {
    const result = await cli('products', 'list');
    expectOk(result);
    const rows = tsv(result.stdout);
    const shirt = rowWith(rows, '101234567');
    expect(shirt).toContain('Camiseta Básica');
    expect(shirt).toContain('CAM-AZ-M');
    expect(shirt).toContain('49.90');
    expect(rowWith(rows, '101234568')).toContain('Boné Aba Reta');
    const gift = rowWith(rows, '101234569');
    expect(gift).toContain('Vale-presente');
    expect(cell(rows, gift, /^sku$/i)).toBe('');
    expect(result.stdout).not.toContain('Remera Básica');
  });

  it('products list --sku asks GET /products/sku/{sku} and shows only that product', async () => {
    const result = await cli('products', 'list', '--sku', 'BON-L');
    expectOk(result);
    expect(result.stdout).toContain('101234568');
    expect(result.stdout).not.toContain('101234567');
    expect(result.stdout).not.toContain('101234569');
    expect(result.requests.some((r) => r.path === '/products/sku/BON-L')).toBe(true);
  });

  it('products get: option names and values only in `en` on a `pt` store are shown, not blank', async () => {
    const cap = await cli('products', 'get', '101234568');
    expectOk(cap);
    expect(cap.stdout).toMatch(/Options\s+Size/);
    const rows = tsv(cap.stdout);
    expect(rowWith(rows, '401234511').join(' ')).toMatch(/\bS\b/);
    expect(rowWith(rows, '401234512').join(' ')).toMatch(/\bL\b/);
  });

  it('products get: options, categories as full objects, images', async () => {
    const shirt = await cli('products', 'get', '101234567');
    expectOk(shirt);
    expect(shirt.stdout).toMatch(/Options\s+Cor, Tamanho/);
    expect(shirt.stdout).toMatch(/Categories\s+.*(3001|Roupas)/);
    expect(shirt.stdout).toContain('https://cdn.lojaaurora.example/camiseta-azul.jpg');
  });

  it('products get --json: the SKU-less product as sent', async () => {
    const gift = await cli('products', 'get', '101234569', '--json');
    expectOk(gift);
    expect(JSON.parse(gift.stdout).variants[0]).toMatchObject({ sku: null, price: '100.00' });
  });

  it('variants list: option values, prices, stock as a number or a numeric string', async () => {
    const result = await cli('variants', 'list', '101234567');
    expectOk(result);
    const rows = tsv(result.stdout);
    const m = rowWith(rows, '401234501');
    expect(m.join(' ')).toContain('Azul / M');
    expect(m).toContain('49.90');
    expect(m).toContain('39.90');
    expect(cell(rows, m, /^stock$/i)).toBe('12');
    expect(cell(rows, rowWith(rows, '401234502'), /^stock$/i)).toBe('5');
    expect(cell(rows, rowWith(rows, '401234503'), /^stock$/i)).toBe('0');
  });

  it('variants list: option values only in `en`', async () => {
    const cap = await cli('variants', 'list', '101234568');
    expectOk(cap);
    const rows = tsv(cap.stdout);
    expect(cell(rows, rowWith(rows, 'BON-L'), /^options$/i)).toBe('L');
  });

  it('categories list: names in the main language, falling back to another language, and paths', async () => {
    const result = await cli('categories', 'list');
    expectOk(result);
    const rows = tsv(result.stdout);
    expect(rowWith(rows, '3001')).toContain('Roupas');
    expect(rowWith(rows, '3002')).toContain('Camisetas');
    expect(rowWith(rows, '3002')).toContain('Roupas > Camisetas');
    expect(rowWith(rows, '3003')).toContain('Accesorios');
  });

  it('locations list: names keyed by locale (pt_BR for a pt store), no allows_pickup on one', async () => {
    const result = await cli('locations', 'list');
    expectOk(result);
    const rows = tsv(result.stdout);
    expect(rowWith(rows, '01HQ7Z8K3M2N4P6R8T0V2W4Y6A')).toContain('Depósito São Paulo');
    expect(rowWith(rows, '01HQ7Z8K3M2N4P6R8T0V2W4Y6B')).toContain('Local Palermo');
  });

  it('webhooks list: documented events (order/packed, domain/updated), one without headers', async () => {
    const result = await cli('webhooks', 'list');
    expectOk(result);
    const rows = tsv(result.stdout);
    expect(rowWith(rows, '9001')).toContain('order/created');
    expect(rowWith(rows, '9002')).toContain('order/packed');
    expect(rowWith(rows, '9003')).toContain('domain/updated');
  });
});

describe('customers (platform.md §11)', () => {
  it('customers list: ids and last orders as numbers or numeric strings, "false" as text, a customer without addresses', async () => {
    const result = await cli('customers', 'list');
    expectOk(result);
    const [header, ...rows] = tsv(result.stdout);
    expect(header!.slice(0, 3)).toEqual(['id', 'name', 'email']);
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      ['112', 'Zé Ninguém', 'ze.ninguem@example.com'],
      ['55507777', 'Lucía Fernández', 'lucia.fernandez@example.com'],
      ['55501234', 'Mariana Lima', 'mariana.lima@example.com'],
      ['55509876', 'João Pereira', 'joao.pereira@example.com'],
    ]);
    expect(rows.find((r) => r[0] === '55509876')).toContain('871254198');
  });

  it('customers get EMAIL: the customer by the email lookup, her two addresses (the default first) and her orders', async () => {
    const result = await cli('customers', 'get', 'Mariana.Lima@example.com');
    expectOk(result);
    expect(result.stdout).toContain('Mariana Lima');
    expect(result.stdout).toContain('144.70 BRL');
    const addresses = result.stdout.slice(result.stdout.indexOf('Addresses'), result.stdout.indexOf('Orders'));
    expect(addresses.indexOf('Rua Harmonia')).toBeGreaterThan(-1);
    expect(addresses.indexOf('Rua Harmonia')).toBeLessThan(addresses.indexOf('Rua Funchal'));
    expect(result.stdout.slice(result.stdout.indexOf('Orders'))).toContain('871254203');
    expect(result.requests.map((r) => [r.path, r.query.get('email'), r.query.get('customer_ids')])).toEqual([
      ['/customers', 'Mariana.Lima@example.com', null],
      ['/orders', null, '55501234'],
    ]);
  });

  it('customers get ID --json: a numeric-string id, "false" and a null phone read; orders list --customer EMAIL asks customer_ids', async () => {
    const result = await cli('customers', 'get', '55509876', '--json');
    expectOk(result);
    const details = JSON.parse(result.stdout);
    expect(details.customer).toMatchObject({ id: 55509876, name: 'João Pereira', active: false, last_order_id: 871254198 });
    expect(details.customer.phone).toBeUndefined();
    expect(details.orders.map((o: { id: number }) => o.id)).toEqual([871254198]);
    const orders = await cli('orders', 'list', '--customer', 'joao.pereira@example.com', '--json', 'id');
    expectOk(orders);
    expect(JSON.parse(orders.stdout)).toEqual([{ id: 871254198 }]);
  });
});

describe('export of the documented catalog, then import --dry-run of that file (issue 13)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-contract-export-'));
  const file = join(dir, 'catalog.csv');
  let rows: Record<string, string>[] = [];
  let header: string[] = [];

  it('products export writes options, prices, the SKU-less product, and one stock column without inventory_levels', async () => {
    const result = await cli('products', 'export', file);
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    header = parse(text, { to_line: 1 })[0] as string[];
    rows = parse(text, { columns: true });
    expect(header).toContain('handle');
    expect(header).toContain('stock');
    expect(header.filter((h) => h.startsWith('stock:')), 'no per-location columns when the store sends no inventory_levels').toEqual([]);
    expect(rows).toHaveLength(6);

    const bySku = (sku: string) => rows.find((r) => r.sku === sku)!;
    expect(bySku('CAM-AZ-M')).toMatchObject({ option1_name: 'Cor', option1_value: 'Azul', option2_name: 'Tamanho', option2_value: 'M', price: '49.90', promotional_price: '39.90', stock: '12' });
    expect(bySku('CAM-AZ-G')).toMatchObject({ option1_value: 'Azul', option2_value: 'G', price: '49.90', stock: '5' });
    // Option names and values that exist only in `en` on a `pt` store are exported, not blank.
    expect(bySku('BON-S')).toMatchObject({ option1_name: 'Size', option1_value: 'S', price: '59.00' });
    expect(bySku('BON-L')).toMatchObject({ option1_value: 'L', stock: '3' });
    // The product without SKU.
    const gift = rows.find((r) => r.handle === 'vale-presente');
    expect(gift, 'a row for the SKU-less product (handle vale-presente)').toBeDefined();
    expect(gift).toMatchObject({ sku: '', price: '100.00' });
  });

  it('products import --dry-run of that file against the same store plans 0 writes and sends none', async () => {
    expect(rows.length, 'the export ran').toBeGreaterThan(0);
    const result = await cli('products', 'import', file, '--dry-run', '--json');
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ dryRun: true, failed: 0, created: 0, updated: 0, plannedWrites: 0, unchanged: 3 });
    expect(result.requests.length, 'the import asked the store').toBeGreaterThan(0);
    expect(result.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});

describe('the whole run', () => {
  it('no command sent a write to the store', () => {
    expect(store.writes().map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});

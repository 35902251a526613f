import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/format.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv, ISO_WITH_OFFSET, type TestSandbox } from '../helpers/sandbox.js';
import { hasScript, plainText, runOnTerminal } from '../helpers/terminal.js';

/**
 * Issue 23, "readable at 80 columns": the lists and record pages people read every morning, on a real
 * pseudo-terminal 80 and 120 columns wide (its size set with stty, COLUMNS unset). No line is wider than the
 * terminal (measured as a terminal shows it: CJK and emoji two columns), no header is cut, ids, numbers,
 * states and totals are whole, and a wider terminal shows more columns. docs/decisions.md "Tables that fit".
 */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
let productId: number;
let orderId: number;
let foId: string;

interface OrderJson {
  id: number;
  number: number;
  status: string;
  total: string;
  currency: string;
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  api = clientFor(sandbox);
  env = { ...cliEnv(sandbox, 'tables'), COLUMNS: undefined, LINES: undefined };
  productId = (await api.get<{ id: number }[]>('/products', { query: { per_page: 1 } })).body[0]!.id;
  // A shipment with tracking events: the demo seed dispatches some.
  for (const order of (await api.get<{ id: number }[]>('/orders', { query: { per_page: 50 } })).body) {
    const fos = (await api.get<{ id: string; tracking_events?: unknown[] }[]>(`/orders/${order.id}/fulfillment-orders`)).body;
    const tracked = fos.find((fo) => (fo.tracking_events?.length ?? 0) > 0);
    if (tracked) {
      orderId = order.id;
      foId = tracked.id;
      break;
    }
  }
  for (const [event, url] of [
    ['order/paid', 'https://hooks.example.com/store/notifications/orders/paid?token=receiver-key-for-the-paid-orders'],
    ['product/updated', 'https://hooks.example.com/p'],
  ]) {
    await api.post('/webhooks', { event, url });
  }
});
afterAll(() => sandbox?.close());

/** What the terminal showed, as lines; the note on stderr included (it must fit too). */
async function onTerminal(args: string[], columns: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const r = await runOnTerminal(args, { ...env, ...extraEnv }, [], { columns });
  const lines = plainText(r.output).split('\n');
  expect(r.code, lines.join('\n')).toBe(0);
  return lines.filter((l) => l.trim() !== '');
}

function expectFits(lines: string[], columns: number): void {
  for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
  expect(lines.join('\n')).not.toMatch(/^[A-Z][A-Z ]*…/m);
}

/** The header line of a table: its first line in capitals, cut into its column names. */
function headerOf(lines: string[], first: string): string[] {
  const header = lines.find((l) => l.startsWith(`${first}  `))!;
  expect(header, lines.join('\n')).toBeDefined();
  expect(header).not.toContain('…');
  return header.trim().split(/\s{2,}/);
}

describe.runIf(hasScript)('tables on an 80-column terminal', () => {
  it('orders list: ids, numbers, states and totals whole, low-priority columns dropped and named on stderr', async () => {
    const lines = await onTerminal(['orders', 'list', '--limit', '10'], 80);
    expectFits(lines, 80);
    const header = headerOf(lines, 'ID');
    expect(header.slice(0, 3)).toEqual(['ID', 'NUMBER', 'STATUS']);
    expect(header.at(-1)).toBe('TOTAL');
    const orders = (await api.get<OrderJson[]>('/orders', { query: { per_page: 10 } })).body;
    const rows = lines.filter((l) => /^\d{6,} /.test(l));
    expect(rows).toHaveLength(orders.length);
    for (const [i, row] of rows.entries()) {
      const o = orders[i]!;
      expect(row).toMatch(new RegExp(`^${o.id} +${o.number} +${o.status} `));
      expect(row.endsWith(` ${o.total} ${o.currency}`)).toBe(true);
    }
    const note = lines.find((l) => l.startsWith('Hidden to fit:'))!;
    expect(note).toContain('created_at');
    expect(lines.join(' ')).toContain('--wide or --json');
    for (const hidden of ['created_at']) expect(header).not.toContain(hidden.toUpperCase());

    const wider = await onTerminal(['orders', 'list', '--limit', '10'], 120);
    expectFits(wider, 120);
    const wideHeader = headerOf(wider, 'ID');
    expect(wideHeader.length).toBeGreaterThan(header.length);
    expect(wideHeader).toContain('CREATED');
    expect(wider.some((l) => l.startsWith('Hidden to fit:'))).toBe(false);
  });

  it('orders list --wide shows every column, whatever the width', async () => {
    const lines = await onTerminal(['orders', 'list', '--limit', '3', '--wide'], 80);
    expect(headerOf(lines, 'ID')).toEqual(['ID', 'NUMBER', 'STATUS', 'PAYMENT', 'SHIPPING', 'CREATED', 'CUSTOMER', 'TOTAL']);
    expect(lines.some((l) => l.startsWith('Hidden to fit:'))).toBe(false);
  });

  it('products list: id, SKU and price whole; more columns at 120', async () => {
    const lines = await onTerminal(['products', 'list', '--limit', '10'], 80);
    expectFits(lines, 80);
    const header = headerOf(lines, 'ID');
    expect(header).toEqual(expect.arrayContaining(['ID', 'NAME', 'SKU', 'PRICE']));
    const products = (await api.get<{ id: number; variants: { sku: string | null; price: string }[] }[]>('/products', { query: { per_page: 10 } })).body;
    for (const p of products) {
      const row = lines.find((l) => l.startsWith(`${p.id} `))!;
      expect(row).toBeDefined();
      if (p.variants[0]?.sku) expect(row).toContain(` ${p.variants[0].sku} `);
      expect(row).toContain(` ${p.variants[0]!.price} `);
    }
    const wide = headerOf(await onTerminal(['products', 'list', '--limit', '10'], 120), 'ID');
    expect(wide.length).toBeGreaterThan(header.length);
  });

  it('variants list: id, SKU, price and stock whole', async () => {
    const lines = await onTerminal(['variants', 'list', String(productId)], 80);
    expectFits(lines, 80);
    expect(headerOf(lines, 'ID')).toEqual(expect.arrayContaining(['ID', 'SKU', 'PRICE', 'STOCK']));
    const variants = (await api.get<{ id: number; sku: string | null; price: string }[]>(`/products/${productId}/variants`)).body;
    for (const v of variants) {
      const row = lines.find((l) => l.startsWith(`${v.id} `))!;
      if (v.sku) expect(row).toContain(` ${v.sku} `);
      expect(row).toContain(`${v.price}`);
    }
  });

  it('locations list: ids whole, names whole or cut with …; the city appears at 120', async () => {
    const lines = await onTerminal(['locations', 'list'], 80);
    expectFits(lines, 80);
    const header = headerOf(lines, 'PRIORITY');
    const locations = (await api.get<{ id: string }[]>('/locations')).body;
    for (const l of locations) expect(lines.some((line) => line.includes(` ${l.id} `))).toBe(true);
    const wide = headerOf(await onTerminal(['locations', 'list'], 120), 'PRIORITY');
    expect(wide.length).toBeGreaterThan(header.length);
    expect(wide).toContain('CITY');
  });

  it('webhooks list: ids and events whole, the long URL cut with …, whole with --wide', async () => {
    const lines = await onTerminal(['webhooks', 'list'], 80);
    expectFits(lines, 80);
    expect(headerOf(lines, 'ID').slice(0, 3)).toEqual(['ID', 'EVENT', 'URL']);
    const hooks = (await api.get<{ id: number; event: string; url: string }[]>('/webhooks')).body;
    for (const h of hooks) expect(lines.some((l) => l.startsWith(`${h.id} `) && l.includes(` ${h.event} `))).toBe(true);
    expect(lines.some((l) => l.includes('https://hooks.example.com/store/') && l.includes('…'))).toBe(true);
    const wide = await onTerminal(['webhooks', 'list', '--wide'], 80);
    expect(wide.some((l) => l.includes(hooks.find((h) => h.event === 'order/paid')!.url))).toBe(true);
  });

  it('fulfillment-orders get: the record wraps, its items and tracking events fit with whole headers and states', async () => {
    expect(foId).toBeDefined();
    const lines = await onTerminal(['fulfillment-orders', 'get', String(orderId), foId], 80);
    expectFits(lines, 80);
    const fo = (await api.get<{ id: string; number: string; status: string; tracking_events: { status: string }[]; tracking_info: { url?: string } }>(
      `/orders/${orderId}/fulfillment-orders/${foId}`,
    )).body;
    expect(lines).toContain(`id        ${fo.id}`);
    expect(lines).toContain(`number    ${fo.number}`);
    expect(lines).toContain(`status    ${fo.status}`);
    // A long tracking URL wraps under itself: joined back, it is whole.
    if (fo.tracking_info.url) expect(lines.map((l) => l.trim()).join(' ')).toContain(fo.tracking_info.url);
    const events = headerOf(lines, 'STATUS');
    expect(events).toEqual(expect.arrayContaining(['STATUS', 'WHEN', 'DESCRIPTION']));
    const eventsAt = lines.findIndex((l) => l.startsWith('STATUS  '));
    for (const [i, event] of fo.tracking_events.entries()) expect(lines[eventsAt + 1 + i]!.startsWith(`${event.status} `)).toBe(true);
  });
});

describe.runIf(hasScript)('record pages on an 80-column terminal', () => {
  it('orders get: the shipping address and billing name and document, long values wrapped and never cut', async () => {
    const order = (
      await api.get<{
        id: number;
        customer: { identification?: string | null };
        shipping_address: { name: string; address: string; city: string } | null;
        billing_name: string | null;
      }>(`/orders/${orderId}`)
    ).body;
    const lines = await onTerminal(['orders', 'get', String(orderId)], 80);
    expectFits(lines, 80);
    const text = lines.join('\n');
    expect(order.shipping_address).not.toBeNull();
    const shipping = text.split('\nShipping address\n')[1]!.split('\nBilling\n')[0]!;
    expect(shipping).toMatch(new RegExp(`^  name +${order.shipping_address!.name}$`, 'm'));
    expect(shipping).toContain(order.shipping_address!.address);
    expect(shipping).toContain(order.shipping_address!.city);
    const billing = text.split('\nBilling\n')[1]!.split('\nItems\n')[0]!;
    if (order.billing_name) expect(billing).toMatch(new RegExp(`^  name +${order.billing_name}$`, 'm'));
    if (order.customer.identification) expect(billing).toMatch(new RegExp(`^  document +${order.customer.identification}$`, 'm'));
    // The shipment's location and tracking URL are whole: written as labelled lines, not a cut table row.
    const fo = (await api.get<{ tracking_info: { url?: string } | null; assigned_location?: { name?: unknown } }>(`/orders/${orderId}/fulfillment-orders/${foId}`)).body;
    expect(text).not.toMatch(/^Fulfillment orders\nID /m);
    if (fo.tracking_info?.url) expect(lines.map((l) => l.trim()).join(' ')).toContain(fo.tracking_info.url);
  });
});

describe('machine output keeps one form', () => {
  it('TSV writes every timestamp ISO 8601 with a +00:00 offset; --json passes the record through as the store sent it', async () => {
    const orders = (await api.get<{ id: number; created_at: string }[]>('/orders', { query: { per_page: 30 } })).body;
    const tsv = await runInProcess(['orders', 'list'], { env });
    const created = tsv.stdout.trimEnd().split('\n').slice(1).map((l) => l.split('\t')[5]);
    for (const t of created) expect(t).toMatch(ISO_WITH_OFFSET);
    const json = JSON.parse((await runInProcess(['orders', 'list', '--json', 'id,created_at'], { env })).stdout) as { created_at: string }[];
    expect(json.map((o) => o.created_at)).toEqual(orders.map((o) => o.created_at));
  });
});

describe.runIf(hasScript)('colour on a terminal', () => {
  it('states are coloured unless NO_COLOR is set', async () => {
    const coloured = await runOnTerminal(['orders', 'list', '--limit', '30'], { ...env, NO_COLOR: '' }, [], { columns: 120 });
    expect(coloured.output).toMatch(/\u001b\[3[123]m(paid|pending|cancelled|unpacked|refunded)\u001b\[39m/);
    const plain = await runOnTerminal(['orders', 'list', '--limit', '30'], { ...env, NO_COLOR: '1' }, [], { columns: 120 });
    expect(plain.output).not.toContain('\u001b[3');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv } from '../helpers/sandbox.js';
import { hasScript, runOnTerminal } from '../helpers/terminal.js';

/** `categories create` refuses a second category of the same name under one parent; delete questions name what they delete. */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', rate: 'off' });
  env = cliEnv(sandbox, 'duplicates');
});
afterAll(async () => {
  await sandbox?.close();
});

describe('categories create', () => {
  it('refuses a category the parent already has (main language, case ignored) with its id, unless --allow-duplicate', async () => {
    const first = await store('categories', 'create', '--name', 'Buzos', '--parent', 'Ropa', '--json');
    expect(first.code, first.stderr).toBe(0);
    const { id } = JSON.parse(first.stdout) as { id: number };
    const again = await store('categories', 'create', '--name', 'buzos', '--parent', 'Ropa');
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toBe(`Error: A category "Buzos" already exists under Ropa (id ${id}); pass --allow-duplicate to create another.`);
    // Another parent, or the top level, is another place.
    const elsewhere = await store('categories', 'create', '--name', 'Buzos', '--json');
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    const forced = await store('categories', 'create', '--name', 'Buzos', '--parent', 'Ropa', '--allow-duplicate', '--json');
    expect(forced.code, forced.stderr).toBe(0);
    const list = JSON.parse((await store('categories', 'list', '--json')).stdout) as { name: unknown }[];
    expect(list.filter((c) => JSON.stringify(c.name).includes('"Buzos"'))).toHaveLength(3);
  });
});

describe.skipIf(!hasScript)('delete questions name what they delete', () => {
  it('categories delete and variants delete name it, its handle or SKU, and its id', async () => {
    const created = JSON.parse((await store('categories', 'create', '--name', 'Efímera', '--parent', 'Ropa', '--json')).stdout) as { id: number };
    const category = await runOnTerminal(['categories', 'delete', String(created.id)], env, [{ when: 'Delete category', send: 'n\r' }]);
    // The terminal wraps long questions: any run of white space stands for a space.
    expect(category.output).toMatch(new RegExp(`Delete\\s+category\\s+"Efímera"\\s+\\(Ropa\\s+>\\s+Efímera,\\s+handle\\s+\\S+,\\s+id\\s+${created.id}\\)\\?`));
    const variant = await runOnTerminal(['variants', 'delete', 'CAM-OXF-S-BLANCO'], env, [{ when: 'Delete variant', send: 'n\r' }]);
    expect(variant.output.replace(/\s+/g, ' ')).toMatch(/Delete variant \d+ \(SKU CAM-OXF-S-BLANCO\) of product \d+ "Camisa Oxford — S \/ Blanco" \(camisa-oxford\)\?/);
    expect(variant.output).toContain('Nothing deleted.');
  });

  it('webhooks, custom fields and tracking events are named by what they are', async () => {
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    const hook = JSON.parse((await store('webhooks', 'add', 'order/created', 'https://example.com/hook', '--json')).stdout) as { id: number };
    const webhook = await runOnTerminal(['webhooks', 'delete', String(hook.id)], env, [{ when: 'Delete webhook', send: 'n\r' }]);
    expect(flat(webhook.output)).toContain(`Delete webhook ${hook.id} (order/created → https://example.com/hook)?`);

    const field = JSON.parse((await store('variants', 'custom-fields', 'create', '--name', 'Origen', '--json')).stdout) as { id: string };
    const custom = await runOnTerminal(['variants', 'custom-fields', 'delete', 'Origen'], env, [{ when: 'Delete custom field', send: 'n\r' }]);
    expect(flat(custom.output)).toContain(`Delete custom field "Origen" (id ${field.id}, text) and its value on every variant?`);

    const api = clientFor(sandbox);
    // A shipment sent by carrier and not delivered: tracking events start once it is DISPATCHED (platform.md §10).
    const paid = (await api.get<{ id: number; fulfillment_orders: { id: string; status: string; shipping: { type: string } }[] }[]>('/orders', {
      query: { status: 'paid', aggregates: 'fulfillment_orders', per_page: 200 },
    })).body;
    const order = paid.find((o) => o.fulfillment_orders[0]?.shipping.type === 'ship' && o.fulfillment_orders[0].status !== 'DELIVERED');
    const fo = order!.fulfillment_orders[0]!;
    if (fo.status !== 'DISPATCHED') await api.patch(`/orders/${order!.id}/fulfillment-orders/${fo.id}`, { status: 'DISPATCHED' });
    const added = JSON.parse(
      (await store('fulfillment-orders', 'tracking', 'add', String(order!.id), fo.id, '--status', 'in_transit', '--description', 'Left the hub', '--json')).stdout,
    ) as { id: string; happened_at: string };
    const tracking = await runOnTerminal(['fulfillment-orders', 'tracking', 'delete', String(order!.id), fo.id, added.id], env, [{ when: 'Delete tracking', send: 'n\r' }]);
    expect(flat(tracking.output)).toContain(`Delete tracking event "in_transit: Left the hub" of ${added.happened_at} (id ${added.id}) of fulfillment order ${fo.id} (order ${order!.id})?`);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

const running: TestSandbox[] = [];
afterEach(async () => {
  for (const sb of running.splice(0)) await sb.close();
});

async function start(faults: string): Promise<TestSandbox> {
  const sb = await startTestSandbox({ seed: 'demo', faults });
  running.push(sb);
  return sb;
}

function anyVariant(sb: TestSandbox): number {
  const store = sb.sandbox.state.store(sb.sandbox.storeId)!;
  return store.products.list().flatMap((p) => p.variants).find((v) => !v.stock_management)!.id;
}

describe('--faults in a running sandbox', () => {
  it('lost: the order is committed but the answer never arrives', async () => {
    const sb = await start('lost=1');
    const store = sb.sandbox.state.store(sb.sandbox.storeId)!;
    const before = store.orders.size;
    await expect(sb.post('/orders', { customer: { name: 'Eva' }, products: [{ variant_id: anyVariant(sb), quantity: 1 }] })).rejects.toThrow();
    expect(store.orders.size).toBe(before + 1);
  });

  it('5xx and reset: nothing is committed; routes outside the API still answer', async () => {
    for (const spec of ['5xx=1', 'reset=1']) {
      const sb = await start(spec);
      const store = sb.sandbox.state.store(sb.sandbox.storeId)!;
      const before = store.orders.size;
      const attempt = sb.post('/orders', { customer: { name: 'Eva' }, products: [{ variant_id: anyVariant(sb), quantity: 1 }] });
      if (spec === '5xx=1') expect((await attempt).status).toBeGreaterThanOrEqual(500);
      else await expect(attempt).rejects.toThrow();
      expect(store.orders.size).toBe(before);
      const status = await fetch(`${sb.sandbox.apiUrl}/sandbox/status`);
      expect(status.status).toBe(200);
    }
  });

  it('an invalid spec stops the start with a clear message', async () => {
    await expect(startTestSandbox({ faults: '5xx=2' })).rejects.toThrow(/between 0 and 1/);
  });
});

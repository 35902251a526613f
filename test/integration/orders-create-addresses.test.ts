import { describe, expect, it } from 'vitest';
import { useCliSandbox } from '../helpers/cli-sandbox.js';

/**
 * `store orders create --shipping-address KEY=VALUE --billing-address KEY=VALUE` sends the addresses as the objects
 * `POST /orders` takes (docs/platform.md §12), and the store keeps them.
 */
const s = useCliSandbox('orders-addresses');

async function variantInStock(): Promise<number> {
  const res = await s.api.get('/products', { query: { per_page: 200 } });
  return (res.body as any[]).flatMap((p) => p.variants).find((v: any) => v.stock === null || Number(v.stock) >= 5).id;
}

describe('store orders create with addresses', () => {
  it('sends both addresses as objects; the order holds them', async () => {
    const variant = await variantInStock();
    const res = await s.run(
      'orders', 'create', '--customer-name', 'Ana Souza', '--item', `${variant}=1`,
      '--shipping-address', 'first_name=Ana', '--shipping-address', 'last_name=Souza', '--shipping-address', 'address=Rua Augusta',
      '--shipping-address', 'number=500', '--shipping-address', 'city=São Paulo', '--shipping-address', 'zipcode=01305-000',
      '--billing-address', 'first_name=Bruno', '--billing-address', 'last_name=Souza', '--billing-address', 'address=Rua Oscar Freire',
      '--billing-address', 'number=10', '--billing-address', 'city=São Paulo', '--billing-address', 'country=BR',
      '--json',
    );
    expect(res.code, res.stderr).toBe(0);
    const order = JSON.parse(res.stdout);
    const stored = (await s.api.get(`/orders/${order.id}`)).body;
    expect(stored.shipping_address).toMatchObject({ name: 'Ana Souza', address: 'Rua Augusta', number: '500', city: 'São Paulo', zipcode: '01305-000' });
    expect(stored).toMatchObject({ billing_name: 'Bruno Souza', billing_address: 'Rua Oscar Freire', billing_number: '10', billing_city: 'São Paulo', billing_country: 'BR' });
  });

  it('an unknown key, or a key given twice, is one sentence naming the flag, before any request', async () => {
    const variant = await variantInStock();
    const bad = await s.run('orders', 'create', '--customer-name', 'Ana', '--item', `${variant}=1`, '--shipping-address', 'street=Rua Augusta');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--shipping-address "street=Rua Augusta" is not KEY=VALUE with a key of first_name, last_name, address');
    expect(bad.requests).toEqual([]);
    const twice = await s.run('orders', 'create', '--customer-name', 'Ana', '--item', `${variant}=1`, '--billing-address', 'city=A', '--billing-address', 'city=B');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--billing-address gives city twice.');
    expect(twice.requests).toEqual([]);
  });
});

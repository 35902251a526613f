import { afterEach, describe, expect, it } from 'vitest';
import { OrderSchema } from '../../../../src/api/orders.js';
import { setDisplayLanguage } from '../../../../src/api/read.js';
import { orderRows } from '../../../../src/services/orders/order-export.js';
import { fixture } from '../../../helpers/replay-server.js';

/** `orders export` rows (docs/csv.md "Orders") read the documented order as the views do (platform.md §0, §4). */
describe('orderRows', () => {
  afterEach(() => setDisplayLanguage(undefined));

  it('writes the shipping address of the documented order: street and number, then floor and locality', () => {
    const [row] = orderRows(OrderSchema.parse(fixture('order.json')));
    expect(row).toMatchObject({
      order_id: '871254203',
      order_number: '1042',
      shipping_name: 'Mariana Lima',
      shipping_address: 'Rua Harmonia 321, apto 42, Vila Madalena',
      shipping_city: 'São Paulo',
      shipping_province: 'São Paulo',
      shipping_zipcode: '05435-000',
      shipping_country: 'BR',
    });
  });

  it('reads a province or country sent as {code, name}, and a line name keyed by language in the main language', () => {
    setDisplayLanguage('es');
    const order = fixture('order.json');
    order.shipping_address = { ...order.shipping_address, floor: null, province: { code: 'SP', name: 'São Paulo' }, country: { code: 'BR' } };
    order.products = [{ ...order.products[0], name: { pt: 'Camiseta Básica', es: 'Remera Básica' } }];
    const [row] = orderRows(OrderSchema.parse(order));
    expect(row).toMatchObject({
      shipping_address: 'Rua Harmonia 321, Vila Madalena',
      shipping_province: 'São Paulo',
      shipping_country: 'BR',
      line_name: 'Remera Básica',
    });
  });
});

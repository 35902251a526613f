import { describe, expect, it } from 'vitest';
import { CustomFieldSchema } from '../../../src/api/custom-fields.js';
import {
  FulfillmentOrderSchema,
  fulfillmentItems,
  fulfillmentLocationId,
  fulfillmentQuantity,
  fulfillmentStatus,
} from '../../../src/api/fulfillment-orders.js';
import { LocationSchema } from '../../../src/api/locations.js';
import { MetafieldSchema } from '../../../src/api/metafields.js';
import { parseRecords } from '../../../src/api/read.js';
import { WebhookSchema } from '../../../src/api/webhooks.js';
import { fulfillmentOrderRow, locationLabel } from '../../../src/views/fulfillment-orders.js';

/**
 * The client's schemas of fulfillment orders, metafields, locations, custom fields and webhooks read the records
 * platform.md §5–§7 documents, by the reading rules of §0 (numeric strings, nulls, locale-keyed names, fields
 * left out), not only what the sandbox happens to send.
 */

const documentedFo = {
  id: '01HZX5B2TQK6J9W8V7N3M2P1QR',
  number: '1024',
  status: 'READY_FOR_PICKUP',
  total_quantity: '3',
  total_weight: null,
  total_price: { value: '150.00', currency: 'BRL' },
  assigned_location: { location_id: '01HZX5A0000000000000000000', name: { pt_BR: 'Loja Centro', es_AR: 'Local Centro' }, address: null },
  line_items: [
    { id: '01HZX5C1', quantity: 2, variant: { variant_id: '123456789', sku: null }, product: { product_id: '987654321', name: { pt: 'Camiseta' } }, unit_price: { value: '50.00', currency: 'BRL' } },
    { id: '01HZX5C2', quantity: '1', variant: { variant_id: '123456790' }, product: { product_id: '987654321' }, unit_price: { value: 50, currency: 'BRL' } },
  ],
  recipient: { name: 'Ana', phone: null },
  shipping: { type: 'pickup', carrier: null, option: null, merchant_cost: null, consumer_cost: null },
  destination: null,
  status_history: [{ from_status: null, to_status: 'UNPACKED', happened_at: '2024-05-02T10:00:00+0000' }],
  tracking_info: { code: 'BR123', url: 'https://track.example/BR123' },
  tracking_events: [
    { id: 'ev1', status: 'ready_for_pickup', description: null, address: { city: 'São Paulo', state: 'SP' }, geolocation: null, happened_at: '2024-05-03T09:00:00-03:00', estimated_delivery_at: null },
  ],
  fulfilled_at: null,
  created_at: '2024-05-02T10:00:00+0000',
  updated_at: '2024-05-03T12:00:00+0000',
};

describe('fulfillment orders (platform.md §5)', () => {
  it('reads the documented record: line items with string ids, assigned location, upper-case status, tracking info', () => {
    const fo = FulfillmentOrderSchema.parse(documentedFo);
    expect(fo).not.toHaveProperty('order_id');
    expect(fulfillmentItems(fo)).toEqual([
      { variant_id: '123456789', product_id: '987654321', sku: undefined, name: { pt: 'Camiseta' }, quantity: 2, unit_price: '50.00', currency: 'BRL' },
      { variant_id: '123456790', product_id: '987654321', sku: undefined, name: undefined, quantity: 1, unit_price: '50', currency: 'BRL' },
    ]);
    expect(fulfillmentQuantity(fo)).toBe(3);
    expect(fulfillmentLocationId(fo)).toBe('01HZX5A0000000000000000000');
    // pt ↔ pt_BR: a Portuguese store names the location in Portuguese although es_AR is there too.
    expect(locationLabel(fo, 'pt')).toBe('Loja Centro (01HZX5A0000000000000000000)');
    expect(locationLabel(fo, 'es')).toBe('Local Centro (01HZX5A0000000000000000000)');
    expect(fulfillmentOrderRow(fo, 'pt')).toMatchObject({ status: 'READY_FOR_PICKUP', items: 3, tracking: 'BR123 https://track.example/BR123', events: 1 });
  });

  it('accepts a lower-case or unknown status and shows it upper case; reads the older record (location_id, products)', () => {
    const lower = FulfillmentOrderSchema.parse({ ...documentedFo, status: 'dispatched' });
    expect(fulfillmentStatus(lower)).toBe('DISPATCHED');
    const older = FulfillmentOrderSchema.parse({ id: '01J', order_id: 1000000001, status: 'unfulfilled', location_id: '01L', products: [{ variant_id: 5, quantity: 2 }], tracking_events: [] });
    expect(fulfillmentItems(older)).toEqual([{ variant_id: '5', name: undefined, quantity: 2 }]);
    expect(fulfillmentQuantity(older)).toBe(2);
    expect(fulfillmentOrderRow(older)).toMatchObject({ location: '01L', status: 'UNFULFILLED', items: 2, tracking: '' });
  });

  it('leaves an odd line or event out, keeping the rest of the record', () => {
    const fo = FulfillmentOrderSchema.parse({ ...documentedFo, tracking_events: [...documentedFo.tracking_events, { status: 'lost' }], line_items: [...documentedFo.line_items, 'junk'] });
    expect(fo.tracking_events).toHaveLength(1);
    expect(fo.line_items).toHaveLength(2);
  });

  it('leaves one odd record out of a list with one warning', () => {
    const warnings: string[] = [];
    const list = parseRecords(FulfillmentOrderSchema, [documentedFo, { number: 'no id' }], 'fulfillment order', (m) => warnings.push(m));
    expect(list).toHaveLength(1);
    expect(warnings).toEqual([expect.stringMatching(/^1 fulfillment order record could not be read and was left out \(record #2: /)]);
  });
});

describe('metafields, locations, custom fields, webhooks (platform.md §6, §7)', () => {
  it('a metafield with a numeric-string owner and a null description', () => {
    const m = MetafieldSchema.parse({ id: 7, namespace: 'nfe', key: 'key', value: '3526…', description: null, owner_resource: 'Order', owner_id: '123456789', created_at: '2024-01-01T00:00:00+0000' });
    expect(m.owner_id).toBe(123456789);
    expect(m.description).toBeUndefined();
  });

  it('a location: name keyed by locale, store_id a string, priority as text, verified_at, allows_pickup absent', () => {
    const l = LocationSchema.parse({
      id: '01HZX5A0000000000000000000',
      store_id: '1234567',
      name: { es_AR: 'Depósito', pt_BR: 'Depósito BR', en_US: 'Warehouse' },
      priority: '2',
      is_default: true,
      address: { city: 'Rosario', region: null, province: { code: 'S', name: null }, verified_at: '2024-02-01T10:00:00-03:00' },
    });
    expect(l).toMatchObject({ store_id: '1234567', priority: 2, is_default: true });
    expect(l.allows_pickup).toBeUndefined();
    expect(l.address?.verified_at).toBe('2024-02-01T10:00:00-03:00');
  });

  it('custom field definitions of every documented type, with owner_resource', () => {
    for (const value_type of ['text', 'numeric', 'date', 'text_list']) {
      const f = CustomFieldSchema.parse({ id: '3f0c8a4e-1b2c-4d5e-8f90-123456789abc', name: 'Material', owner_resource: 'product_variant', value_type, read_only: 'false', values: value_type === 'text_list' ? ['A', null, 3] : null });
      expect(f).toMatchObject({ owner_resource: 'product_variant', value_type, read_only: false });
      if (value_type === 'text_list') expect(f.values).toEqual(['A', '3']);
    }
  });

  it('a webhook without headers, with a numeric-string id', () => {
    const w = WebhookSchema.parse({ id: '42', event: 'order/packed', url: 'https://example.com/h', created_at: '2024-01-01T00:00:00+0000', updated_at: null });
    expect(w).toMatchObject({ id: 42, event: 'order/packed' });
    expect(w.headers).toBeUndefined();
  });
});

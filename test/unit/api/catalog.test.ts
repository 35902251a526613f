import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCategoryByHandle } from '../../../src/api/categories.js';
import { getCustomField, listCustomFields, listVariantCustomFields } from '../../../src/api/custom-fields.js';
import { listLocations, setLocationPriorities } from '../../../src/api/locations.js';
import {
  addProductImage,
  deleteProductImage,
  findProductByHandle,
  findProductBySku,
  findVariantBySku,
  listProductImages,
  listProducts,
  productPages,
} from '../../../src/api/products.js';
import { NotFoundError, ValidationError } from '../../../src/client/errors.js';
import { createClient, type StoreClient } from '../../../src/client/index.js';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { testLedger } from '../../helpers/ledger.js';

const ledger = testLedger();

/**
 * The catalog API modules the bulk import/export/sync builds on, against an in-process sandbox on loopback
 * (no CLI process: these are the functions, not the commands).
 */

let sandbox: RunningSandbox;
let client: StoreClient;

beforeAll(async () => {
  const { startSandbox } = await import('../../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  client = createClient({
    apiUrl: sandbox.apiUrl,
    storeId: String(sandbox.storeId),
    token: sandbox.accessToken,
    appName: sandbox.appName,
    appId: sandbox.clientId,
  });
});
afterAll(() => sandbox?.close());

describe('catalog API modules', () => {
  it('lists every product through pagination and one page with its total', async () => {
    const pages = [];
    for await (const page of productPages(client)) pages.push(page);
    expect(pages.flatMap((page) => page.products).map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.total).toBe(20);
    const second = await listProducts(client, { page: 2, perPage: 8 });
    expect(second.products.map((p) => p.id)).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
    expect(second.total).toBe(20);
  });

  it('finds a product by handle in any language and by SKU without listing the catalog', async () => {
    expect((await findProductByHandle(client, 'oxford-shirt'))?.id).toBe(1);
    expect(await findProductByHandle(client, 'no-such-handle')).toBeUndefined();
    expect((await findProductBySku(client, 'ACC-CIN'))?.id).toBe(14);
    const found = await findVariantBySku(client, 'CAM-OXF-M-BLANCO');
    expect(found?.product.id).toBe(1);
    expect(found?.variant.sku).toBe('CAM-OXF-M-BLANCO');
    expect(await findVariantBySku(client, 'NOPE')).toBeUndefined();
  });

  it('adds, lists and deletes product images', async () => {
    const image = await addProductImage(client, 2, 'https://example.com/back.jpg', ledger.record('POST', '/products/2/images'));
    // Stored under the store's CDN URL named after the file (docs/platform.md §12).
    expect(image).toMatchObject({ product_id: 2, position: 2, src: expect.stringMatching(/\/products\/back-640-0\.jpg$/) });
    expect((await listProductImages(client, 2)).map((i) => i.src)).toContain(image.src);
    await deleteProductImage(client, 2, image.id, ledger.record('DELETE', '/products/2/images'));
    expect((await listProductImages(client, 2)).map((i) => i.id)).not.toContain(image.id);
    await expect(addProductImage(client, 999, 'https://example.com/x.jpg', ledger.record('POST', '/products/999/images'))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('finds categories by handle and reads custom fields and their values', async () => {
    expect((await findCategoryByHandle(client, 'camisas'))?.id).toBe(2);
    const fields = await listCustomFields(client);
    const material = fields.find((f) => f.name === 'Material')!;
    expect((await getCustomField(client, material.id)).values).toContain('Lino');
    expect(await listVariantCustomFields(client, 1, 1)).toEqual([{ id: material.id, value: 'Algodón' }]);
  });

  it('refuses priorities that do not name every location (422 with the field)', async () => {
    const [first] = await listLocations(client);
    const error = await setLocationPriorities(client, [{ id: first!.id, priority: 0 }], ledger.record('PATCH', '/locations/priorities')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors?.id?.[0]).toMatch(/every location must be named once/);
  });
});

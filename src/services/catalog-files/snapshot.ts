import { listCategories } from '../../api/categories.js';
import { listCustomFields } from '../../api/custom-fields.js';
import { listLocations } from '../../api/locations.js';
import { type Product, categoryIdOf, productPages } from '../../api/products.js';
import type { Variant } from '../../api/variants.js';
import { getStore } from '../../api/store.js';
import type { StoreClient } from '../../client/index.js';
import { DECIMAL_FIELDS, TEXT_FIELDS } from './dialects.js';
import type { StoreSnapshot } from './plan-model.js';

/**
 * The store as a bulk planner needs it, fetched once: every product with its variants (200 per page), the
 * store's languages, and — unless `options` leaves them out (sync needs neither categories nor custom fields,
 * and locations only for stock) — the category tree, the locations and the custom field definitions.
 */
export async function fetchSnapshot(
  client: StoreClient,
  onPage?: (loaded: number, total: number | undefined) => void,
  options: { store?: boolean; categories?: boolean; locations?: boolean; customFields?: boolean; productFields?: readonly string[] } = {},
): Promise<StoreSnapshot> {
  const fields = (options.productFields ?? IMPORT_PRODUCT_FIELDS).join(',');
  const productsP = (async () => {
    const products: Product[] = [];
    for await (const page of productPages(client, { fields })) {
      for (const product of page.products) products.push(plannerView(product));
      onPage?.(products.length, page.total);
    }
    return products;
  })();
  const [store, products, categories, locations, customFields] = await Promise.all([
    // Sync matches by SKU alone: the store's languages are not needed.
    options.store === false ? Promise.resolve({ languages: [], main_language: '' }) : getStore(client),
    productsP,
    options.categories === false ? Promise.resolve([]) : listCategories(client),
    options.locations === false ? Promise.resolve([]) : listLocations(client),
    options.customFields === false ? Promise.resolve([]) : listCustomFields(client),
  ]);
  return { store, products, categories, locations, customFields };
}

/**
 * The product fields an import compares (`fields=`, docs/platform.md §8): no descriptions of SEO, no
 * timestamps on the wire. A store that ignores the parameter sends everything; plannerView keeps these alone.
 */
export const IMPORT_PRODUCT_FIELDS = ['id', 'name', 'description', 'handle', 'attributes', 'categories', 'images', 'variants'] as const;

/** What a sync compares: the variants (SKU, prices, stock) and the product's id. */
export const SYNC_PRODUCT_FIELDS = ['id', 'variants'] as const;

/** The variant fields the planner compares (its decimal and text fields among them); the others are left out. */
const VARIANT_FIELDS = ['sku', 'stock', 'inventory_levels', 'custom_fields', ...DECIMAL_FIELDS, ...TEXT_FIELDS] as const;

/**
 * The part of a product record the planner compares, copied out as each page arrives so the rest (timestamps,
 * SEO fields, fields this client does not know) is garbage at once, and null fields are left out (the planner
 * reads a missing field as null): a catalog of 100,000 variants stays well inside the import's memory budget.
 */
function plannerView(p: Product): Product {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    handle: p.handle,
    attributes: p.attributes,
    // Ids only: the full category records the platform sends would weigh on a large catalog's memory.
    categories: p.categories.map(categoryIdOf),
    images: p.images.map((i) => ({ id: i.id, src: i.src }) as Product['images'][number]),
    variants: p.variants.map((v) => {
      const view = { id: v.id, product_id: v.product_id, values: v.values } as Variant;
      for (const field of VARIANT_FIELDS) if (v[field] !== null && v[field] !== undefined) Object.assign(view, { [field]: v[field] });
      return view;
    }),
  } as Product;
}

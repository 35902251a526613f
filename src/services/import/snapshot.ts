import { listCategories } from '../../api/categories.js';
import { listCustomFields } from '../../api/custom-fields.js';
import { listLocations } from '../../api/locations.js';
import { type Product, productPages } from '../../api/products.js';
import { getStore } from '../../api/store.js';
import type { StoreClient } from '../../client/index.js';
import type { StoreSnapshot } from './planner.js';

/**
 * The store as the planner needs it, fetched once: every product with its variants (200 per page), the
 * category tree, the locations, the custom field definitions and the store's languages.
 */
export async function fetchSnapshot(
  client: StoreClient,
  onPage?: (loaded: number, total: number | undefined) => void,
  options: { customFields?: boolean } = {},
): Promise<StoreSnapshot> {
  const productsP = (async () => {
    const products: Product[] = [];
    for await (const page of productPages(client)) {
      products.push(...page.products);
      onPage?.(products.length, page.total);
    }
    return products;
  })();
  const [store, products, categories, locations, customFields] = await Promise.all([
    getStore(client),
    productsP,
    listCategories(client),
    listLocations(client),
    options.customFields === false ? Promise.resolve([]) : listCustomFields(client),
  ]);
  return { store, products, categories, locations, customFields };
}

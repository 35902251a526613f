import { randomBytes, randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import { ALL_SCOPES } from './http.js';
import { seedOrders } from './seed-orders.js';
import { seededRandom } from './random.js';
import { blankAddress } from './store/locations.js';
import { createApp, createStore } from './store/stores.js';
import { variantRecord } from './store/variants.js';
import { locationLimit } from '../platform/plans.js';
import { slug } from '../platform/slug.js';
import type { CategoryRecord, InventoryLevel, Localized, LocationRecord, ProductRecord, VariantRecord } from './records.js';
import type { SandboxState, StoreData } from './state.js';

/**
 * The first start of a sandbox (one app, one store, one token with every scope) and the `demo` catalog.
 * The demo orders come from seed-orders.ts (`seedOrders(state, storeId)`), run after the catalog.
 */

const SANDBOX_APP_NAME = 'Store CLI Sandbox';

export type SeedKind = 'demo' | 'empty';

/** Creates the app, the store (multilingual for demo, Spanish only for empty) and the app's token. */
export function bootstrap(state: SandboxState, seed: SeedKind, plan: string): StoreData {
  const storeId = state.mutate('sandbox.bootstrap', (tx) => {
    const app = createApp(tx, state, { name: SANDBOX_APP_NAME });
    const id = createStore(tx, state, {
      name: seed === 'demo' ? 'Tienda Demo' : 'Sandbox Store',
      plan,
      languages: seed === 'demo' ? ['es', 'pt', 'en'] : ['es'],
      main_language: 'es',
    });
    tx.put(state.tokens, {
      token: randomBytes(20).toString('hex'),
      store_id: id,
      app_id: app.client_id,
      scopes: ALL_SCOPES,
      created_at: tx.now(),
    });
    return id;
  });
  const store = state.store(storeId)!;
  if (seed === 'demo') seedDemo(state, store);
  return store;
}

/** Empties a store's data (keeping the store, apps and tokens) and seeds it again. */
export async function resetStore(state: SandboxState, storeId: number, seed: SeedKind): Promise<void> {
  const store = state.store(storeId);
  if (!store) throw new Error(`no store ${storeId}`);
  // A reset gives back the same demo store (README's examples and docs/examples name its ids): the ids counted
  // per store start again, and the demo's locations and custom fields keep the random ids they were made with.
  const kept: DemoIds = {
    locations: new Map(store.locations.list().map((l) => [pickName(l.name), l.id])),
    customFields: new Map(store.customFields.list().map((f) => [f.name, f.id])),
  };
  state.mutate('sandbox.reset', (tx) => {
    for (const collection of store.collections()) {
      for (const record of collection.list()) tx.delete(collection, collection.keyOf(record));
    }
    tx.restartIds(store, ['order', 'order_short']);
    const languages = seed === 'demo' ? ['es', 'pt', 'en'] : ['es'];
    tx.put(state.storeRecords, { ...store.record, languages, main_language: 'es' });
  });
  if (seed === 'demo') seedDemo(state, store, kept);
}

/** Ids of the demo's records that are not counted (ULIDs, UUIDs), by name: what a reset makes again. */
interface DemoIds {
  locations: Map<string, string>;
  customFields: Map<string, string>;
}

function pickName(name: LocationRecord['name']): string {
  return typeof name === 'string' ? name : (Object.values(name).find(Boolean) ?? '');
}

// ---------------------------------------------------------------------------------------------------------
// The demo catalog

const DAY = 86_400_000;

const DEMO_LOCATIONS = [
  { name: 'Depósito Central', street: 'Av. Corrientes', number: '1234', city: 'Buenos Aires', zipcode: 'C1043', pickup: false },
  { name: 'Local Palermo', street: 'Honduras', number: '4800', city: 'Buenos Aires', zipcode: 'C1414', pickup: true },
  { name: 'Depósito Córdoba', street: 'Bv. San Juan', number: '350', city: 'Córdoba', zipcode: 'X5000', pickup: false },
];

/** [es, pt, en] names; parent by index into this list. */
const DEMO_CATEGORIES: { name: [string, string, string]; parent: number | null }[] = [
  { name: ['Ropa', 'Roupas', 'Clothing'], parent: null },
  { name: ['Camisas', 'Camisas', 'Shirts'], parent: 0 },
  { name: ['Pantalones', 'Calças', 'Trousers'], parent: 0 },
  { name: ['Remeras', 'Camisetas', 'T-shirts'], parent: 0 },
  { name: ['Calzado', 'Calçados', 'Footwear'], parent: null },
  { name: ['Accesorios', 'Acessórios', 'Accessories'], parent: null },
  { name: ['Gorras', 'Bonés', 'Caps'], parent: 5 },
  { name: ['Ofertas', 'Ofertas', 'Sale'], parent: null },
];

interface DemoProduct {
  name: [string, string, string];
  sku: string;
  price: number;
  categories: number[];
  /** `only`: the option's name and values exist in that language alone (not the main one), as on real stores. */
  options?: { name: [string, string, string]; values: string[]; only?: 'pt' | 'en' }[];
  /** The product's variant has no SKU (`sku: null`); `sku` then only seeds the variant SKUs of options. */
  withoutSku?: boolean;
  /** The store does not report the split of these variants' stock between locations (no `inventory_levels`). */
  levelsUnreported?: boolean;
}

const SIZES = ['S', 'M', 'L'];
const COLORS = ['Blanco', 'Negro', 'Azul'];

const DEMO_PRODUCTS: DemoProduct[] = [
  { name: ['Camisa Oxford', 'Camisa Oxford', 'Oxford Shirt'], sku: 'CAM-OXF', price: 32000, categories: [1], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: SIZES }, { name: ['Color', 'Cor', 'Colour'], values: ['Blanco', 'Celeste'] }] },
  { name: ['Camisa de Lino', 'Camisa de Linho', 'Linen Shirt'], sku: 'CAM-LIN', price: 38500, categories: [1, 7], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: SIZES }] },
  { name: ['Camisa Leñadora', 'Camisa Xadrez', 'Flannel Shirt'], sku: 'CAM-LEN', price: 29900, categories: [1], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: ['M', 'L', 'XL'] }] },
  { name: ['Remera Básica', 'Camiseta Básica', 'Basic T-shirt'], sku: 'REM-BAS', price: 12500, categories: [3], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: ['S', 'M', 'L', 'XL'] }, { name: ['Color', 'Cor', 'Colour'], values: COLORS }] },
  { name: ['Remera Estampada', 'Camiseta Estampada', 'Printed T-shirt'], sku: 'REM-EST', price: 15000, categories: [3, 7], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: SIZES }] },
  { name: ['Pantalón Chino', 'Calça Chino', 'Chino Trousers'], sku: 'PAN-CHI', price: 41000, categories: [2], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: ['38', '40', '42', '44'] }] },
  { name: ['Jean Recto', 'Jeans Reto', 'Straight Jeans'], sku: 'PAN-JEA', price: 45000, categories: [2], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: ['38', '40', '42'] }, { name: ['Color', 'Cor', 'Colour'], values: ['Azul', 'Negro'] }] },
  { name: ['Bermuda de Gabardina', 'Bermuda de Gabardine', 'Gabardine Shorts'], sku: 'PAN-BER', price: 27000, categories: [2, 7], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: ['40', '42'] }] },
  { name: ['Zapatillas Urbanas', 'Tênis Urbano', 'City Sneakers'], sku: 'ZAP-URB', price: 68000, categories: [4], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: ['39', '40', '41', '42', '43'] }] },
  { name: ['Botas de Cuero', 'Botas de Couro', 'Leather Boots'], sku: 'ZAP-BOT', price: 95000, categories: [4], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: ['40', '41', '42'] }] },
  { name: ['Alpargatas', 'Alpercatas', 'Espadrilles'], sku: 'ZAP-ALP', price: 18000, categories: [4, 7], options: [{ name: ['Talle', 'Tamanho', 'Size'], values: ['38', '39', '40', '41'] }, { name: ['Color', 'Cor', 'Colour'], values: ['Negro', 'Azul'] }] },
  { name: ['Gorra Clásica', 'Boné Clássico', 'Classic Cap'], sku: 'GOR-CLA', price: 9500, categories: [5, 6], options: [{ name: ['', 'Cor', ''], values: ['Branco', 'Preto', 'Azul'], only: 'pt' }] },
  { name: ['Gorra Trucker', 'Boné Trucker', 'Trucker Cap'], sku: 'GOR-TRU', price: 11000, categories: [5, 6] },
  { name: ['Cinturón de Cuero', 'Cinto de Couro', 'Leather Belt'], sku: 'ACC-CIN', price: 16500, categories: [5] },
  { name: ['Medias x3', 'Meias x3', 'Socks (3 pairs)'], sku: 'ACC-MED', price: 6000, categories: [5], levelsUnreported: true },
  { name: ['Bufanda de Lana', 'Cachecol de Lã', 'Wool Scarf'], sku: 'ACC-BUF', price: 14000, categories: [5, 7], levelsUnreported: true },
  { name: ['Mochila Urbana', 'Mochila Urbana', 'City Backpack'], sku: 'ACC-MOC', price: 52000, categories: [5] },
  { name: ['Billetera', 'Carteira', 'Wallet'], sku: 'ACC-BIL', price: 21000, categories: [5], withoutSku: true },
  { name: ['Anteojos de Sol', 'Óculos de Sol', 'Sunglasses'], sku: 'ACC-ANT', price: 33000, categories: [5, 7] },
  { name: ['Tarjeta de Regalo', 'Cartão Presente', 'Gift Card'], sku: 'GIFT-CARD', price: 10000, categories: [] },
];


function localized(names: [string, string, string]): Localized {
  return { es: names[0], pt: names[1], en: names[2] };
}

function handleOf(names: [string, string, string]): Localized {
  return { es: slug(names[0]), pt: slug(names[1]), en: slug(names[2]) };
}

function combinations(values: string[][]): string[][] {
  return values.reduce<string[][]>((acc, list) => acc.flatMap((prefix) => list.map((v) => [...prefix, v])), [[]]);
}

function seedDemo(state: SandboxState, store: StoreData, kept?: DemoIds): void {
  const rnd = seededRandom(42);
  const now = state.storeNow();
  const limit = locationLimit(store.record.plan);
  state.mutate('sandbox.seed.catalog', (tx) => {
    const locations: LocationRecord[] = DEMO_LOCATIONS.slice(0, Math.min(limit, DEMO_LOCATIONS.length)).map((l, i) =>
      tx.put(store.locations, {
        id: kept?.locations.get(l.name) ?? ulid(now - 60 * DAY + i),
        name: { es_AR: l.name },
        address: { ...blankAddress({ code: 'AR', name: 'Argentina' }), street: l.street, number: l.number, city: l.city, zipcode: l.zipcode },
        is_default: i === 0,
        allows_pickup: l.pickup,
        priority: i,
        created_at: now - 60 * DAY,
        updated_at: now - 60 * DAY,
      }),
    );

    const categoryIds: number[] = [];
    for (const c of DEMO_CATEGORIES) {
      const id = tx.nextId(store, 'category');
      categoryIds.push(id);
      tx.put(store.categories, {
        id,
        name: localized(c.name),
        description: {},
        handle: handleOf(c.name),
        parent: c.parent === null ? null : categoryIds[c.parent]!,
        google_shopping_category: null,
        seo_title: null,
        seo_description: null,
        created_at: now - 60 * DAY,
        updated_at: now - 60 * DAY,
      } satisfies CategoryRecord);
    }

    const material = kept?.customFields.get('Material') ?? randomUUID();
    tx.put(store.customFields, {
      id: material,
      name: 'Material',
      description: 'Main material of the garment',
      value_type: 'text_list',
      read_only: false,
      values: ['Algodón', 'Lino', 'Cuero', 'Lana', 'Denim'],
      created_at: now - 50 * DAY,
      updated_at: now - 50 * DAY,
    });
    tx.put(store.customFields, {
      id: kept?.customFields.get('Temporada') ?? randomUUID(),
      name: 'Temporada',
      description: 'Season of the collection',
      value_type: 'text',
      read_only: false,
      values: [],
      created_at: now - 50 * DAY,
      updated_at: now - 50 * DAY,
    });
    const materialOf: Record<string, string> = {
      'CAM-OXF': 'Algodón',
      'CAM-LIN': 'Lino',
      'REM-BAS': 'Algodón',
      'PAN-JEA': 'Denim',
      'ZAP-BOT': 'Cuero',
      'ACC-CIN': 'Cuero',
      'ACC-BUF': 'Lana',
    };

    DEMO_PRODUCTS.forEach((p, index) => {
      const created = now - (45 - index) * DAY;
      const id = tx.nextId(store, 'product');
      const rows = p.options ? combinations(p.options.map((o) => o.values)) : [[]];
      const variants = rows.map((values, position): VariantRecord => {
        const levels: InventoryLevel[] = locations.map((l, i) => ({
          location_id: l.id,
          stock: Math.floor(rnd() * (i === 0 ? 30 : 12)),
        }));
        const mat = materialOf[p.sku];
        const total = levels.reduce((sum, l) => sum + l.stock, 0);
        const variantValues = values.map((v, i) => {
          const only = p.options![i]!.only;
          return only ? { [only]: v } : { es: v, pt: v, en: v };
        });
        return {
          ...variantRecord(tx.nextId(store, 'variant'), id, variantValues, created),
          sku: p.withoutSku ? null : values.length ? `${p.sku}-${values.map((v) => slug(v).toUpperCase()).join('-')}` : p.sku,
          price: p.price.toFixed(2),
          promotional_price: p.categories.includes(7) ? Math.round(p.price * 0.8).toFixed(2) : null,
          cost: Math.round(p.price * 0.45).toFixed(2),
          stock_management: p.sku !== 'GIFT-CARD',
          weight: '0.40',
          // An unreported split keeps the whole stock at the default location (see VariantRecord).
          inventory_levels: p.sku === 'GIFT-CARD' ? [] : p.levelsUnreported && locations[0] ? [{ location_id: locations[0].id, stock: total }] : levels,
          ...(p.levelsUnreported ? { levels_unreported: true } : {}),
          custom_fields: mat ? [{ id: material, value: mat }] : [],
          updated_at: created + position * 1000,
        };
      });
      const product: ProductRecord = {
        id,
        name: localized(p.name),
        description: { es: `${p.name[0]} de la colección demo.`, pt: `${p.name[1]} da coleção demo.`, en: `${p.name[2]} from the demo collection.` },
        handle: handleOf(p.name),
        attributes: (p.options ?? []).map((o) => (o.only ? { [o.only]: o.name[o.only === 'pt' ? 1 : 2] } : localized(o.name))),
        categories: p.categories.map((i) => categoryIds[i]!),
        images: [],
        variants,
        seo_title: null,
        seo_description: null,
        published: true,
        created_at: created,
        updated_at: created,
        // Every other product is sent with `+0000` timestamps, the platform's other offset form.
        ...(index % 2 === 1 ? { compact_offset: true } : {}),
      };
      const imageId = tx.nextId(store, 'image');
      product.images.push({
        id: imageId,
        product_id: id,
        src: `https://picsum.photos/seed/${slug(p.name[2])}/800/800`,
        position: 1,
        alt: [p.name[0]],
        created_at: created,
        updated_at: created,
      });
      tx.put(store.products, product);
    });
  });
  seedOrders(state, store.id);
}

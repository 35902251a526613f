import type { Category, Localized } from '../../api/categories.js';
import type { CustomField } from '../../api/custom-fields.js';
import type { Location } from '../../api/locations.js';
import type { Product } from '../../api/products.js';
import type { Variant } from '../../api/variants.js';
import { pickLocalized } from '../../api/read.js';
import type { StoreSnapshot } from './plan-model.js';
import { looseSku } from './sku-match.js';

/** The store's snapshot indexed for the planner: products by handle, variants by SKU, category paths, locations. */

export interface Indexes {
  main: string;
  multilingual: boolean;
  languages: string[];
  byHandle: Map<string, Product>;
  bySku: Map<string, { product: Product; variant: Variant }[]>;
  /** The store's SKUs by their whitespace- and normalisation-blind form (sku-match.ts): near misses, reported. */
  byLooseSku: Map<string, string[]>;
  categoryByPath: Map<string, number>;
  locationByKey: Map<string, Location>;
  defaultLocation?: Location;
  customByName: Map<string, CustomField>;
}

export function pathKey(levels: string[]): string {
  return levels.map((l) => l.trim().toLowerCase()).join(' > ');
}

/**
 * The text of a localized value in one language, as a `name:<lang>` column holds it: that language or its
 * locale form (`pt` ↔ `pt_BR`). The main language falls back to any language that has text (docs/platform.md
 * §0: an option named only in `en` on an `es` store is still named), so export writes it and import, reading
 * the same fallback, sees no change.
 */
export function textOf(value: Localized | null | undefined, lang: string, main: string): string {
  if (value === null || value === undefined) return '';
  if (lang === main) return pickLocalized(value, main);
  if (typeof value === 'string') return '';
  const exact = value[lang];
  if (exact) return exact;
  const language = lang.split(/[_-]/)[0]!.toLowerCase();
  return Object.entries(value).find(([key, text]) => text && key.split(/[_-]/)[0]!.toLowerCase() === language)?.[1] ?? '';
}

/** Every category's path of main-language names from the root. */
export function categoryPaths(categories: Category[], main: string): Map<number, string[]> {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const paths = new Map<number, string[]>();
  const pathOf = (c: Category, depth = 0): string[] => {
    const known = paths.get(c.id);
    if (known) return known;
    const parent = c.parent !== null && depth < 50 ? byId.get(c.parent) : undefined;
    const name = textOf(c.name, main, main) || firstText(c.name);
    const path = parent ? [...pathOf(parent, depth + 1), name] : [name];
    paths.set(c.id, path);
    return path;
  };
  for (const c of categories) pathOf(c);
  return paths;
}

export function firstText(value: Localized): string {
  return typeof value === 'string' ? value : (Object.values(value).find((t) => t) ?? '');
}

/** The name a location is known by in a `stock:<location>` header: its id or any of its names. */
export function locationKeys(location: Location): string[] {
  const names = typeof location.name === 'string' ? [location.name] : Object.values(location.name);
  return [location.id, ...names.filter((n): n is string => Boolean(n))].map((k) => k.trim().toLowerCase());
}

/**
 * What is wrong with the `stock:<location>` columns of `file` (headers as written after `stock:`): a name no
 * location has, a name two locations share (which one is meant cannot be told: each is named with its id), and
 * two columns for one location (by its name and its id, or names differing only in case: which value wins cannot
 * be told). `plainStock` is the header of a `stock` column when it stands for the default location (a sync feed's).
 */
export function locationColumnProblems(file: string, columns: string[], locations: Location[], plainStock?: string): string[] {
  const problems: string[] = [];
  const byKey = new Map<string, Location[]>();
  for (const location of locations) {
    for (const key of new Set(locationKeys(location))) byKey.set(key, [...(byKey.get(key) ?? []), location]);
  }
  const shown = (l: Location) => `"${firstText(l.name) || l.id}" (id ${l.id})`;
  const columnOf = new Map<string, string>();
  const defaultLocation = locations.find((l) => l.is_default) ?? locations[0];
  if (plainStock !== undefined && defaultLocation) columnOf.set(defaultLocation.id, plainStock);
  for (const location of columns) {
    const header = `stock:${location}`;
    const found = byKey.get(location.trim().toLowerCase()) ?? [];
    if (found.length === 0) {
      problems.push(`${file}: column "${header}" names no location of the store (use a location's name or id; see \`store locations list\`).`);
    } else if (found.length > 1) {
      problems.push(`${file}: column "${header}" names ${found.length} locations of the store, ${found.map(shown).join(' and ')}; name one by its id.`);
    } else {
      const other = columnOf.get(found[0]!.id);
      if (other !== undefined) {
        problems.push(`${file}: columns "${other}" and "${header}" both name the location ${shown(found[0]!)}; keep one.`);
      } else columnOf.set(found[0]!.id, header);
    }
  }
  return problems;
}

export function indexSnapshot(snapshot: StoreSnapshot): Indexes {
  const main = snapshot.store.main_language;
  const byHandle = new Map<string, Product>();
  const bySku = new Map<string, { product: Product; variant: Variant }[]>();
  const byLooseSku = new Map<string, string[]>();
  for (const product of snapshot.products) {
    const handles = typeof product.handle === 'string' ? [product.handle] : Object.values(product.handle ?? {});
    for (const h of handles) if (h) byHandle.set(h, product);
    for (const variant of product.variants) {
      if (!variant.sku) continue;
      const list = bySku.get(variant.sku) ?? [];
      list.push({ product, variant });
      bySku.set(variant.sku, list);
      byLooseSku.set(looseSku(variant.sku), [...(byLooseSku.get(looseSku(variant.sku)) ?? []), variant.sku]);
    }
  }
  const categoryByPath = new Map<string, number>();
  for (const [id, path] of categoryPaths(snapshot.categories, main)) {
    if (!categoryByPath.has(pathKey(path))) categoryByPath.set(pathKey(path), id);
  }
  const locationByKey = new Map<string, Location>();
  for (const location of snapshot.locations) for (const key of locationKeys(location)) locationByKey.set(key, location);
  const customByName = new Map(snapshot.customFields.map((f) => [f.name.trim().toLowerCase(), f]));
  return {
    main,
    multilingual: snapshot.store.languages.length > 1,
    languages: snapshot.store.languages,
    byHandle,
    bySku,
    byLooseSku,
    categoryByPath,
    locationByKey,
    defaultLocation: snapshot.locations.find((l) => l.is_default) ?? snapshot.locations[0],
    customByName,
  };
}

import { Args, Flags } from '@oclif/core';
import type { CategoryFields } from '../services/catalog/categories.js';
import type { LocationFields } from '../services/catalog/locations.js';
import type { ProductFields } from '../services/catalog/products.js';
import type { PriceStockFields, VariantFields } from '../services/catalog/variants.js';

/**
 * Flag definitions shared by the catalog commands (create and update take the same fields), and how their
 * values become the services' field objects, so the command files stay thin and the two verbs cannot drift apart.
 */

/** PRODUCT: how every command names a product (services/catalog/product-ref.ts). */
export const productRefArg = Args.string({ description: "Product id, handle, or a variant's SKU.", required: true });
/** CATEGORY: an id or a path like "Ropa > Buzos" (services/catalog/categories.ts `resolveCategory`). */
export const categoryRefArg = Args.string({ description: 'Category id, or its name path ("Ropa > Buzos"; "Buzos" when only one is so named).', required: true });
export const locationArg = Args.string({ description: 'Location id or name.', required: true });

/** PRODUCT VARIANT_ID of the commands on one variant. */
export const variantArgs = {
  product: productRefArg,
  variant_id: Args.string({ description: 'Variant id.', required: true }),
};

/** SKU, or PRODUCT VARIANT_ID: how `variants get|update|delete` name a variant (services/catalog/variants.ts `variantTarget`). */
export const variantRefArgs = {
  product_or_sku: Args.string({ description: "The variant's SKU alone, or its product (id, handle or SKU) followed by VARIANT_ID.", required: true }),
  variant_id: Args.string({ description: 'Variant id (left out when the first argument is a SKU).' }),
};

export function localizedFlag(what: string, required = false) {
  return Flags.string({
    description: `${what}; on a multilingual store LANG=TEXT, repeatable (a plain value goes to the main language).`,
    multiple: true,
    multipleNonGreedy: true,
    required,
  });
}

/** The flags of a category's texts besides its name, description and handle. */
export const categorySeoFlags = {
  'google-shopping-category': Flags.string({ description: 'Google Shopping category path.' }),
  'seo-title': Flags.string({ description: 'SEO title.' }),
  'seo-description': Flags.string({ description: 'SEO description.' }),
};

type CategoryFlagValues = { name?: string[]; description?: string[]; handle?: string[]; parent?: string } & {
  [K in keyof typeof categorySeoFlags]?: string;
};

export function categoryFieldsFrom(flags: CategoryFlagValues): CategoryFields {
  return {
    name: flags.name,
    description: flags.description,
    handle: flags.handle,
    parent: flags.parent,
    googleShoppingCategory: flags['google-shopping-category'],
    seoTitle: flags['seo-title'],
    seoDescription: flags['seo-description'],
  };
}

/** Location names are keyed by locale (es_AR, pt_BR); a bare language picks the name's locale of it. */
export function locationNameFlag(required = false) {
  return Flags.string({
    description: 'Name; a plain value is the main language, LANG=TEXT or LOCALE=TEXT (pt=…, pt_BR=…) another one; repeatable.',
    multiple: true,
    multipleNonGreedy: true,
    required,
  });
}

/** The flag of a location's priority, shared by `locations create` and `update`. */
export const priorityFlag = Flags.string({
  description: 'Priority in which orders take stock from this location: a whole number, 0 first (`locations reorder` renumbers all).',
});

export const addressFlags = {
  street: Flags.string({ description: 'Street of the address.' }),
  number: Flags.string({ description: 'Street number.' }),
  floor: Flags.string({ description: 'Floor or apartment.' }),
  locality: Flags.string({ description: 'Locality or neighbourhood.' }),
  city: Flags.string({ description: 'City.' }),
  zipcode: Flags.string({ description: 'Postal code.' }),
  province: Flags.string({ description: 'Province: a code (BA) or a name.' }),
  country: Flags.string({ description: 'Country: a code (AR) or a name.' }),
  region: Flags.string({ description: 'Region of the address: a code (NOA), a name (Noroeste) or both as CODE=NAME (NOA=Noroeste).' }),
  reference: Flags.string({ description: 'Reference for finding the place.' }),
  'between-streets': Flags.string({ description: 'Cross streets.' }),
};

type AddressFlagValues = { [K in keyof typeof addressFlags]?: string };

export function addressFieldsFrom(flags: AddressFlagValues): LocationFields {
  return {
    street: flags.street,
    number: flags.number,
    floor: flags.floor,
    locality: flags.locality,
    city: flags.city,
    zipcode: flags.zipcode,
    province: flags.province,
    country: flags.country,
    region: flags.region,
    reference: flags.reference,
    betweenStreets: flags['between-streets'],
  };
}

/** Money and stock flags of products and variants; values are checked by the services (exit 2 naming the flag). */
export const priceStockFlags = {
  price: Flags.string({ description: 'Price, a decimal with "." or "," (e.g. 19.90).' }),
  'promotional-price': Flags.string({ description: 'Promotional price, a decimal ("none" removes it on variants).' }),
  cost: Flags.string({ description: 'Cost, a decimal.' }),
  sku: Flags.string({ description: 'SKU code.' }),
  stock: Flags.string({ description: 'Stock at the default location, a whole number (0 or more).' }),
  'stock-at': Flags.string({
    description: 'Stock at one location, LOCATION=N with the location by name or id; repeatable.',
    multiple: true,
    multipleNonGreedy: true,
  }),
  weight: Flags.string({ description: 'Weight in kg, a decimal.' }),
};

export const variantOnlyFlags = {
  width: Flags.string({ description: 'Width in cm, a decimal.' }),
  height: Flags.string({ description: 'Height in cm, a decimal.' }),
  depth: Flags.string({ description: 'Depth in cm, a decimal.' }),
  mpn: Flags.string({ description: 'Manufacturer part number.' }),
  barcode: Flags.string({ description: 'Barcode (GTIN, EAN, UPC or ISBN): letters, digits and "-".' }),
  'image-id': Flags.string({ description: "Id of one of the product's images to show for this variant (\"none\" removes it)." }),
  'age-group': Flags.string({ description: 'Age group: newborn, infant, toddler, kids or adult.' }),
  gender: Flags.string({ description: 'Gender: female, male or unisex.' }),
  'stock-management': Flags.boolean({
    description: 'Track stock (--no-stock-management: unlimited stock).',
    allowNo: true,
  }),
};

type PriceStockFlagValues = { [K in keyof typeof priceStockFlags]?: K extends 'stock-at' ? string[] : string };

/** The money, SKU, stock and weight flags, as products and variants take them alike. */
function priceStockFieldsFrom(flags: PriceStockFlagValues): PriceStockFields {
  return {
    price: flags.price,
    promotionalPrice: flags['promotional-price'],
    cost: flags.cost,
    sku: flags.sku,
    stock: flags.stock,
    stockAt: flags['stock-at'],
    weight: flags.weight,
  };
}

type ProductFlagValues = PriceStockFlagValues & {
  name?: string[];
  description?: string[];
  handle?: string[];
  category?: string[];
  published?: boolean;
  image?: string[];
};

export function productFieldsFrom(flags: ProductFlagValues): ProductFields {
  return {
    name: flags.name,
    description: flags.description,
    handle: flags.handle,
    categories: flags.category,
    ...priceStockFieldsFrom(flags),
    published: flags.published,
    images: flags.image,
  };
}

type VariantFlagValues = PriceStockFlagValues & {
  width?: string;
  height?: string;
  depth?: string;
  mpn?: string;
  barcode?: string;
  'image-id'?: string;
  'age-group'?: string;
  gender?: string;
  'stock-management'?: boolean;
};

export function variantFieldsFrom(flags: VariantFlagValues): VariantFields {
  return {
    ...priceStockFieldsFrom(flags),
    width: flags.width,
    height: flags.height,
    depth: flags.depth,
    mpn: flags.mpn,
    barcode: flags.barcode,
    imageId: flags['image-id'],
    ageGroup: flags['age-group'],
    gender: flags.gender,
    stockManagement: flags['stock-management'],
  };
}


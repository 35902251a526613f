import type { CustomFieldType } from '../platform/custom-fields.js';

/** The records of the sandbox's state, as the journal stores them (plain JSON: no Maps, Dates or undefined-only fields). */

export type Key = number | string;
export type Localized = Record<string, string>;

export interface StoreRecord {
  id: number;
  name: string;
  plan: string;
  languages: string[];
  main_language: string;
  currency: string;
  country: string;
  created_at: number;
}

export interface AppRecord {
  client_id: string;
  client_secret: string;
  name: string;
  redirect_url: string;
  scopes: string[];
}

export interface TokenRecord {
  token: string;
  store_id: number;
  app_id: string;
  scopes: string[];
  created_at: number;
}

export interface CodeRecord {
  code: string;
  store_id: number;
  app_id: string;
  scopes: string[];
  expires_at: number;
}

export interface Address {
  zipcode: string;
  street: string;
  number: string;
  floor: string;
  locality: string;
  city: string;
  province: { code: string; name: string };
  region: { code: string; name: string };
  country: { code: string; name: string };
  reference: string;
  between_streets: string;
}

export interface LocationRecord {
  id: string;
  name: Localized;
  address: Address;
  is_default: boolean;
  allows_pickup: boolean;
  priority: number;
  created_at: number;
  updated_at: number;
}

export interface CategoryRecord {
  id: number;
  name: Localized;
  description: Localized;
  handle: Localized;
  parent: number | null;
  google_shopping_category: string | null;
  seo_title: string | null;
  seo_description: string | null;
  created_at: number;
  updated_at: number;
}

export interface InventoryLevel {
  location_id: string;
  stock: number;
}

export interface VariantRecord {
  id: number;
  product_id: number;
  image_id: number | null;
  sku: string | null;
  /** Money as decimal strings ("25.00"). */
  price: string | null;
  promotional_price: string | null;
  cost: string | null;
  stock_management: boolean;
  weight: string | null;
  width: string | null;
  height: string | null;
  depth: string | null;
  mpn: string | null;
  age_group: string | null;
  gender: string | null;
  /** GTIN/EAN; absent on records written before the sandbox kept it. */
  barcode?: string | null;
  values: Localized[];
  inventory_levels: InventoryLevel[];
  /**
   * The store does not report how this variant's stock is split between locations (docs/platform.md §3): responses
   * omit `inventory_levels`, and the whole stock sits at the default location, so `stock` alone reads and sets
   * it. Cleared once a request sends `inventory_levels`.
   */
  levels_unreported?: boolean;
  custom_fields: { id: string; value: string }[];
  created_at: number;
  updated_at: number;
}

export interface ImageRecord {
  id: number;
  product_id: number;
  src: string;
  position: number;
  /** Alternative texts, one per language (the platform sends an array). */
  alt?: string[];
  /** Absent on records written before the sandbox kept them: the product's are shown. */
  created_at?: number;
  updated_at?: number;
}

export interface ProductRecord {
  id: number;
  name: Localized;
  description: Localized;
  handle: Localized;
  /** Option names, fixed by the first variant posted with attributes; empty for a product without variation. */
  attributes: Localized[];
  categories: number[];
  images: ImageRecord[];
  variants: VariantRecord[];
  seo_title: string | null;
  seo_description: string | null;
  published: boolean;
  created_at: number;
  updated_at: number;
  /**
   * Timestamps of this product, its variants and images are sent with the `+0000` offset form
   * (`2022-02-23T12:25:18+0000`), as the platform's product records show them; the others use `+00:00`.
   */
  compact_offset?: boolean;
}


export interface CustomFieldRecord {
  id: string;
  name: string;
  description: string | null;
  value_type: CustomFieldType;
  read_only: boolean;
  values: string[];
  created_at: number;
  updated_at: number;
}

/**
 * Records owned by the orders module: the state stores them as given (plain JSON with an `id`).
 * Their shapes are defined in the orders engineer's route modules.
 */
export interface OwnedRecord {
  id: Key;
  [field: string]: unknown;
}

export interface WebhookRecord {
  id: number;
  /** The app that registered it: deliveries are signed with that app's client secret. */
  app_id: string;
  event: string;
  url: string;
  headers: Record<string, string>;
  created_at: number;
  updated_at: number;
}

/** Limits of the platform's catalog (docs/platform.md §3, §8): options, variants and images per product, variants per batch. */

/** A product has at most this many options (attributes); every variant gives one value per option. */
export const MAX_OPTIONS = 3;
export const MAX_VARIANTS = 1000;
/** A product holds at most this many images (docs/platform.md §8; a create should carry at most 9 of them). */
export const MAX_IMAGES = 250;
/** PATCH /products/stock-price takes at most this many variants in all, across products (docs/platform.md §8). */
export const MAX_STOCK_PRICE_VARIANTS = 50;

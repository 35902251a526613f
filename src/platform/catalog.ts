/** Limits of the platform's catalog (docs/platform.md §3): options per product, variants per product. */

/** A product has at most this many options (attributes); every variant gives one value per option. */
export const MAX_OPTIONS = 3;
export const MAX_VARIANTS = 1000;
/** A product holds at most this many images (docs/platform.md §8; a create should carry at most 9 of them). */
export const MAX_IMAGES = 250;

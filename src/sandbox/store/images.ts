import { IMAGE_TYPES, MAX_IMAGE_BYTES, type ImageType, cdnFileName, imageFileName, imageType } from '../../platform/images.js';
import { invalid } from '../http.js';
import type { ProductRecord } from '../records.js';

/**
 * What the platform does with an image it is given (docs/platform.md §12): a URL (`src`) or a file sent as base64
 * `attachment` with its `filename` (under 10 MB, gif/jpg/png/webp); either way it keeps the image under its own
 * CDN URL named after the file (`http://example.com/charmander.jpg` → `…/products/charmander-640-0.jpg`), never
 * the URL it was given.
 */

/** The sandbox's CDN: where stored images appear to live. */
export const CDN_BASE = 'https://cdn.sandbox.invalid/stores';

/** An image request's body (POST /products/{id}/images; inside POST /products only `src`). */
export interface ImageUpload {
  src?: string;
  attachment?: string;
  filename?: string;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An image's `src` must be an http(s) URL the platform can download. */
export function checkImageSource(src: string, field = 'src'): void {
  if (!isHttpUrl(src)) throw invalid(field, 'must be an http(s) URL');
}

/** The name an upload is stored under, checked: a URL's file name, or an attachment's `filename` and its type. */
export function checkImageUpload(body: ImageUpload): { name: string; type?: ImageType } {
  if (body.attachment !== undefined) {
    if (body.src !== undefined) throw invalid('src', 'give src or attachment, not both');
    if (!body.filename) throw invalid('filename', 'is required with attachment');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body.attachment.replace(/\s/g, ''))) throw invalid('attachment', 'must be base64');
    const bytes = Buffer.from(body.attachment, 'base64');
    if (bytes.length === 0) throw invalid('attachment', 'is empty');
    if (bytes.length >= MAX_IMAGE_BYTES) throw invalid('attachment', 'must be a file under 10 MB');
    const type = imageType(bytes.subarray(0, 12));
    if (!type) throw invalid('attachment', `must be an image (${IMAGE_TYPES.join(', ')})`);
    return { name: body.filename, type };
  }
  if (body.src === undefined) throw invalid('src', 'is required (or attachment and filename)');
  checkImageSource(body.src);
  return { name: imageFileName(body.src) };
}

/** The CDN URL a new image of `product` named `name` gets: same-named images are numbered. */
export function cdnUrl(storeId: number, product: ProductRecord, name: string, type?: ImageType): string {
  const base = `${CDN_BASE}/${storeId}/products/`;
  for (let n = 0; ; n++) {
    const src = base + cdnFileName(name, n, type);
    if (!product.images.some((i) => i.src === src)) return src;
  }
}

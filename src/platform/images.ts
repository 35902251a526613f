import { slug } from './slug.js';

/**
 * Product images as the platform takes and keeps them (docs/platform.md §12): a URL to download or a file sent
 * as base64 `attachment` with its `filename`, under 10 MB, gif/jpg/png/webp; stored under the platform's own CDN
 * URL named after the file (`http://example.com/charmander.jpg` → `…/products/charmander-640-0.jpg`). The sandbox
 * names what it stores with these functions and the importer matches images with them (docs/decisions.md).
 */

/** "Files under 10 MB": checked before the first request, by the file's size in bytes. */
export const MAX_IMAGE_BYTES = 10 * 1000 * 1000;

export const IMAGE_TYPES = ['gif', 'jpg', 'png', 'webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The type of an image by its first bytes (12 are enough), never by its name. */
export function imageType(head: Uint8Array): ImageType | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)) return 'png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/** The file name an image source ends in: the last segment of a URL's path, or of a file path. */
export function imageFileName(source: string): string {
  let path = source;
  try {
    path = decodeURIComponent(new URL(source).pathname);
  } catch {
    // Not a URL: a file path or a bare name.
  }
  return path.split(/[\\/]/).pop() ?? '';
}

function splitName(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? { stem: name.slice(0, dot), ext: name.slice(dot + 1).toLowerCase() } : { stem: name, ext: '' };
}

/** An image source's identity as a name: its file name without extension, as a slug ("Foto Frente.JPG" → "foto-frente"). */
export function imageStem(source: string): string {
  return slug(splitName(imageFileName(source)).stem);
}

/**
 * The stems a stored image may have been named from: its own, and without the CDN's `-<width>-<n>` suffix
 * (`charmander-640-0` was `charmander`).
 */
export function storedStems(src: string): string[] {
  const stem = imageStem(src);
  const original = stem.replace(/-\d+-\d+$/, '');
  return original !== stem && original !== '' ? [stem, original] : [stem];
}

/** The CDN file name the platform gives an image named `name`: `<stem>-640-<n>.<ext>` (n counts same-named images). */
export function cdnFileName(name: string, n: number, type?: ImageType): string {
  const { stem, ext } = splitName(name);
  return `${slug(stem) || 'image'}-640-${n}.${type ?? (ext || 'jpg')}`;
}

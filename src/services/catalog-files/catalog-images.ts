import { MAX_IMAGES } from '../../platform/catalog.js';
import { readImageSource } from '../common/image-files.js';
import type { ImageSpec } from './catalog-model.js';
import type { Column } from './dialects.js';
import type { RowState } from './catalog-rows.js';

/**
 * The image cells of a catalog row (docs/csv.md "Images"): `images` lists URLs or local files (relative to the
 * file, or --images-dir), each checked now — a file must exist, be under 10 MB and be a gif, jpg, png or webp —
 * so that a bad one stops the import before its first request. `image_alt` and `image_position` give, in the
 * same order and separated the same way, the alt text and position of the images listed on the same row.
 */

/** An image cell's sources, checked; undefined when one is bad (the row's problem says which). */
export function readImageCell(row: RowState, column: Column, value: string, base: string): ImageSpec[] | undefined {
  const images: ImageSpec[] = [];
  let ok = true;
  for (const text of value.split('|').map((u) => u.trim()).filter(Boolean)) {
    const source = readImageSource(text, base);
    if ('error' in source) {
      row.at(column, source.error);
      ok = false;
    } else images.push(source);
  }
  return ok ? images : undefined;
}

/** The row's `image_alt` and `image_position` cells onto the images its image cell gave. */
export function settleImageDetails(row: RowState): void {
  const { imageAlts, imagePositions, images } = row;
  for (const given of [imageAlts, imagePositions]) {
    if (given && !images) row.at(given.column, 'no images are listed on this row; give the images and their alt texts and positions on the same row');
  }
  if (!images) return;
  if (imageAlts) {
    const alts = imageAlts.value.split('|').map((a) => a.trim());
    if (alts.length !== images.length) row.at(imageAlts.column, countMismatch(alts.length, images.length, 'alt texts'));
    else alts.forEach((alt, i) => alt !== '' && (images[i]!.alt = alt));
  }
  if (imagePositions) {
    const positions = imagePositions.value.split('|').map((p) => p.trim());
    if (positions.length !== images.length) return row.at(imagePositions.column, countMismatch(positions.length, images.length, 'positions'));
    positions.forEach((text, i) => {
      if (text === '') return;
      const n = Number(text);
      if (!/^\d+$/.test(text) || n < 1 || n > MAX_IMAGES) row.at(imagePositions.column, `image position "${text}" is not a whole number from 1 to ${MAX_IMAGES}`);
      else images[i]!.position = n;
    });
  }
}

function countMismatch(given: number, images: number, what: string): string {
  return `${given} ${what} for ${images} ${images === 1 ? 'image' : 'images'}; give one per image, separated by "|" (blank for none)`;
}

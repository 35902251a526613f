import { imageStem, storedStems } from '../../platform/images.js';
import type { ImageSpec } from './catalog-model.js';

/**
 * Which of a file's images a product already has (docs/decisions.md, "Image identity"). The platform keeps its
 * own copy of every image under a CDN URL named after the file (docs/platform.md §12), so the URL sent never
 * comes back: an image is known by its file name's stem, which the CDN URL keeps (`…/charmander.jpg` is stored as
 * `…/charmander-640-0.jpg`). A stored image whose `src` is exactly the one given (a store that keeps URLs, or a
 * file written by `products export`) is the same image too. Each stored image stands for one image of the file:
 * two files named alike are two images.
 */
export function missingImages(wanted: readonly ImageSpec[], stored: readonly { src?: string | null }[]): ImageSpec[] {
  const pool = stored.map((i) => ({ src: i.src ?? '', stems: i.src ? storedStems(i.src) : [], used: false }));
  const found = new Array<boolean>(wanted.length).fill(false);
  // The exact URL first, so that a stem never takes the stored image another image of the file is exactly.
  wanted.forEach((image, i) => {
    const same = pool.find((p) => !p.used && !image.file && p.src === image.src);
    if (same) found[i] = same.used = true;
  });
  wanted.forEach((image, i) => {
    if (found[i]) return;
    const stem = imageStem(image.file ?? image.src);
    const same = stem ? pool.find((p) => !p.used && p.stems.includes(stem)) : undefined;
    if (same) found[i] = same.used = true;
  });
  return wanted.filter((_, i) => !found[i]);
}

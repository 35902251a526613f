import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { ImageInput } from '../../api/products.js';
import { IMAGE_TYPES, MAX_IMAGE_BYTES, imageType } from '../../platform/images.js';

/**
 * An image given as a URL or a local file (a catalog's image cell, `products images add`): checked before the
 * first request — a file must exist, be under the platform's 10 MB and be a gif, jpg, png or webp by its
 * content (docs/platform.md §12) — and sent as `src` or as base64 `attachment` with its file name.
 */

export interface ImageSource {
  /** As written: a URL, or a path. */
  src: string;
  /** A local file's absolute path. */
  file?: string;
}

/** A source that looks like a URL of another scheme (`ftp:`, `data:`), not a file name (a Windows drive is one letter). */
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]+:/i;

/**
 * Reads an image source: an http(s) URL as it is, anything else as a file path relative to `base`. Returns why it
 * cannot be sent, as the end of a sentence that starts with where it was given.
 */
export function readImageSource(text: string, base: string): ImageSource | { error: string } {
  if (/^https?:\/\//i.test(text)) {
    return /^https?:\/\/[^\s]+$/i.test(text) ? { src: text } : { error: `"${text}" is not a URL (no spaces in a URL; write them as %20)` };
  }
  if (OTHER_SCHEME.test(text)) return { error: `"${text}" is not an http(s) URL, nor a file` };
  const file = resolve(base, text);
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return { error: `"${text}" is not a file (${file})` };
    size = stat.size;
  } catch {
    return { error: `image file "${text}" not found (looked for ${file})` };
  }
  if (size >= MAX_IMAGE_BYTES) return { error: `image file "${text}" is ${(size / 1e6).toFixed(1)} MB; the store takes files under 10 MB` };
  const head = Buffer.alloc(12);
  try {
    const fd = openSync(file, 'r');
    try {
      readSync(fd, head, 0, 12, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { error: `image file "${text}" cannot be read: ${(error as Error).message}` };
  }
  if (!imageType(head)) return { error: `image file "${text}" is not a ${IMAGE_TYPES.join(', ')} image (by its content)` };
  return { src: text, file };
}

/** The request body of an image: its URL, or its file's bytes as base64 with the file's name. */
export async function imageInput(source: ImageSource, extra: Pick<ImageInput, 'position' | 'alt'> = {}): Promise<ImageInput> {
  if (!source.file) return { src: source.src, ...extra };
  return { attachment: (await readFile(source.file)).toString('base64'), filename: basename(source.file), ...extra };
}

/** What the ledger keeps of an image sent: never a file's bytes. */
export function imageRecord(source: ImageSource): { src: string } | { filename: string; file: string } {
  return source.file ? { filename: basename(source.file), file: source.file } : { src: source.src };
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { intParam, notFound, parseBody } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { ImageRecord, ProductRecord } from '../records.js';
import { checkImageUpload, cdnUrl } from '../store/images.js';
import { getProduct } from '../store/products.js';
import { presentImage } from './products.js';

/**
 * One image of a product (the platform's Product Image resource, docs/platform.md §3, §12): read it, and change its
 * `src`, `position` or `alt`. A new `src` is kept as the platform keeps any image, under the store's CDN named after
 * the file (store/images.ts), never as the URL given. The list, the upload and the delete are in products.ts.
 */

const ImageChangeBody = z.object({
  src: z.string({ error: 'must be a string' }).optional(),
  position: z.number({ error: 'must be a whole number' }).int().min(1).optional(),
  alt: z.union([z.array(z.string()), z.string()]).optional(),
});

function getImage(product: ProductRecord, idText: string | undefined): ImageRecord {
  const id = intParam(idText, 'Image');
  const image = product.images.find((i) => i.id === id);
  if (!image) throw notFound('Image', id);
  return image;
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  type Params = { product_id: string; image_id: string };

  api.get('/products/:product_id/images/:image_id', async (req) => {
    const params = req.params as Params;
    const product = getProduct(req.store, params.product_id);
    return presentImage(getImage(product, params.image_id), product);
  });

  api.put('/products/:product_id/images/:image_id', async (req) => {
    const store = req.store;
    const params = req.params as Params;
    const product = getProduct(store, params.product_id);
    const image = getImage(product, params.image_id);
    const body = parseBody(ImageChangeBody, req.body);
    const upload = body.src === undefined ? undefined : checkImageUpload({ src: body.src });
    ctx.state.mutate('product.image.update', (tx) => {
      const now = tx.now();
      if (upload && body.src !== image.src) image.src = cdnUrl(store.id, product, upload.name, upload.type);
      if (body.alt !== undefined) image.alt = Array.isArray(body.alt) ? body.alt : [body.alt];
      if (body.position !== undefined) {
        const others = product.images.filter((i) => i !== image);
        others.splice(Math.min(body.position, others.length + 1) - 1, 0, image);
        product.images = others;
        product.images.forEach((img, i) => (img.position = i + 1));
      }
      image.updated_at = now;
      product.updated_at = now;
      tx.put(store.products, product);
    });
    ctx.emit('product/updated', store.id, product.id);
    return presentImage(image, product);
  });
}

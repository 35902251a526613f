import { Args } from '@oclif/core';
import type { ProductImage } from '../../../api/products.js';
import { BaseCommand } from '../../../cli/base-command.js';
import { productRefArg } from '../../../flags/catalog.js';
import { csvFlag } from '../../../flags/common.js';
import { jsonFields } from '../../../api/json-fields.js';

export default class ProductsImagesAdd extends BaseCommand<typeof ProductsImagesAdd> {
  static summary = 'Add images to a product from their URLs or from files.';
  static description = `Images are added in the order given, after the product's current images. An image is an http(s) URL (the store downloads it) or a local file, relative to the working directory, sent as its content (a gif, jpg, png or webp under 10 MB). Every one is checked before the first is sent; if the store refuses one after others were added, the command says which were added and exits 3.`;

  static examples = [
    '<%= config.bin %> products images add 1234 https://example.com/front.jpg https://example.com/back.jpg',
    '<%= config.bin %> products images add 1234 https://example.com/front.jpg --json',
    '<%= config.bin %> products images add 1234 ./fotos/frente.jpg',
  ];

  static strict = false;
  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.productImage;

  static args = {
    product: productRefArg,
    url: Args.string({ description: 'Images, one or more: http(s) URLs or local files (gif, jpg, png, webp).', required: true }),
  };

  static flags = {
    csv: csvFlag,
  };

  async run(): Promise<ProductImage[]> {
    const { argv } = await this.parse(ProductsImagesAdd);
    const urls = (argv as string[]).slice(1);
    const client = await this.client();
    const { addImages } = await import('../../../services/catalog/products.js');
    const { onProduct } = await import('../../../services/catalog/product-ref.js');
    const { imageColumns } = await import('../../../views/products.js');
    const recorder = await this.recorder();
    const images = await onProduct(client, this.args.product, (productId) => addImages(client, recorder, productId, urls));
    await this.renderList(images, imageColumns, { csv: this.flags.csv });
    return images;
  }
}

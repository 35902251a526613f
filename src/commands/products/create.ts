import { Flags } from '@oclif/core';
import type { Product } from '../../api/products.js';
import { BaseCommand } from '../../cli/base-command.js';
import { localizedFlag, priceStockFlags, productFieldsFrom } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class ProductsCreate extends BaseCommand<typeof ProductsCreate> {
  static summary = 'Create a product.';
  static description = `With --price, --sku or stock flags the product has no variation: one variant holds them. Without them the product waits for variants (\`store variants create PRODUCT --option Size=M …\`). Prices are decimals with "." or "," (19.90 or 19,90); stock is a whole number, per location with --stock-at LOCATION=N (location by name or id) or at the default location with --stock N. Categories are ids or paths ("Ropa > Camisas"). Images (--image URL or a local gif, jpg, png or webp file) are checked first and added after the product is created, in the order given. On a multilingual store give texts per language (--name es=Camisa --name pt=Camisa); a plain value goes to the main language.`;

  static examples = [
    '<%= config.bin %> products create --name "Gorra" --price 4500 --sku GOR-001 --stock 20',
    '<%= config.bin %> products create --name es=Camisa --name pt=Camisa --category "Ropa > Camisas"',
    '<%= config.bin %> products create --name Taza --price 12,50 --stock-at "Depósito Central=10" --stock-at "Local Palermo=3" --image https://example.com/taza.jpg --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.product;

  static flags = {
    name: localizedFlag('Name', true),
    description: localizedFlag('Description'),
    handle: localizedFlag('URL handle (generated from the name when omitted; unique in the store)'),
    category: Flags.string({ description: 'Category id or path ("Ropa > Camisas"); repeatable.', multiple: true, multipleNonGreedy: true }),
    ...priceStockFlags,
    image: Flags.string({ description: 'Image to add after creation: an http(s) URL or a local file (gif, jpg, png, webp under 10 MB); repeatable.', multiple: true, multipleNonGreedy: true }),
    published: Flags.boolean({ description: 'Show the product in the store (--no-published hides it).', allowNo: true }),
  };

  async run(): Promise<Product> {
    const client = await this.client();
    const { createProductFrom } = await import('../../services/catalog/products.js');
    const product = await createProductFrom(client, await this.recorder(), productFieldsFrom(this.flags));
    const { productFields, productSections } = await import('../../views/products.js');
    await this.renderDetail(productFields(product), productSections(product));
    return product;
  }
}

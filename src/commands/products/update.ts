import { Flags } from '@oclif/core';
import type { Product } from '../../api/products.js';
import { BaseCommand } from '../../cli/base-command.js';
import { localizedFlag, priceStockFlags, productFieldsFrom, productRefArg } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class ProductsUpdate extends BaseCommand<typeof ProductsUpdate> {
  static summary = 'Change a product: texts, categories, or the price and stock of a product without variation.';
  static description = `Only the fields given change; on a multilingual store the languages not given keep their text. Price, SKU and stock flags apply to a product without variation (its one variant); a product with options refuses them: use \`store variants update\` for each variant. --category replaces the product's categories. PRODUCT is its id, handle or a variant's SKU. The product is read first (one GET, or the one lookup of the handle or SKU), so the run ledger (docs/ledger.md) keeps the values the update replaces.`;

  static examples = [
    '<%= config.bin %> products update 1234 --price 5200',
    '<%= config.bin %> products update gorra-lisa --name pt="Boné" --category Accesorios',
    '<%= config.bin %> products update 1234 --stock-at "Local Palermo=8" --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.product;

  static args = {
    product: productRefArg,
  };

  static flags = {
    name: localizedFlag('Name'),
    description: localizedFlag('Description'),
    handle: localizedFlag('URL handle (unique in the store)'),
    category: Flags.string({
      description: 'Category id or path; repeatable; replaces the current categories ("none" removes them all).',
      multiple: true, multipleNonGreedy: true,
    }),
    ...priceStockFlags,
    published: Flags.boolean({ description: 'Show the product in the store (--no-published hides it).', allowNo: true }),
  };

  async run(): Promise<Product> {
    const client = await this.client();
    const { updateProductWithChanges } = await import('../../services/catalog/products.js');
    const { product, variant } = await updateProductWithChanges(client, await this.recorder(), this.args.product, productFieldsFrom(this.flags));
    const { productFields, productSections } = await import('../../views/products.js');
    const { changedVariantFields } = await import('../../views/variants.js');
    // A product without options: its price, SKU and stock changes said old → new, stock per location.
    const changed = variant ? changedVariantFields(variant) : [];
    await this.renderDetail([...productFields(product), ...changed.map(([label, value]): [string, unknown] => [label === 'Stock' ? 'Stock (total)' : label, value])], productSections(product));
    return product;
  }
}

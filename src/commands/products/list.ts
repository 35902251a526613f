import { Flags } from '@oclif/core';
import type { Product } from '../../api/products.js';
import { csvFlag, pagingFlags } from '../../flags/common.js';
import { PagedListCommand } from '../../cli/paged-list.js';

export default class ProductsList extends PagedListCommand<typeof ProductsList> {
  static summary = 'List products (one page, or --all).';
  static examples = [
    '<%= config.bin %> products list',
    '<%= config.bin %> products list --limit 100',
    '<%= config.bin %> products list --page 2 --per-page 50',
    '<%= config.bin %> products list --sku CAM-001-M',
    '<%= config.bin %> products list --q camisa',
    '<%= config.bin %> products list --category "Ropa > Camisas"',
    '<%= config.bin %> products list --all --csv > products.csv',
  ];

  static enableJsonFlag = true;
  static baseFlags = PagedListCommand.recordFlags;

  static flags = {
    ...pagingFlags('product'),
    handle: Flags.string({ description: 'Only the product with this handle.' }),
    sku: Flags.string({ description: 'Only the product that has a variant with this SKU (one lookup, GET /products/sku/{sku}); its row shows that variant\'s SKU, price and stock.' }),
    q: Flags.string({ description: "Search the products' name, description and SKU for this text (the store's own search)." }),
    category: Flags.string({ description: 'Only products in this category: an id or a path like "Ropa > Camisas".' }),
    csv: csvFlag,
  };

  async run(): Promise<Product[]> {
    const paging = await this.pagingOf(this.flags, 'product');
    const client = await this.client();
    const { productPagesFor } = await import('../../services/catalog/products.js');
    const pages = productPagesFor(client, { handle: this.flags.handle, q: this.flags.q, sku: this.flags.sku, category: this.flags.category }, paging);
    const { productColumnsFor } = await import('../../views/products.js');
    return this.printPages(pages, productColumnsFor(this.flags.sku), { paging, one: 'product', csv: this.flags.csv });
  }
}

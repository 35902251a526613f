import { Flags } from '@oclif/core';
import { plural } from '../../output/format.js';
import { DEFAULT_PER_PAGE } from '../../platform/pagination.js';
import type { Product } from '../../api/products.js';
import { BaseCommand } from '../../base-command.js';
import { csvFlag } from '../../flags/common.js';


export default class ProductsList extends BaseCommand<typeof ProductsList> {
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
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    limit: Flags.integer({ description: 'Show at most this many products, from the first page on.', min: 1, exclusive: ['all', 'page', 'per-page'] }),
    page: Flags.integer({ description: 'Show this page only (from 1; default: the first 30 products).', min: 1, exclusive: ['all'] }),
    'per-page': Flags.integer({ description: 'Products per page with --page (1-200, default 30).', min: 1, max: 200, dependsOn: ['page'] }),
    all: Flags.boolean({ description: 'Fetch every page (200 per request).' }),
    handle: Flags.string({ description: 'Only the product with this handle.' }),
    sku: Flags.string({ description: 'Only the product that has a variant with this SKU (one lookup, GET /products/sku/{sku}).' }),
    q: Flags.string({ description: "Search the products' name, description and SKU for this text (the store's own search)." }),
    category: Flags.string({ description: 'Only products in this category: an id or a path like "Ropa > Camisas".' }),
    csv: csvFlag,
  };

  async run(): Promise<Product[]> {
    const client = await this.client();
    const { listProductsFor } = await import('../../services/products.js');
    const { productColumns } = await import('../../views/products.js');
    const { products, total } = await listProductsFor(client, {
      page: this.flags.page ?? 1,
      perPage: this.flags['per-page'] ?? DEFAULT_PER_PAGE,
      all: this.flags.all,
      limit: this.flags.limit,
      query: { handle: this.flags.handle, q: this.flags.q },
      sku: this.flags.sku,
      category: this.flags.category,
    });
    await this.renderList(products, productColumns, { csv: this.flags.csv });
    if (products.length === 0 && !this.jsonEnabled()) this.note('No products match.');
    if (this.flags.limit !== undefined && total !== undefined && total > products.length && !this.jsonEnabled()) {
      this.note(`The first ${products.length} of ${plural(total, 'product')}; --all for every one.`);
    } else if (!this.flags.all && total !== undefined && total > products.length && !this.jsonEnabled()) {
      const last = Math.ceil(total / (this.flags['per-page'] ?? DEFAULT_PER_PAGE));
      this.note(`Page ${this.flags.page ?? 1} of ${last} (${plural(total, 'product')}); --page N for more, --all for every page.`);
    }
    return products;
  }
}

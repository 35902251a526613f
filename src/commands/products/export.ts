import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class ProductsExport extends BaseCommand<typeof ProductsExport> {
  static summary = 'Export the catalog as CSV, one row per variant (to FILE, or stdout).';
  static description = `The canonical format (docs/csv.md) is what \`store products import\` reads back: importing an unexported-and-unchanged file sends no write. --format admin writes the platform's admin export (Spanish headers, ";" separated). Cells a spreadsheet would run as formulas are prefixed with a quote.`;

  static examples = [
    '<%= config.bin %> products export catalog.csv',
    '<%= config.bin %> products export --format admin > productos.csv',
  ];

  static args = {
    file: Args.string({ description: 'File to write (default: standard output).' }),
  };

  static flags = {
    format: Flags.string({ description: 'Column set to write.', options: ['canonical', 'admin'], default: 'canonical' }),
    quiet: Flags.boolean({ char: 'q', description: 'No summary line on stderr.' }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const { exportCatalog } = await import('../../services/export.js');
    const { createWriteStream } = await import('node:fs');
    const file = this.args.file;
    const out = file ? createWriteStream(file) : process.stdout;
    const summary = await exportCatalog(client, { format: this.flags.format as 'canonical' | 'admin', out });
    if (!this.flags.quiet && file) {
      this.note(`Exported ${summary.products} products (${summary.rows} rows) to ${file}.`);
    }
    if (summary.withoutVariants > 0) {
      this.warnUser(`${summary.withoutVariants} products without any variant were left out (nothing to sell yet).`);
    }
  }
}

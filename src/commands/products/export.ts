import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { plural } from '../../output/format.js';

export default class ProductsExport extends BaseCommand<typeof ProductsExport> {
  static summary = 'Export the catalog as CSV, one row per variant (to FILE, or stdout).';
  static description = `The canonical format (docs/csv.md) is what \`store products import\` reads back: importing an unexported-and-unchanged file sends no write. --format admin writes the platform's admin export (Spanish headers, ";" separated). Cells a spreadsheet would run as formulas are prefixed with a quote.`;

  static examples = [
    '<%= config.bin %> products export catalog.csv',
    '<%= config.bin %> products export --format admin > productos.csv',
  ];

  static args = {
    file: Args.string({ description: 'File to write ("-" or none: standard output).' }),
  };

  static flags = {
    format: Flags.string({ description: 'Column set to write.', options: ['canonical', 'admin'], default: 'canonical' }),
    quiet: Flags.boolean({ char: 'q', description: 'No summary line on stderr.' }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const { exportCatalog } = await import('../../services/catalog-files/export.js');
    const file = this.args.file === '-' ? undefined : this.args.file;
    const summary = await this.writeOutput(file, (out) => exportCatalog(client, { format: this.flags.format as 'canonical' | 'admin', out }));
    if (!this.flags.quiet && file) {
      this.note(`Exported ${plural(summary.products, 'product')} (${plural(summary.rows, 'row')}) to ${file}.`);
    }
    if (summary.withoutVariants > 0) {
      const which = summary.withoutVariants === 1 ? '1 product without any variant was' : `${summary.withoutVariants} products without any variant were`;
      this.warnUser(`${which} left out (nothing to sell yet).`);
    }
  }
}

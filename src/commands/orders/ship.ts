import { Args } from '@oclif/core';
import { ShippingCommand } from '../../cli/shipping-command.js';
import { BaseCommand } from '../../cli/base-command.js';
import { rowFileSpec } from '../../cli/row-file.js';
import { rowFileFlags } from '../../flags/bulk-file.js';
import { dispatchFlags, shipmentSelectionFlag } from '../../flags/orders.js';
import type { ShippingResult } from '../../services/shipping/ship-order.js';
import type { ShipFileResult, ShipmentFileEvent } from '../../services/shipping/shipment-file.js';

export default class OrdersShip extends ShippingCommand<typeof OrdersShip> {
  static summary = "Ship an order, or many from a CSV file: shipments go DISPATCHED with the carrier's tracking code.";
  static description = `Reads the order once with its shipments (fulfillment orders), then sends one PATCH per shipment dispatched, with --tracking (and --tracking-url); the store tells the customer only with --notify (docs/platform.md §10; never the deprecated POST /orders/{id}/fulfill). An unpacked shipment may be dispatched directly. Every shipment that can be dispatched is, or those --fulfillment-order names; stderr says which were skipped and why. A pickup shipment is never dispatched: it is made ready (store fulfillment-orders update ORDER FO --status ready-for-pickup) and delivered; that and every other move the platform forbids is refused before any write, naming the shipment's status and the command that would get there. ORDER is the order id or the number the customer sees.

With --file, the CSV (columns order — an id, or the number the customer sees —, tracking_code, and optionally fulfillment_order, tracking_url and notify) is read like every bulk file (docs/csv.md, "Shipments"): every row is checked first, every problem listed with its line and column, and nothing is sent while a row is invalid, unless --skip-invalid. Then the orders are read with their shipments inside in the fewest requests (one GET per order, or the lists of open orders not yet sent, 200 a page, when the file names more orders than those lists have pages: docs/benchmarks.md), every row's moves are decided — a move the platform forbids, an order the store does not have, are failed rows, with nothing sent for them — and one PATCH per shipment dispatched is sent, its tracking inside. --dry-run shows each move and sends no write. Every row done is journaled under $XDG_STATE_HOME/store/imports/: after an interruption, run the same command with --resume. Every dispatch is on the run ledger (store runs show); a dispatch never goes back, so store undo lists it. Exit codes: 2 when the file is invalid or cannot be read, 3 when some rows failed (--report writes them: the rows' own columns, then line, error and stage; fixed, the report is the next --file), 130 when interrupted by Ctrl-C, 143 by SIGTERM.`;

  static examples = [
    '<%= config.bin %> orders ship 191 --tracking BR123456789AA',
    '<%= config.bin %> orders ship 191 --fulfillment-order 191-1 --tracking BR123456789AA --tracking-url https://rastreamento.correios.com.br/BR123456789AA --notify',
    '<%= config.bin %> orders ship --file shipments.csv --dry-run',
    '<%= config.bin %> orders ship --file shipments.csv --report failed-shipments.csv',
    '<%= config.bin %> orders ship --file shipments.csv --resume',
    "<%= config.bin %> orders ship --file carrier-export.csv --map 'Pedido=order,Rastreio=tracking_code,Avisar=notify'",
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static args = { order: Args.string({ description: 'Order id (or the number the customer sees); not used with --file.' }) };
  static flags = {
    tracking: { ...dispatchFlags.tracking, exclusive: ['file'] },
    'tracking-url': { ...dispatchFlags['tracking-url'], exclusive: ['file'] },
    notify: { ...dispatchFlags.notify, exclusive: ['file'] },
    'fulfillment-order': shipmentSelectionFlag,
    ...rowFileFlags({
      file: 'CSV file of shipments to dispatch (order, tracking_code[, fulfillment_order, tracking_url, notify]); "-" for standard input.',
      dryRun: 'check the file, read the orders and show each move; send no write.',
      verb: 'ship',
    }),
  };

  async run(): Promise<ShippingResult | ShipFileResult> {
    const { UsageError } = await import('../../errors.js');
    if (this.flags.file) {
      if (this.args.order !== undefined) throw new UsageError('Give either ORDER with --tracking, or --file, not both.');
      if (this.flags['fulfillment-order']) throw new UsageError("--fulfillment-order goes with ORDER; with --file, a row names its shipment in the fulfillment_order column.");
      return this.shipFile(this.flags.file);
    }
    if (this.args.order === undefined) throw new UsageError('Give ORDER with --tracking, or --file FILE.');
    const { tracking, 'tracking-url': trackingUrl, notify } = this.flags;
    return this.moveShipments({ action: 'ship', tracking, trackingUrl, notify }, this.args.order, this.flags['fulfillment-order'], 'ship');
  }

  private async shipFile(file: string): Promise<ShipFileResult> {
    const { shipFromFile } = await import('../../services/shipping/shipment-file.js');
    const notice = (event: ShipmentFileEvent) => (event.type === 'order-numbers' ? event.notice : undefined);
    return this.runBulk(rowFileSpec(file, this.flags, { label: 'ship', run: shipFromFile, notice, show: (result) => this.showFileResult(result) }));
  }

  /** The summary (and a dry run's moves) on stdout, then the failed rows on stderr; some failed is exit 3, not an error. */
  private async showFileResult(result: ShipFileResult): Promise<void> {
    const { shipmentsSummaryView, printBulkSummary } = await import('../../views/bulk.js');
    printBulkSummary(shipmentsSummaryView(result, this.flags.report), { quiet: false, json: this.jsonEnabled() }, this.io.stdout, this.io.stderr);
  }
}

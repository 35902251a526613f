import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import type { StoreResult } from '../../services/fleet/results.js';

export default class FleetMerge extends BaseCommand<typeof FleetMerge> {
  static summary = 'Sum up a sharded fleet run: every store once, and the exit code of the whole fleet.';
  static description = `DIR holds the result files every shard wrote with --results-dir (copy them into one folder): one JSON file per store, and a manifest per shard. Prints the fleet summary (a table, TSV when piped, --json) and ends with the worst of the stores' exit codes (docs/fleet.md). A shard that left no manifest, a store its manifest lists without a result, or a store run by two shards is named on stderr and makes the exit code at least 1.`;

  static examples = [
    '<%= config.bin %> variants sync {feed} --fleet stores.csv --shard auto --results-dir results/ --yes',
    '<%= config.bin %> fleet merge results/',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    dir: Args.string({ description: 'The folder of the shards\' result files.', required: true }),
  };

  async run(): Promise<StoreResult[]> {
    const { mergeResults } = await import('../../services/fleet/results.js');
    const { SUMMARY_COLUMNS, fleetVerdict } = await import('../../cli/fleet-summary.js');
    const merged = await mergeResults(this.args.dir);
    await this.renderList(merged.results, SUMMARY_COLUMNS);
    for (const problem of merged.problems) this.warnUser(problem);
    this.note(fleetVerdict(merged.results, merged.exitCode));
    process.exitCode = merged.exitCode;
    return merged.results;
  }
}

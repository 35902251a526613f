import { Args, Flags } from '@oclif/core';
import type { Location } from '../../api/locations.js';
import { BaseCommand } from '../../cli/base-command.js';
import { canPrompt, io } from '../../output/io.js';
import { jsonFields } from '../../api/json-fields.js';

export default class LocationsReorder extends BaseCommand<typeof LocationsReorder> {
  static summary = 'Set the priority order of locations (the order in which orders take stock).';
  static description = `Give the locations (ids or names) in the order they should be used: the first gets priority 0. Locations you leave out keep their current relative order after the ones given, so naming only the first one moves it to the top. On a terminal without arguments, asks which location comes next until the order is complete.`;

  static examples = [
    '<%= config.bin %> locations reorder "Local Palermo" "Depósito Central" "Depósito Córdoba"',
    '<%= config.bin %> locations reorder 01JD3Z6Q8R5M2K7N4P9T0V1W2X',
    '<%= config.bin %> locations reorder',
  ];

  static strict = false;
  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.location;

  static args = {
    location: Args.string({ description: 'Location ids or names, highest priority first.' }),
  };

  static flags = {
    csv: Flags.boolean({ description: 'Print the resulting order as CSV (formula-escaped).' }),
  };

  async run(): Promise<Location[]> {
    const { argv } = await this.parse(LocationsReorder);
    const client = await this.client();
    const { locationsByPriority, reorderLocations, storeMainLanguage } = await import('../../services/catalog/locations.js');
    let order = argv as string[];
    if (order.length === 0) {
      const { UsageError } = await import('../../errors.js');
      if (!canPrompt()) {
        throw new UsageError('Give the location ids or names in priority order, e.g. `store locations reorder ID1 ID2`.');
      }
      order = await askOrder(await locationsByPriority(client));
    }
    const [locations, mainLanguage] = await Promise.all([reorderLocations(client, await this.recorder(), order), storeMainLanguage(client)]);
    const { locationColumnsFor } = await import('../../views/locations.js');
    await this.renderList(locations, locationColumnsFor(mainLanguage), { csv: this.flags.csv });
    return locations;
  }
}

/** Repeated "which comes next?" until one location is left. */
async function askOrder(current: Location[]): Promise<string[]> {
  const { select } = await import('@inquirer/prompts');
  const { localText } = await import('../../services/catalog/catalog-input.js');
  const left = [...current];
  const order: string[] = [];
  while (left.length > 1) {
    // Prompts draw on stderr so that stdout holds only the result (e.g. with --json).
    const id = await select(
      {
        message: order.length === 0 ? 'Which location comes first?' : 'Which location comes next?',
        choices: left.map((l) => ({ name: `${localText(l.name)} (${l.id})`, value: l.id })),
      },
      { input: io().stdin, output: io().stderr },
    );
    order.push(id);
    left.splice(left.findIndex((l) => l.id === id), 1);
  }
  return [...order, ...left.map((l) => l.id)];
}

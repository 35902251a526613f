import type { Location } from '../../api/locations.js';
import { BaseCommand } from '../../cli/base-command.js';
import { csvFlag } from '../../flags/common.js';

export default class LocationsList extends BaseCommand<typeof LocationsList> {
  static summary = 'List stock locations in priority order (the order in which orders take stock).';
  static examples = [
    '<%= config.bin %> locations list',
    '<%= config.bin %> locations list --json',
    '<%= config.bin %> locations list --csv > locations.csv',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    csv: csvFlag,
  };

  async run(): Promise<Location[]> {
    const client = await this.client();
    const { locationsToShow } = await import('../../services/catalog/locations.js');
    const { locationColumnsFor } = await import('../../views/locations.js');
    const { locations, mainLanguage } = await locationsToShow(client);
    await this.renderList(locations, locationColumnsFor(mainLanguage), { csv: this.flags.csv });
    if (locations.length === 0 && !this.jsonEnabled()) this.note('The store has no locations yet; add one with `store locations create`.');
    return locations;
  }
}

import { Flags } from '@oclif/core';
import type { Location } from '../../api/locations.js';
import { BaseCommand } from '../../cli/base-command.js';
import { locationArg } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class LocationsSetDefault extends BaseCommand<typeof LocationsSetDefault> {
  static summary = 'Make a location the default one (where plain --stock goes).';
  static examples = ['<%= config.bin %> locations set-default "Local Palermo"', '<%= config.bin %> locations set-default 01JD3Z6Q8R5M2K7N4P9T0V1W2X --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.location;

  static args = {
    location: locationArg,
  };

  static flags = {
    csv: Flags.boolean({ description: 'Print the resulting list as CSV (formula-escaped).' }),
  };

  async run(): Promise<Location[]> {
    const client = await this.client();
    const { setDefaultLocationByRef, storeMainLanguage } = await import('../../services/catalog/locations.js');
    const { locationColumnsFor } = await import('../../views/locations.js');
    const [locations, mainLanguage] = await Promise.all([setDefaultLocationByRef(client, await this.recorder(), this.args.location), storeMainLanguage(client)]);
    await this.renderList(locations, locationColumnsFor(mainLanguage), { csv: this.flags.csv });
    return locations;
  }
}

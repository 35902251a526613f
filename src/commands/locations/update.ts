import { Flags } from '@oclif/core';
import type { Location } from '../../api/locations.js';
import { BaseCommand } from '../../cli/base-command.js';
import { addressFieldsFrom, addressFlags, locationArg, locationNameFlag, priorityFlag } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class LocationsUpdate extends BaseCommand<typeof LocationsUpdate> {
  static summary = 'Change a stock location: name, address, priority or pickup.';
  static description = `Only the fields given change: the other address parts and the name in other languages keep their values.`;

  static examples = [
    '<%= config.bin %> locations update "Local Palermo" --street Honduras --number 4900',
    '<%= config.bin %> locations update 01JD3Z6Q8R5M2K7N4P9T0V1W2X --name pt="Loja Palermo" --no-pickup',
    '<%= config.bin %> locations update "Local Palermo" --priority 0 --region NOA=Noroeste',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.location;

  static args = {
    location: locationArg,
  };

  static flags = {
    name: locationNameFlag(),
    ...addressFlags,
    priority: priorityFlag,
    pickup: Flags.boolean({ description: 'Accept in-store pickup (--no-pickup to stop).', allowNo: true }),
  };

  async run(): Promise<Location> {
    const client = await this.client();
    const { updateLocationFrom } = await import('../../services/catalog/locations.js');
    const location = await updateLocationFrom(client, await this.recorder(), this.args.location, {
      ...addressFieldsFrom(this.flags),
      name: this.flags.name,
      priority: this.flags.priority,
      allowsPickup: this.flags.pickup,
    });
    if (!this.jsonEnabled()) {
      const { locationFields } = await import('../../views/locations.js');
      await this.renderDetail(locationFields(location));
    }
    return location;
  }
}

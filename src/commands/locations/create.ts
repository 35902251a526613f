import { Flags } from '@oclif/core';
import type { Location } from '../../api/locations.js';
import { BaseCommand } from '../../cli/base-command.js';
import { addressFieldsFrom, addressFlags, locationNameFlag, priorityFlag } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class LocationsCreate extends BaseCommand<typeof LocationsCreate> {
  static summary = 'Create a stock location.';
  static description = `The number of locations a store may have depends on its plan (freemium and a: 1, b: 2, c: 3, enterprise, next and evolution: unlimited); over the limit the store refuses and the error names the plan and its limit. On a multilingual store give the name per language (--name es=Depósito --name pt=Depósito); a plain value goes to the main language.`;

  static examples = [
    '<%= config.bin %> locations create --name "Depósito Norte" --street "Av. Libertador" --number 5000 --city "Buenos Aires" --zipcode C1426 --country AR',
    '<%= config.bin %> locations create --name es=Local --name pt=Loja --pickup --json',
    '<%= config.bin %> locations create --name "Depósito Salta" --city Salta --province A --region NOA=Noroeste --priority 2',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.location;

  static flags = {
    name: locationNameFlag(true),
    ...addressFlags,
    priority: priorityFlag,
    pickup: Flags.boolean({ description: 'The location accepts in-store pickup.' }),
    default: Flags.boolean({ description: 'Make it the default location.' }),
  };

  async run(): Promise<Location> {
    const client = await this.client();
    const { createLocationFrom } = await import('../../services/catalog/locations.js');
    const location = await createLocationFrom(client, await this.recorder(), {
      ...addressFieldsFrom(this.flags),
      name: this.flags.name,
      priority: this.flags.priority,
      allowsPickup: this.flags.pickup,
      makeDefault: this.flags.default,
    });
    const { locationFields } = await import('../../views/locations.js');
    await this.renderDetail(locationFields(location));
    return location;
  }
}

import { BaseCommand } from '../../cli/base-command.js';
import { locationArg } from '../../flags/catalog.js';
import { yesFlag } from '../../flags/common.js';
import { jsonFields } from '../../api/json-fields.js';

export default class LocationsDelete extends BaseCommand<typeof LocationsDelete> {
  static summary = 'Delete a stock location.';
  static description = `The store refuses to delete the default location or one that still holds stock (move the stock or choose another default first). Asks for confirmation on a terminal; pass --yes otherwise.`;

  static examples = ['<%= config.bin %> locations delete "Depósito Córdoba"', '<%= config.bin %> locations delete 01JD3Z6Q8R5M2K7N4P9T0V1W2X --yes'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.deleted;

  static args = {
    location: locationArg,
  };

  static flags = { yes: yesFlag };

  async run(): Promise<{ id: string; deleted: boolean }> {
    const { confirmThenAct } = await import('../../cli/confirm.js');
    return confirmThenAct({
      message: async () => `Delete location ${await (await import('../../services/catalog/locations.js')).describeLocation(await this.client(), this.args.location)}?`,
      yes: this.flags.yes,
      action: 'Deleting a location',
      nothingDone: 'Nothing deleted.',
      declined: () => ({ id: this.args.location, deleted: false }),
      act: async () => {
        const client = await this.client();
        const { deleteLocationByRef } = await import('../../services/catalog/locations.js');
        const location = await deleteLocationByRef(client, await this.recorder(), this.args.location);
        this.note(`Deleted location ${location.id}.`);
        return { id: location.id, deleted: true };
      },
    });
  }
}

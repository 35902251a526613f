import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';

export default class ConfigGet extends BaseCommand<typeof ConfigGet> {
  static summary = 'Print a default of the profile (nothing, with exit 0, when it is not set).';
  static examples = ['<%= config.bin %> config get max-price-change'];

  static args = {
    key: Args.string({ description: 'The setting: max-changes, max-price-change, max-zero-stock, max-deletes or api-version.', required: true }),
  };

  async run(): Promise<void> {
    const { getSetting, settingsProfile } = await import('../../services/runs/settings.js');
    const value = await getSetting(await settingsProfile(this.flags.profile), this.args.key);
    if (value !== undefined) this.io.stdout.write(`${value}\n`);
  }
}

import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';

export default class ConfigUnset extends BaseCommand<typeof ConfigUnset> {
  static summary = 'Remove a default of the profile: the brake is then off unless its flag is given.';
  static examples = ['<%= config.bin %> config unset max-price-change'];

  static args = {
    key: Args.string({ description: 'The setting: max-changes, max-price-change, max-zero-stock, max-deletes or api-version.', required: true }),
  };

  async run(): Promise<void> {
    const { settingsProfile, unsetSetting } = await import('../../services/runs/settings.js');
    const profile = await settingsProfile(this.flags.profile);
    await unsetSetting(profile, this.args.key);
    this.note(`Removed ${this.args.key} from profile "${profile}".`);
  }
}

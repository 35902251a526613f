import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';

export default class ConfigSet extends BaseCommand<typeof ConfigSet> {
  static summary = "Set a default of the profile (like gh config): the brakes of unattended runs, the API version.";
  static description = `The settings are the defaults of the brakes that stop an import, sync, apply or undo before it writes anything (a flag given on the command line wins): max-changes (N or P%), max-price-change (P%), max-zero-stock (N or P%), max-deletes (N); and the platform API version every request names (api-version: v1, the default, or 2025-03; --api-version wins). They belong to the profile (--profile, else the default one) and live in the config file. \`store config list\` shows them all.`;

  static examples = ['<%= config.bin %> config set max-price-change 50%', '<%= config.bin %> config set max-changes 10% --profile work', '<%= config.bin %> config set api-version 2025-03'];

  static args = {
    key: Args.string({ description: 'The setting: max-changes, max-price-change, max-zero-stock, max-deletes or api-version.', required: true }),
    value: Args.string({ description: 'Its value (N, P%, or a version).', required: true }),
  };

  async run(): Promise<void> {
    const { setSetting, settingsProfile } = await import('../../services/runs/settings.js');
    const profile = await settingsProfile(this.flags.profile);
    await setSetting(profile, this.args.key, this.args.value);
    this.note(`Set ${this.args.key} to ${this.args.value.trim()} for profile "${profile}".`);
  }
}

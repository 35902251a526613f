import { BaseCommand } from '../../cli/base-command.js';
import { csvFlag } from '../../flags/common.js';

export default class ConfigList extends BaseCommand<typeof ConfigList> {
  static summary = "List the profile's defaults, set or not.";
  static examples = ['<%= config.bin %> config list', '<%= config.bin %> config list --profile work --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = { csv: csvFlag };

  async run(): Promise<{ name: string; value: string | null; flag: string; description: string }[]> {
    const { listSettings, settingsProfile } = await import('../../services/runs/settings.js');
    const settings = await listSettings(await settingsProfile(this.flags.profile));
    const { settingColumns } = await import('../../views/runs.js');
    await this.renderList(settings, settingColumns, { csv: this.flags.csv });
    return settings;
  }
}

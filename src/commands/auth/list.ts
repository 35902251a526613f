import { BaseCommand } from '../../cli/base-command.js';
import { csvFlag } from '../../flags/common.js';
import type { ProfileSummary } from '../../services/auth/login.js';

export default class List extends BaseCommand<typeof List> {
  static summary = 'List the profiles; the default one is marked with *.';
  static examples = ['<%= config.bin %> auth list', '<%= config.bin %> auth list --json'];

  static flags = {
    csv: csvFlag,
  };

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  async run(): Promise<ProfileSummary[]> {
    const { listProfiles } = await import('../../services/auth/login.js');
    const profiles = await listProfiles();
    const { profileColumns } = await import('../../views/auth.js');
    await this.renderList(profiles, profileColumns, { csv: this.flags.csv });
    if (profiles.length === 0 && !this.jsonEnabled()) this.note('No profiles yet; run `store auth login` (or `store auth login --sandbox`).');
    return profiles;
  }
}

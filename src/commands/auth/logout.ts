import { BaseCommand } from '../../cli/base-command.js';

export default class Logout extends BaseCommand<typeof Logout> {
  static summary = 'Remove a profile and its secrets (token and client secret).';
  static description = `Removes the profile chosen by --profile (or STORE_PROFILE, or the default) from the config file and its secrets from the OS keychain or the credentials file. The token itself stays valid on the platform until it is renewed or the app is uninstalled.`;

  static examples = ['<%= config.bin %> auth logout', '<%= config.bin %> auth logout --profile shop'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  async run(): Promise<{ profile: string }> {
    const { logout } = await import('../../services/auth/login.js');
    const { profile, warnings } = await logout({ profile: this.flags.profile });
    for (const warning of warnings) this.warnUser(warning);
    this.note(`Logged out of profile "${profile}".`);
    return { profile };
  }
}

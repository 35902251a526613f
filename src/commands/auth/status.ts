import { BaseCommand } from '../../cli/base-command.js';
import type { AuthStatus } from '../../services/auth/login.js';

export default class Status extends BaseCommand<typeof Status> {
  static summary = 'Show which store and profile the CLI uses, and whether the store accepts the token.';
  static description = `Resolves the credentials the way every command does (STORE_TOKEN + STORE_ID first, then --profile, STORE_PROFILE or the default profile) and makes one cheap request (GET /store) to check them. The token is shown masked; \`store auth token\` prints it. Exits 4 when the store refuses the token, 1 when the store could not be asked (then "Accepted" is unknown, null in --json).`;

  static examples = ['<%= config.bin %> auth status', '<%= config.bin %> auth status --profile sandbox --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  async run(): Promise<Omit<AuthStatus, 'error'>> {
    const ctx = await this.context();
    const { authStatus } = await import('../../services/auth/login.js');
    const { error, ...status } = await authStatus(ctx, await this.client());
    if (this.jsonEnabled()) {
      if (error) {
        await this.printJson(status);
        throw error;
      }
      return status;
    }
    const { authStatusFields } = await import('../../views/auth.js');
    await this.renderDetail(authStatusFields(status));
    if (error) throw error;
    return status;
  }
}

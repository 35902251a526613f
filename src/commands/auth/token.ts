import { BaseCommand } from '../../cli/base-command.js';

export default class Token extends BaseCommand<typeof Token> {
  static summary = "Print the current profile's access token, for scripts.";
  static description = `The only command that prints a token. Resolves it like every command: STORE_TOKEN first, then --profile, STORE_PROFILE or the default profile.`;

  static examples = ['curl -H "Authentication: bearer $(<%= config.bin %> auth token)" …'];

  async run(): Promise<void> {
    const ctx = await this.context();
    this.io.stdout.write(`${ctx.token}\n`);
  }
}

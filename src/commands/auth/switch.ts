import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';

export default class Switch extends BaseCommand<typeof Switch> {
  static summary = 'Make a profile the default one.';
  static examples = ['<%= config.bin %> auth switch shop'];

  static args = {
    name: Args.string({ description: 'Profile name (see `store auth list`).', required: true }),
  };

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  async run(): Promise<{ default: string }> {
    const { setDefaultProfile } = await import('../../auth/config.js');
    await setDefaultProfile(this.args.name);
    this.note(`The default profile is now "${this.args.name}".`);
    return { default: this.args.name };
  }
}

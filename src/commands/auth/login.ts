import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { canPrompt, readStdin } from '../../output/io.js';
import type { LoginResult, MissingValue } from '../../services/auth/login.js';

export default class Login extends BaseCommand<typeof Login> {
  static summary = 'Log in to a store and save its credentials in a profile.';
  static description = `Without flags, opens the browser on the app's authorization page and receives the code on a loopback redirect (http://127.0.0.1:<port>/callback, the redirect URL registered for the app); the code is exchanged for a token at once. --code exchanges a code you pasted, --with-token reads a token from standard input, and --sandbox logs in to the local sandbox (started on demand), which needs nothing else.

The token and client secret go to the OS keychain; where none answers (or with --insecure-storage) they go to $XDG_CONFIG_HOME/store/credentials.json (mode 0600), with a warning. The profile becomes the default one. On a terminal, missing values are asked for (the API URL from a menu of the platform's hosts, Tiendanube and Nuvemshop, and the sandbox; another URL can be typed); otherwise a missing value is an error naming its flag.`;

  static examples = [
    '<%= config.bin %> auth login --sandbox',
    '<%= config.bin %> auth login --profile shop --api-url https://api.tiendanube.com --client-id 4321',
    '<%= config.bin %> auth login --profile shop --no-browser --port 8976',
    '<%= config.bin %> auth login --profile shop --code 9f2c…',
    'echo "$STORE_TOKEN" | <%= config.bin %> auth login --with-token --store-id 123456 --client-id 4321 --app-name "Acme ERP" --api-url https://api.nuvemshop.com.br',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    'client-id': Flags.string({ description: "The app's client id (app id); with --with-token, the app the token was issued to." }),
    'client-secret': Flags.string({
      description: "The app's client secret (asked for on a terminal when omitted; the variable keeps it out of `ps`).",
      env: 'STORE_CLIENT_SECRET',
    }),
    'app-name': Flags.string({ description: 'App name sent in the User-Agent header.' }),
    'api-url': Flags.string({
      description: 'API host root, without /v1: https://api.tiendanube.com or https://api.nuvemshop.com.br (a terminal offers them, and the sandbox).',
    }),
    'auth-url': Flags.string({ description: "Authorization server URL (the platform's own for its API hosts: https://www.tiendanube.com, https://www.nuvemshop.com.br)." }),
    'insecure-storage': Flags.boolean({ description: 'Store secrets in the plain-text credentials file, not the OS keychain.' }),
    port: Flags.integer({
      description: "Port of the loopback redirect listener (must match the app's redirect URL).",
      default: 8976,
      min: 0,
      max: 65535,
    }),
    browser: Flags.boolean({
      description: 'Open the authorization page in a browser (--no-browser prints the URL instead).',
      default: true,
      allowNo: true,
    }),
    code: Flags.string({ description: 'Exchange this authorization code instead of waiting for the browser.', exclusive: ['with-token'] }),
    'with-token': Flags.boolean({
      description: 'Read an access token from standard input (needs --store-id, --client-id and --app-name); it is checked against the store before it is saved.',
    }),
    'store-id': Flags.string({ description: 'Store id for --with-token (the browser and code flows learn it).' }),
    sandbox: Flags.boolean({
      description: 'Log in to the local sandbox store (profile "sandbox" unless --profile).',
      exclusive: ['with-token', 'code'],
    }),
  };

  async run(): Promise<LoginResult> {
    const { login } = await import('../../services/auth/login.js');
    const { UsageError } = await import('../../errors.js');
    const flags = this.flags;
    // With --with-token on a terminal the missing values are asked first, then the token is pasted; in a pipe
    // stdin carries the token, so nothing can be asked.
    const interactive = canPrompt();
    const { addSecret } = await import('../../output/secrets.js');
    addSecret(flags['client-secret']);
    const token = flags['with-token']
      ? async () => {
          if (this.io.stdin.isTTY) this.note('Paste the token, then press Ctrl-D:');
          // A token is one line: a stream that goes on (a file piped by mistake) is not held in memory.
          const read = await readStdin(64 * 1024, () => new UsageError('--with-token: standard input is larger than 64 KiB; give the token alone, on one line.'));
          addSecret(read.trim());
          return read;
        }
      : undefined;

    const ask = async (missing: MissingValue): Promise<string> => {
      if (!interactive) {
        const why = flags['with-token'] ? 'standard input carries the token' : 'there is no terminal to ask on';
        throw new UsageError(`Missing --${missing.flag} (${missing.message}); pass it as a flag, as ${why}.`);
      }
      const { input, password, select } = await import('@inquirer/prompts');
      const context = { input: this.io.stdin, output: this.io.stderr };
      if (missing.choices) {
        const other = '\u0000other';
        const { message, options } = missing.choices;
        const picked = await select({ message, choices: [...options, { name: 'Another URL (type it)', value: other }] }, context);
        if (picked !== other) return picked;
      }
      return missing.secret
        ? password({ message: missing.message, mask: true, validate: (value) => missing.validate?.(value.trim()) ?? true }, context)
        : input(
            {
              message: missing.message,
              required: true,
              validate: (value) => missing.validate?.(value.trim()) ?? true,
              // A rejected answer is asked for again from an empty line, with the reason under it.
              theme: { validationFailureMode: 'clear' },
            },
            context,
          );
    };

    const result = await login({
      profile: flags.profile,
      clientId: flags['client-id'],
      clientSecret: flags['client-secret'],
      appName: flags['app-name'],
      apiUrl: flags['api-url'],
      authUrl: flags['auth-url'],
      storeId: flags['store-id'],
      insecureStorage: flags['insecure-storage'],
      port: flags.port,
      code: flags.code,
      token,
      sandbox: flags.sandbox,
      allowInsecureHttp: flags['allow-insecure-http'],
      ask,
      onAuthorizeUrl: async (url) => {
        const { openBrowser } = await import('../../auth/browser.js');
        if (flags.browser && (await openBrowser(url))) {
          this.note(`Opened the authorization page in your browser. If it did not appear, open:\n  ${url}`);
        } else {
          this.note(`Open this URL in a browser to authorize the app:\n  ${url}`);
        }
        this.note('Waiting for the browser to come back…');
      },
      debug: flags.debug ? (line) => this.note(line) : undefined,
    });

    for (const warning of result.warnings) this.warnUser(warning);
    const where =
      result.secretsStore === 'sandbox'
        ? 'the sandbox keeps its credentials'
        : result.secretsStore === 'keychain'
          ? 'secrets in the OS keychain'
          : 'secrets in the credentials file';
    this.note(`Logged in to store ${result.storeId} as profile "${result.profile}" (now the default; ${where}).`);
    return result;
  }
}

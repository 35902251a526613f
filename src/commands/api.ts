import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { readStdin } from '../output/io.js';

export default class Api extends BaseCommand<typeof Api> {
  static summary = 'Make an authenticated request to any path of the store API.';
  static description = `The path is relative to /v1/{store_id} (e.g. /orders). The request goes through the same rate-limited, retrying HTTP core as every other command. The JSON response body is printed on stdout; on an HTTP error the body is printed too and the exit code follows the error (4 for 401/403, 2 for 422, 1 otherwise).

-f key=value adds a string field, -F key=value a typed one (true, false, null and integers are converted; @file reads a file, @- standard input). key[sub]=v builds nested objects and key[]=v lists. Fields are sent as the query string of GET and DELETE and as the JSON body of other methods.`;

  static examples = [
    '<%= config.bin %> api GET /store',
    '<%= config.bin %> api GET /orders -f status=open -F per_page=50',
    '<%= config.bin %> api GET /products --paginate > products.json',
    '<%= config.bin %> api POST /categories -f name=Camisas -F parent=12',
    '<%= config.bin %> api PUT /orders/1234567890 -f owner_note="Gift wrap" --include',
    'echo \'{"event":"order/created","url":"https://example.com/hook"}\' | <%= config.bin %> api POST /webhooks --input -',
  ];

  static args = {
    method: Args.string({ description: 'HTTP method: GET, POST, PUT, PATCH or DELETE.', required: true }),
    path: Args.string({ description: 'Path under /v1/{store_id}, e.g. /orders/1234567890.', required: true }),
  };

  static flags = {
    'raw-field': Flags.string({ char: 'f', multiple: true, multipleNonGreedy: true, description: 'Add a string field key=value.' }),
    field: Flags.string({
      char: 'F',
      multiple: true, multipleNonGreedy: true,
      description: 'Add a typed field key=value (true/false/null/integers converted, @file reads a file).',
    }),
    input: Flags.string({ description: 'Read the JSON request body from a file ("-" for standard input).' }),
    paginate: Flags.boolean({ description: 'Fetch every page (per_page 200) and print one JSON array.' }),
    include: Flags.boolean({
      char: 'i',
      description: 'Print the HTTP status line and response headers before the body.',
      exclusive: ['paginate'],
    }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const { runApiRequest } = await import('../services/api-request.js');
    const { ApiError } = await import('../client/errors.js');
    try {
      const result = await runApiRequest(client, {
        method: this.args.method,
        path: this.args.path,
        rawFields: this.flags['raw-field'] ?? [],
        typedFields: this.flags.field ?? [],
        input: this.flags.input,
        paginate: this.flags.paginate,
        readStdin,
      });
      if (this.flags.include) await this.printHead(result.status, result.headers);
      if (result.body !== undefined && result.body !== '') this.io.stdout.write(`${JSON.stringify(result.body, null, 2)}\n`);
    } catch (error) {
      // Like `gh api`: an HTTP error still shows what the server said, then the one-sentence error and exit code.
      if (error instanceof ApiError) {
        if (this.flags.include) await this.printHead(error.status, error.headers ?? {});
        if (error.body !== undefined && error.body !== '') this.io.stdout.write(`${JSON.stringify(error.body, null, 2)}\n`);
      }
      throw error;
    }
  }

  /** Status and headers, credentials (Set-Cookie, Authorization…) redacted and control characters escaped. */
  private async printHead(status: number, headers: Record<string, string | string[] | undefined>): Promise<void> {
    const { redactHeaders } = await import('../client/redact.js');
    const { terminalSafe } = await import('../output/format.js');
    const lines = [`HTTP/1.1 ${status}`];
    for (const [name, value] of Object.entries(redactHeaders(headers))) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) lines.push(terminalSafe(`${name}: ${v}`));
    }
    this.io.stdout.write(`${lines.join('\n')}\n\n`);
  }
}

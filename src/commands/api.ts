import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { readStdin } from '../output/io.js';

export default class Api extends BaseCommand<typeof Api> {
  static summary = 'Make an authenticated request to any path of the store API.';
  static description = `Like \`gh api\`: the path is relative to /v1/{store_id} (/orders, orders and /v1/{store_id}/orders are the same). The method is optional: GET, or POST when fields or --input are given; name it first (store api PUT /orders/1) or with --method. The request goes through the same rate-limited, retrying HTTP core as every other command. The JSON response body is printed on stdout (filtered with --jq); on an HTTP error the body is printed too and the exit code follows the error (4 for 401/403, 2 for 422, 1 otherwise).

-f key=value adds a string field, -F key=value a typed one (true, false, null and integers are converted; @file reads a file, @- standard input). key[sub]=v builds nested objects and key[]=v lists. Fields are sent as the query string of GET and DELETE and as the JSON body of other methods.

--paginate fetches every page and prints the records of all pages as one JSON array (gh prints page after page; its --slurp wraps them in an outer array, which --slurp does here too); --jq then filters that one array.`;

  static usage = ['api [METHOD] PATH [-X METHOD] [-f <value>...] [-F <value>...] [--input <value>] [--jq EXPR] [-i | --paginate [--slurp]]'];

  static examples = [
    '<%= config.bin %> api /store',
    "<%= config.bin %> api /orders --jq '.[0].id'",
    '<%= config.bin %> api orders -f status=open -F per_page=50 --method GET',
    '<%= config.bin %> api /products --paginate > products.json',
    '<%= config.bin %> api /categories -f name=Camisas -F parent=12',
    '<%= config.bin %> api PUT /orders/1234567890 -f owner_note="Gift wrap" --include',
    'echo \'{"event":"order/created","url":"https://example.com/hook"}\' | <%= config.bin %> api /webhooks --input -',
  ];

  static args = {
    method: Args.string({ description: 'HTTP method: GET, POST, PUT, PATCH or DELETE (default GET, or POST with fields or --input).' }),
    path: Args.string({ description: 'Path under /v1/{store_id}, e.g. /orders/1234567890 (alone, it is the only argument).' }),
  };

  static flags = {
    method: Flags.string({ char: 'X', description: 'HTTP method, instead of the first argument.', helpValue: 'METHOD' }),
    'raw-field': Flags.string({ char: 'f', multiple: true, multipleNonGreedy: true, description: 'Add a string field key=value.' }),
    field: Flags.string({
      char: 'F',
      multiple: true, multipleNonGreedy: true,
      description: 'Add a typed field key=value (true/false/null/integers converted, @file reads a file).',
    }),
    input: Flags.string({ description: 'Read the JSON request body from a file ("-" for standard input).' }),
    jq: Flags.string({ description: "Filter the response body with a jq expression, e.g. --jq '.[0].id'.", helpValue: 'EXPR' }),
    paginate: Flags.boolean({ description: 'Fetch every page (per_page 200) and print their records as one JSON array.' }),
    slurp: Flags.boolean({ description: 'With --paginate, print an array of the pages (as gh api --slurp does).', dependsOn: ['paginate'] }),
    include: Flags.boolean({
      char: 'i',
      description: 'Print the HTTP status line and response headers before the body.',
      exclusive: ['paginate'],
    }),
  };

  async run(): Promise<void> {
    const { MAX_INPUT_BYTES, inputTooLarge, runApiRequest, requestLine } = await import('../services/raw-api/api-request.js');
    const rawFields = this.flags['raw-field'] ?? [];
    const typedFields = this.flags.field ?? [];
    const { method, path } = requestLine(this.args.method, this.args.path, {
      method: this.flags.method,
      sendsBody: rawFields.length + typedFields.length > 0 || this.flags.input !== undefined,
    });
    const client = await this.client();
    const { ApiError } = await import('../client/errors.js');
    try {
      const result = await runApiRequest(client, await this.recorder(), {
        method,
        path,
        rawFields,
        typedFields,
        input: this.flags.input,
        paginate: this.flags.paginate,
        slurp: this.flags.slurp,
        readStdin: (flag) => readStdin(MAX_INPUT_BYTES, () => inputTooLarge('-', flag)),
      });
      if (this.flags.include) await this.printHead(result.status, result.headers);
      if (result.body === undefined || result.body === '') return;
      if (this.flags.jq === undefined) this.io.stdout.write(`${JSON.stringify(result.body, null, 2)}\n`);
      else await this.printFiltered(result.body, this.flags.jq);
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

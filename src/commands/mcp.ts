import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { BRAKE_FLAGS, brakesFrom } from '../flags/brakes.js';

export default class Mcp extends BaseCommand<typeof Mcp> {
  static summary = 'Serve the store to an AI assistant (MCP on stdio): read-only unless --write, writing only by plan → apply.';
  static description = `Starts a Model Context Protocol server on standard input and output for the profile (no network port): an assistant host (Claude Desktop, Claude Code, VS Code, Cursor) starts it and calls its tools. The token stays in this process: it is never a tool argument, a reply or a log line. Every request goes through the same rate scheduler as the other commands.

Without --write only read tools are served: search_orders, get_order, find_products, search_customers, get_customer, list_runs, show_run, api_get, api_paths. With --write the plan tools are added (plan_stock_price, plan_catalog_rows, plan_order_action: cancel, close, reopen, ship, attach_invoice; undo_run) and apply_plan, which writes exactly a plan once, refuses one the store changed since, takes the store's lock like the CLI, stops at the brakes (flags or \`store config\`), and records the run in the ledger under the assistant's name. Tools the profile's OAuth scopes do not allow are not served. Text written by customers comes back marked as untrusted data; --lockdown leaves it out. Replies stay under a fixed size, with a cursor. See docs/mcp.md for the hosts' configuration.`;

  static examples = [
    '<%= config.bin %> mcp --sandbox',
    '<%= config.bin %> mcp --profile shop --toolsets orders,customers',
    '<%= config.bin %> mcp --profile shop --write --max-changes 50',
  ];

  static flags = {
    sandbox: Flags.boolean({ description: 'Serve the local sandbox store (the profile "sandbox"): a safe store for building an agent.', exclusive: ['profile'] }),
    toolsets: Flags.string({
      description: 'Serve only these toolsets (comma-separated): orders, catalog, customers, invoices, runs. Default: all. api_get and api_paths are always served.',
    }),
    write: Flags.boolean({ description: 'Serve the plan tools and apply_plan (without it, no write tool is even listed).' }),
    lockdown: Flags.boolean({ description: 'Leave text written by customers and others (notes, names, addresses, descriptions) out of every reply.' }),
    ...BRAKE_FLAGS,
  };

  async run(): Promise<void> {
    const [{ serveSession }, { TOOLSETS }, { readConfig, profileSettings }, { UsageError }] = await Promise.all([
      import('../services/mcp/server.js'),
      import('../services/mcp/session.js'),
      import('../auth/config.js'),
      import('../errors.js'),
    ]);
    const { flags } = this;
    const toolsets = flags.toolsets === undefined ? [...TOOLSETS] : flags.toolsets.split(',').map((t) => t.trim()).filter(Boolean);
    const unknown = toolsets.filter((t) => !(TOOLSETS as readonly string[]).includes(t));
    if (unknown.length > 0) throw new UsageError(`--toolsets: unknown toolset ${unknown.join(', ')}; the toolsets are ${TOOLSETS.join(', ')}.`);
    if (flags.sandbox) (this.flags as { profile?: string }).profile = 'sandbox';
    const ctx = await this.context();
    const brakes = brakesFrom(flags, await profileSettings(ctx.profile));
    const client = await this.client();
    // The scopes the profile was granted at login; an environment token's (or an empty list) are not known: all tools.
    const granted = ctx.tokenSource === 'env' ? undefined : (await readConfig().catch(() => undefined))?.profiles[ctx.profile]?.scopes;
    await serveSession(
      {
        store: { client, profile: ctx.profile, storeId: ctx.storeId, apiUrl: ctx.apiUrl, appId: ctx.appId },
        options: {
          write: flags.write,
          lockdown: flags.lockdown,
          toolsets: toolsets as (typeof TOOLSETS)[number][],
          scopes: granted && granted.length > 0 ? granted : undefined,
          brakes,
          env: process.env,
        },
      },
      this.config.version,
    );
  }
}

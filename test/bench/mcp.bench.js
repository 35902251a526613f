// The size of `store mcp`'s tool definitions (issue 32): what every assistant session carries in its context
// before the first call. The real binary, listed by the MCP SDK's client: bytes of the `tools` array of
// tools/list as JSON, and tokens estimated at 4 characters a token (no tokenizer: the figure is an estimate).
// No store is needed: listing tools sends no request (the environment names an address nothing listens on).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'store-mcp-bench-'));
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)),
  STORE_TOKEN: 'bench-token-not-used-0000',
  STORE_ID: '1',
  STORE_API_URL: 'http://127.0.0.1:9',
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_STATE_HOME: join(home, 'state'),
  XDG_DATA_HOME: join(home, 'data'),
};

async function list(args) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], env, stderr: 'ignore' }));
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

const tokens = (chars) => Math.round(chars / 4);
for (const [name, args] of [
  ['store mcp (read-only)', []],
  ['store mcp --write', ['--write']],
  ['store mcp --toolsets orders', ['--toolsets', 'orders']],
]) {
  const tools = await list(args);
  const bytes = Buffer.byteLength(JSON.stringify(tools));
  console.log(`${name.padEnd(30)} ${String(tools.length).padStart(2)} tools  ${String(bytes).padStart(6)} bytes  ≈ ${tokens(bytes)} tokens`);
  if (args[0] === '--write') {
    for (const t of tools) {
      const size = Buffer.byteLength(JSON.stringify(t));
      console.log(`  ${t.name.padEnd(20)} ${String(size).padStart(5)} bytes  (description ${t.description.length} chars)`);
    }
  }
}

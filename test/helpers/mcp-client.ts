import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, cliTranscript, recordTranscript } from './run-cli.js';

/**
 * The real `store mcp` process (bin/run.js on the built dist/) driven over stdio by the MCP SDK's own client, the
 * way an assistant host starts it. `era`: the 2025 handshake (`initialize`, what most hosts speak today) or the
 * 2026-07-28 revision (the per-request envelope).
 */
export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** A tool's reply: the structured content, the text form and whether it is an error. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

export interface ToolResult {
  structured: any;
  text: string;
  isError: boolean;
  /** The serialized result, as it crossed the pipe (for the budget). */
  raw: string;
}

export async function startMcp(
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: {
    era?: '2025' | '2026';
    clientName?: string;
    /** The host asks the user (MCP elicitation): the answer it gives to each question. */
    elicit?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
  } = {},
): Promise<McpSession> {
  const client = new Client(
    { name: opts.clientName ?? 'store-tests', version: '1.0.0' },
    {
      ...(opts.era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}),
      ...(opts.elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (opts.elicit) {
    const answer = opts.elicit;
    client.setRequestHandler('elicitation/create', async (request: { params: { message: string } }) => answer(request.params.message));
  }
  const fullEnv = Object.fromEntries(Object.entries({ ...process.env, NO_COLOR: '1', ...env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: fullEnv, stderr: 'pipe' });
  let stderr = '';
  const errStream = transport.stderr as PassThrough | null;
  // Decoded as a stream, not chunk by chunk: a character split between two chunks stays whole.
  errStream?.setEncoding('utf8');
  errStream?.on('data', (d: string) => {
    stderr += d;
  });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async call(name, callArgs = {}) {
      const result = (await client.callTool({ name, arguments: callArgs })) as { structuredContent?: unknown; content?: { type: string; text?: string }[]; isError?: boolean };
      const text = (result.content ?? []).map((c) => c.text ?? '').join('\n');
      return { structured: result.structuredContent, text, isError: Boolean(result.isError), raw: JSON.stringify(result) };
    },
    async close() {
      await client.close();
      // The secrets check of the suite (test/global-setup.ts) reads what the server printed on stderr too.
      const result = { code: 0, stdout: '', stderr };
      cliTranscript.push(result);
      recordTranscript(['mcp', ...args], env, result, false);
    },
  };
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv } from '../helpers/sandbox.js';

/**
 * Issue 31, "Bounded input": what the user hands the CLI (a --jq filter, a CSV line, standard input) cannot take
 * its memory or disk without bound, and each limit is one sentence. The real binary, where stderr must hold that
 * sentence and nothing else.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  env = cliEnv(sandbox, 'bounded-input');
});
afterAll(() => sandbox?.close());

describe('--jq', () => {
  it('a filter that fills jq\'s memory is one sentence and exit 2, not the engine\'s "Aborted()" and a stack', async () => {
    // A string doubled until it passes jq's heap, as `[range(1e9)]|length` does more slowly.
    const filter = 'reduce range(40) as $i ("x"; . + .) | length';
    const r = await runCli(['orders', 'list', '--limit', '1', '--jq', filter], { env });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `${JSON.stringify({ error: { message: `--jq ${filter}: jq ran out of memory (it may use 256 MB); filter fewer records (--limit, --json FIELDS) or build smaller values.`, exit_code: 2 } })}\n`,
    );
    expect(r.code).toBe(2);
  });
});

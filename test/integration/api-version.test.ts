import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, requestRecorder } from '../helpers/sandbox.js';

/**
 * `--api-version v1|2025-03` and the profile's `api-version` setting (docs/platform.md §12): every path of a command
 * names the version, the sandbox serves both, and an unknown version is refused before any request.
 */

const recorder = requestRecorder();
let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
const store = async (...args: string[]) => {
  recorder.take();
  const result = await runInProcess(args, { env });
  return { ...result, requests: recorder.take() };
};

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0, onRequest: recorder.onRequest });
  env = cliEnv(sandbox, 'api-version');
});
afterAll(() => sandbox?.close());

describe('--api-version', () => {
  it('defaults to v1: every request of a command names /v1/{store_id}', async () => {
    const res = await store('orders', 'list', '--limit', '3', '--json', 'id');
    expect(res.code).toBe(0);
    expect(res.requests.length).toBeGreaterThan(0);
    expect(new Set(res.requests.map((r) => r.version))).toEqual(new Set(['v1']));
  });

  it('--api-version 2025-03 sends every request, reads and writes, under /2025-03/{store_id}, and the sandbox answers them', async () => {
    const list = await store('orders', 'list', '--limit', '2', '--json', 'id', '--api-version', '2025-03');
    expect(list.code).toBe(0);
    const ids = (JSON.parse(list.stdout) as { id: number }[]).map((o) => o.id);
    expect(ids).toHaveLength(2);
    expect(new Set(list.requests.map((r) => r.version))).toEqual(new Set(['2025-03']));

    const update = await store('orders', 'update', String(ids[0]), '--note', 'versioned', '--api-version', '2025-03', '--json');
    expect(update.code).toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({ id: ids[0], owner_note: 'versioned' });
    expect(update.requests.some((r) => r.method === 'PUT' && r.path === `/orders/${ids[0]}`)).toBe(true);
    expect(new Set(update.requests.map((r) => r.version))).toEqual(new Set(['2025-03']));
  });

  it('STORE_API_VERSION is the flag from the environment', async () => {
    const res = await runInProcess(['products', 'list', '--limit', '1', '--json', 'id'], { env: { ...env, STORE_API_VERSION: '2025-03' } });
    expect(res.code).toBe(0);
    expect(new Set(recorder.take().map((r) => r.version))).toEqual(new Set(['2025-03']));
  });

  it('an unknown version is one sentence and exit 2, before any request', async () => {
    const res = await store('orders', 'list', '--api-version', 'v2');
    expect(res.code).toBe(2);
    expect(res.stderr.trim()).toBe('Error: Unknown API version "v2" (--api-version); the platform\'s versions are v1 and 2025-03.');
    expect(res.requests).toEqual([]);
  });
});

describe('the api-version setting of the profile', () => {
  it('store config set api-version 2025-03 moves every later request; the flag wins; unset goes back to v1', async () => {
    const set = await store('config', 'set', 'api-version', '2025-03');
    expect(set.code).toBe(0);
    const listed = await store('config', 'get', 'api-version');
    expect(listed.stdout.trim()).toBe('2025-03');

    const res = await store('products', 'list', '--limit', '1', '--json', 'id');
    expect(res.code).toBe(0);
    expect(new Set(res.requests.map((r) => r.version))).toEqual(new Set(['2025-03']));

    const flagged = await store('products', 'list', '--limit', '1', '--json', 'id', '--api-version', 'v1');
    expect(new Set(flagged.requests.map((r) => r.version))).toEqual(new Set(['v1']));

    expect((await store('config', 'unset', 'api-version')).code).toBe(0);
    const back = await store('products', 'list', '--limit', '1', '--json', 'id');
    expect(new Set(back.requests.map((r) => r.version))).toEqual(new Set(['v1']));
  });

  it('a version the setting cannot hold is refused when set, naming the versions', async () => {
    const res = await store('config', 'set', 'api-version', '2024-01');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('api-version "2024-01" is not v1 or 2025-03.');
    expect(res.requests).toEqual([]);
  });
});

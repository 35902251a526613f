import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';

// The sandbox profile against the real shared sandbox (a detached `store sandbox serve` in this test's own
// XDG dirs), stopped at the end.

let dir: string;
let env: NodeJS.ProcessEnv;
const store = (args: string[]) => runInProcess(args, { env });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-auth-sandbox-'));
  env = {
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
    STORE_TOKEN: '',
    STORE_ID: '',
    STORE_PROFILE: '',
  };
});

afterAll(async () => {
  await store(['sandbox', 'stop']);
  await rm(dir, { recursive: true, force: true });
});

describe('the sandbox profile', () => {
  it('is created on first use of --profile sandbox, starting the shared sandbox', async () => {
    const status = await store(['auth', 'status', '--profile', 'sandbox', '--json']);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout);
    expect(report).toMatchObject({ profile: 'sandbox', tokenSource: 'sandbox', accepted: true });
    const profiles = JSON.parse((await store(['auth', 'list', '--json'])).stdout);
    expect(profiles).toEqual([expect.objectContaining({ name: 'sandbox', secretsStore: 'sandbox', storeId: report.storeId })]);
  });

  it('store auth login --sandbox makes it the default, and it follows the sandbox across a restart', async () => {
    const login = await store(['auth', 'login', '--sandbox']);
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/Logged in to store \d+ as profile "sandbox"/);

    expect((await store(['sandbox', 'stop'])).code).toBe(0);
    const api = await store(['api', 'GET', '/store']);
    expect(api.code).toBe(0);
    const after = JSON.parse((await store(['auth', 'list', '--json'])).stdout)[0];
    expect(after).toMatchObject({ name: 'sandbox', default: true });
    expect(JSON.parse(api.stdout).id).toBe(Number(after.storeId));
  });
});

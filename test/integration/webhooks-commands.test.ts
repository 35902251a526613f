import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';

/** `store webhooks add|list|update|delete` run as a user would, against an in-process sandbox on loopback. */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

interface WebhookJson {
  id: number;
  event: string;
  url: string;
  /** Absent when the webhook has none (platform.md §7). */
  headers?: Record<string, string>;
}

async function listJson(...extra: string[]): Promise<WebhookJson[]> {
  const res = await store('webhooks', 'list', '--json', ...extra);
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  return JSON.parse(res.stdout) as WebhookJson[];
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'empty', rate: 'off', host: '127.0.0.1', port: 0 });
  env = cliEnv(sandbox, 'webhooks');
});

afterAll(async () => {
  await sandbox?.close();
});

describe('store webhooks add, list, update, delete', () => {
  it('walks one webhook through its life', async () => {
    const added = await store('webhooks', 'add', 'order/created', 'https://example.com/hooks/orders', '--header', 'X-Api-Key=abc=123', '--json');
    expect(added.code).toBe(0);
    const webhook = JSON.parse(added.stdout) as WebhookJson;
    expect(webhook).toMatchObject({ event: 'order/created', url: 'https://example.com/hooks/orders', headers: { 'X-Api-Key': 'abc=123' } });

    // Piped, the table is tab-separated; it shows header names, never their values.
    const table = await store('webhooks', 'list');
    expect(table.code).toBe(0);
    const [head, row] = table.stdout.trimEnd().split('\n');
    expect(head).toBe('id\tevent\turl\theaders\tcreated_at');
    expect(row!.split('\t').slice(0, 4)).toEqual([String(webhook.id), 'order/created', 'https://example.com/hooks/orders', 'X-Api-Key']);
    expect(table.stdout).not.toContain('abc=123');

    const local = await store('webhooks', 'add', 'order/paid', 'http://127.0.0.1:9/paid', '--json');
    expect(local.code).toBe(0);
    expect((await listJson()).map((w) => w.event)).toEqual(['order/created', 'order/paid']);
    expect((await listJson('--event', 'order/paid')).map((w) => w.url)).toEqual(['http://127.0.0.1:9/paid']);

    const moved = await store('webhooks', 'update', String(webhook.id), '--url', 'https://example.com/hooks/v2', '--json');
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ id: webhook.id, url: 'https://example.com/hooks/v2', headers: { 'X-Api-Key': 'abc=123' } });

    const rekeyed = await store('webhooks', 'update', String(webhook.id), '--header', 'X-Api-Key=new', '--header', 'X-Env=test', '--json');
    expect(JSON.parse(rekeyed.stdout).headers).toEqual({ 'X-Api-Key': 'new', 'X-Env': 'test' });
    const cleared = await store('webhooks', 'update', String(webhook.id), '--clear-headers', '--json');
    expect(cleared.code).toBe(0);
    // The store leaves `headers` out of a webhook without any: read, and shown as no header names.
    expect(JSON.parse(cleared.stdout).headers).toBeUndefined();
    const bare = (await store('webhooks', 'list', '--event', 'order/created')).stdout.trimEnd().split('\n')[1]!.split('\t');
    expect(bare.slice(0, 4)).toEqual([String(webhook.id), 'order/created', 'https://example.com/hooks/v2', '']);

    const unconfirmed = await store('webhooks', 'delete', String(webhook.id));
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('pass --yes when not running in a terminal');

    const deleted = await store('webhooks', 'delete', String(webhook.id), '--yes');
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain(`Deleted webhook ${webhook.id}.`);
    expect((await listJson()).map((w) => w.event)).toEqual(['order/paid']);
  });

  it('registers the documented events the sandbox once did not know, such as order/packed, without a warning', async () => {
    for (const event of ['order/packed', 'fulfillment_order/status_updated', 'theme/updated']) {
      const added = await store('webhooks', 'add', event, `https://example.com/hooks/${event}`, '--json');
      expect(added.code, added.stderr).toBe(0);
      expect(added.stderr).toBe('');
      expect(JSON.parse(added.stdout)).toMatchObject({ event, url: `https://example.com/hooks/${event}` });
    }
    expect((await listJson('--event', 'order/packed')).map((w) => w.event)).toEqual(['order/packed']);
  });

  it('sends a well-formed event it does not know with a one-line warning suggesting the closest, and says the store refused it', async () => {
    const unknown = await store('webhooks', 'add', 'order/payed', 'https://example.com/h', '--debug');
    expect(unknown.stderr).toContain('Warning: order/payed is not a documented event; did you mean order/paid or order/packed? Sending it anyway.\n');
    // It was sent: the store (here the sandbox) answers 422; its list of every event is not repeated.
    expect(unknown.stderr).toMatch(/→ POST .*\/webhooks/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Error: The store refused the event order/payed (HTTP 422: not one it knows).\n');
    expect(unknown.stdout).toBe('');
    const far = await store('webhooks', 'add', 'order/shipped', 'https://example.com/h');
    expect(far.stderr).toBe('Warning: order/shipped is not a documented event; --help lists them. Sending it anyway.\nError: The store refused the event order/shipped (HTTP 422: not one it knows).\n');
  });

  it('checks the event, the URL, the headers and the id before sending anything (exit 2, naming the argument)', async () => {
    const badEvent = await store('webhooks', 'add', 'order shipped', 'https://example.com/h');
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toContain('EVENT "order shipped" is not a webhook event name; events are resource/action, such as order/created');

    const badUrl = await store('webhooks', 'add', 'order/created', 'http://example.com/h');
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('URL "http://example.com/h" must use https');

    const badUpdateUrl = await store('webhooks', 'update', '1', '--url', 'ftp://example.com');
    expect(badUpdateUrl.code).toBe(2);
    expect(badUpdateUrl.stderr).toContain('--url "ftp://example.com" is not a URL');

    const badHeader = await store('webhooks', 'add', 'order/created', 'https://example.com/h', '--header', 'X-Linkedstore-Hmac-Sha256=x');
    expect(badHeader.code).toBe(2);
    expect(badHeader.stderr).toContain('--header X-Linkedstore-Hmac-Sha256 is set by the store');

    const badId = await store('webhooks', 'delete', 'abc', '--yes');
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('ID "abc" is not a webhook id');

    const nothing = await store('webhooks', 'update', '1');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nothing to change: give --url, --header or --clear-headers.');

    expect(badEvent.stdout + badUrl.stdout + badHeader.stdout).toBe('');
  });

  it('names the webhook that does not exist (exit 1) and passes on the store refusing a duplicate (exit 2)', async () => {
    const update = await store('webhooks', 'update', '999', '--url', 'https://example.com/x');
    expect(update.code).toBe(1);
    expect(update.stderr).toContain('Webhook 999 not found.');
    const del = await store('webhooks', 'delete', '999', '--yes');
    expect(del.code).toBe(1);
    expect(del.stderr).toContain('Webhook 999 not found.');

    expect((await store('webhooks', 'add', 'product/created', 'https://example.com/p')).code).toBe(0);
    const again = await store('webhooks', 'add', 'product/created', 'https://example.com/p');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/Invalid request: url already receives product\/created \(webhook \d+\)\./);
  });
});

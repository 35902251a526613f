import { describe, expect, it } from 'vitest';
import { useCliSandbox } from '../helpers/cli-sandbox.js';

/** docs/platform.md §12: the client knows the location/* events — added without the undocumented-event warning. */
const s = useCliSandbox('location-events');

describe('location/* webhook events in the CLI', () => {
  it.each(['location/created', 'location/updated', 'location/deleted'])('webhooks add %s: no warning, and the store keeps it', async (event) => {
    const res = await s.run('webhooks', 'add', event, `https://example.com/hooks/${event.replace('/', '-')}`, '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toMatch(/not a documented event/);
    expect(JSON.parse(res.stdout)).toMatchObject({ event });
  });
});

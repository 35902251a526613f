import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';

/**
 * Issue 31, "Symlinks replaced": every file `store` writes whole (exports, --report, --plan-out, the config) is
 * written to a temporary file and renamed over its target (util/atomic-file.ts). When the target is a symbolic
 * link, the rename must land on the file the link points to: the link stays a link, and the data is where it
 * points (a dotfiles manager, a report path kept in a shared folder).
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
let runs = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'symlinked-outputs-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off' });
  env = cliEnv(sandbox, 'symlinked-outputs');
});
afterAll(async () => {
  await sandbox?.close();
});

/** A link in `links/` to `name` in another directory `real/`; the target exists with `old` text unless undefined (dangling). */
function linkTo(name: string, old: string | undefined): { link: string; target: string } {
  const base = join(dir, `case-${++runs}`);
  mkdirSync(join(base, 'links'), { recursive: true });
  mkdirSync(join(base, 'real'));
  const target = join(base, 'real', name);
  if (old !== undefined) writeFileSync(target, old);
  const link = join(base, 'links', name);
  // Relative, as `ln -s ../real/x` makes it: resolved from the link's own directory.
  symlinkSync(join('..', 'real', name), link);
  return { link, target };
}

function expectStillALink(link: string, target: string): void {
  expect(lstatSync(link).isSymbolicLink()).toBe(true);
  expect(join(link, '..', readlinkSync(link))).toBe(target);
}

describe('a symbolic link as the output path is written through, never replaced', () => {
  it('products export FILE: the link stays, the export is in the file it points to', async () => {
    const { link, target } = linkTo('catalog.csv', 'old export\n');
    const r = await runInProcess(['products', 'export', link], { env });
    expect(r.code, r.stderr).toBe(0);
    expectStillALink(link, target);
    expect(readFileSync(target, 'utf8')).toMatch(/^handle,/);
  });

  it('orders export FILE through a dangling link: the file it names is created', async () => {
    const { link, target } = linkTo('orders.csv', undefined);
    const r = await runInProcess(['orders', 'export', link, '--status', 'closed'], { env });
    expect(r.code, r.stderr).toBe(0);
    expectStillALink(link, target);
    expect(readFileSync(target, 'utf8').trim().split('\n').length).toBeGreaterThan(1);
  });

  it('variants sync --report FILE and --plan-out FILE', async () => {
    const feed = join(dir, 'feed.csv');
    writeFileSync(feed, 'sku,stock\nCAM-LIN-S,4\nNO-SUCH-SKU,1\n');
    const report = linkTo('report.csv', 'old report\n');
    const failed = await runInProcess(['variants', 'sync', feed, '--report', report.link], { env });
    expect(failed.code, failed.stderr).toBe(3);
    expectStillALink(report.link, report.target);
    expect(readFileSync(report.target, 'utf8')).toContain('NO-SUCH-SKU');

    const plan = linkTo('plan.json', 'old plan\n');
    const planned = await runInProcess(['variants', 'sync', feed, '--plan-out', plan.link, '--skip-invalid'], { env });
    expect([0, 3]).toContain(planned.code);
    expectStillALink(plan.link, plan.target);
    expect(readFileSync(plan.target, 'utf8')).not.toBe('old plan\n');
  });

  it("the config: a login keeps a config.json that is a link (a dotfiles manager's)", async () => {
    const { link, target } = linkTo('config.json', '{"profiles":{}}\n');
    const configHome = join(link, '..', '..', 'xdg');
    mkdirSync(join(configHome, 'store'), { recursive: true });
    symlinkSync(link, join(configHome, 'store', 'config.json'));
    const r = await runInProcess(
      ['auth', 'login', '--with-token', '--profile', 'linked', '--store-id', String(sandbox.storeId), '--api-url', sandbox.apiUrl,
        '--client-id', sandbox.clientId, '--app-name', sandbox.appName, '--insecure-storage'],
      {
      env: { XDG_CONFIG_HOME: configHome, XDG_STATE_HOME: env.XDG_STATE_HOME, XDG_DATA_HOME: env.XDG_DATA_HOME },
      input: `${sandbox.accessToken}\n`,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(configHome, 'store', 'config.json')).isSymbolicLink()).toBe(true);
    expectStillALink(link, target);
    expect(JSON.parse(readFileSync(target, 'utf8')).profiles).toHaveProperty('linked');
  });
});

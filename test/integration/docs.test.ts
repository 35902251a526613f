import { execFile, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, type CliResult } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv } from '../helpers/sandbox.js';

// What docs/ tells a newcomer must be true: the command reference is the one the commands generate today, and
// the example files and the nightly cron script work against a sandbox as they stand.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(ROOT, 'docs', 'examples');
const REFERENCE = join(ROOT, 'docs', 'commands');

const work = mkdtempSync(join(tmpdir(), 'store-docs-'));
const sandboxes: RunningSandbox[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  rmSync(work, { recursive: true, force: true });
});

async function sandboxWith(seed: 'demo' | 'empty'): Promise<RunningSandbox> {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  const sandbox = await startSandbox({ seed, plan: 'enterprise', rate: 'off', host: '127.0.0.1', port: 0 });
  sandboxes.push(sandbox);
  return sandbox;
}

/** The variant of the store holding `sku`, as the API returns it; undefined when none does. */
async function variant(sandbox: RunningSandbox, sku: string): Promise<{ sku: string; stock: number | null; price: string } | undefined> {
  const res = await clientFor(sandbox).get(`/products/sku/${encodeURIComponent(sku)}`);
  if (res.status === 404) return undefined;
  expect(res.status).toBe(200);
  return (res.body as { variants: { sku: string; stock: number | null; price: string }[] }).variants.find((v) => v.sku === sku);
}

describe('docs/commands', () => {
  it('is what `npm run docs` generates from the commands today', async () => {
    // oclif readme resolves --output-dir against the project; .vitest-tmp/ is ignored by git.
    const out = join('.vitest-tmp', `docs-commands-${process.pid}`);
    rmSync(join(ROOT, out), { recursive: true, force: true });
    const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { docs: string } }).scripts.docs;
    const args = script.replace(/^oclif /, '').replace('--output-dir docs/commands', `--output-dir ${out}`).split(' ');
    expect(args).toContain(out);
    try {
      await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'oclif'), args, { cwd: ROOT });
      const generated = readdirSync(join(ROOT, out)).sort();
      expect(generated).toContain('orders.md');
      expect(readdirSync(REFERENCE).filter((f) => f !== 'README.md').sort()).toEqual(generated);
      for (const file of generated) {
        expect(readFileSync(join(REFERENCE, file), 'utf8'), `docs/commands/${file} is stale: run npm run docs`).toBe(
          readFileSync(join(ROOT, out, file), 'utf8'),
        );
      }
      const index = readFileSync(join(REFERENCE, 'README.md'), 'utf8');
      const linked = [...index.matchAll(/\]\(([\w-]+\.md)\)/g)].map((m) => m[1]).sort();
      expect(linked).toEqual(generated);
    } finally {
      rmSync(join(ROOT, out), { recursive: true, force: true });
    }
  });
});

describe('README.md', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
    commands: Record<string, { flags: Record<string, unknown> }>;
  };
  /** Commands of the plugins, which the project's manifest does not list. */
  const PLUGIN_COMMANDS: Record<string, string[]> = { help: [], autocomplete: ['refresh-cache'], 'autocomplete:script': [] };

  /** Every `store …` invocation README shows: lines of its sh blocks (the first one as `node bin/run.js …`) and inline code. */
  function invocations(): string[] {
    const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
    const fromBlocks = blocks
      .flatMap((b) => b.split(/\n|&&/))
      .map((l) => l.replace(/#.*$/, '').replace(/>.*$/, '').trim().replace(/^node bin\/run\.js /, 'store '))
      .filter((l) => l.startsWith('store '));
    const inline = [...readme.matchAll(/`(store [^`]+)`/g)].flatMap(([, code]) => {
      const words = code!.split(' ');
      return words.at(-1)!.split('|').map((last) => [...words.slice(0, -1), last].join(' '));
    });
    return [...new Set([...fromBlocks, ...inline])];
  }

  it('its first command, which .ci/run runs in a fresh clone before the tests, installs and runs the main job on the sandbox', async () => {
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    const program = /first_command=\$\(awk '([^']+)' README\.md\)/.exec(ci)?.[1];
    expect(program, '.ci/run takes the first command from README.md with awk').toBeDefined();
    const { stdout } = await promisify(execFile)('awk', [program!, join(ROOT, 'README.md')]);
    const steps = stdout.trim().split(' && ');
    expect(steps.slice(0, 2)).toEqual(['npm ci', 'npm run build']);
    expect(steps).toEqual(expect.arrayContaining(['node bin/run.js auth login --sandbox', 'node bin/run.js products import docs/examples/catalog.csv']));
    // Run with errexit and pipefail, before the tests: a failing step fails CI.
    expect(ci.indexOf('bash -euo pipefail -c "$first_command"')).toBeGreaterThan(0);
    expect(ci.indexOf('bash -euo pipefail -c "$first_command"')).toBeLessThan(ci.indexOf('npm test'));
  });

  it.each(invocations().map((line) => [line]))('`%s` names a command and only flags it has', (line) => {
    const words = line.split(/\s+/).slice(1);
    const topics = words.filter((w, i) => !w.startsWith('-') && words.slice(0, i).every((x) => !x.startsWith('-')));
    let id = '';
    for (let n = topics.length; n > 0 && !id; n--) {
      const candidate = topics.slice(0, n).join(':');
      if (manifest.commands[candidate] || PLUGIN_COMMANDS[candidate]) id = candidate;
    }
    expect(id, `no command in ${line}`).not.toBe('');
    const known = [...Object.keys(manifest.commands[id]?.flags ?? {}), ...(PLUGIN_COMMANDS[id] ?? []), 'help'];
    const flags = words.filter((w) => w.startsWith('--')).map((w) => w.slice(2).split('=')[0]!);
    expect(flags.filter((f) => !known.includes(f))).toEqual([]);
  });
});

describe('docs/examples', () => {
  it('catalog.csv, stock-feed.csv and invoices.csv import cleanly into the demo sandbox; importing the catalog again sends no write', async () => {
    const sandbox = await sandboxWith('demo');
    const env = cliEnv(sandbox, 'docs-examples');
    const imported = await runInProcess(['products', 'import', join(EXAMPLES, 'catalog.csv')], { env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('2 created, 0 updated, 0 unchanged, 0 failed');

    const again = await runInProcess(['products', 'import', join(EXAMPLES, 'catalog.csv')], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('0 created, 0 updated, 2 unchanged, 0 failed');

    const synced = await runInProcess(['variants', 'sync', join(EXAMPLES, 'stock-feed.csv')], { env });
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toContain('3 updated, 0 unchanged, 0 failed');
    expect(await variant(sandbox, 'REM-S-BL')).toMatchObject({ stock: 12, price: '12000.00' });
    expect(await variant(sandbox, 'REM-M-BL')).toMatchObject({ stock: 7, price: '12500.00' });
    expect(await variant(sandbox, 'TAZA-350')).toMatchObject({ stock: 25, price: '4600.00' });

    const invoices = await runInProcess(['invoices', 'attach', '--file', join(EXAMPLES, 'invoices.csv'), '--json'], { env });
    expect(invoices.code, invoices.stderr).toBe(0);
    expect(JSON.parse(invoices.stdout)).toMatchObject({ rows: 2, attached: 2, failed: [] });
  });

  describe('nightly-catalog.sh', () => {
    let sandbox: RunningSandbox;
    let bin: string;
    beforeAll(async () => {
      sandbox = await sandboxWith('empty');
      // `store` on PATH, as `npm install -g` puts it.
      bin = join(work, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'store'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
      chmodSync(join(bin, 'store'), 0o755);
    });

    /** Runs the script as cron would: `sh`, only the environment given, a feed directory holding `files`. */
    function nightly(files: Record<string, string>, unset: string[] = []): Promise<CliResult & { dir: string }> {
      const dir = mkdtempSync(join(work, 'feed-'));
      for (const [name, source] of Object.entries(files)) copyFileSync(source, join(dir, name));
      const env: NodeJS.ProcessEnv = { ...cliEnv(sandbox, 'nightly'), PATH: `${bin}:${process.env.PATH}`, HOME: work, STORE_FEED_DIR: dir };
      for (const name of unset) delete env[name];
      return new Promise((resolve, reject) => {
        const child = spawn('sh', [join(EXAMPLES, 'nightly-catalog.sh')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr, dir }));
      });
    }

    it('imports the catalog and syncs the stock with credentials from the environment, silently, exit 0', async () => {
      const feed = { 'catalog.csv': join(EXAMPLES, 'catalog.csv'), 'stock.csv': join(EXAMPLES, 'stock-feed.csv') };
      const first = await nightly(feed);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toBe('');
      expect(await variant(sandbox, 'REM-M-BL')).toMatchObject({ stock: 7, price: '12500.00' });
      expect(await variant(sandbox, 'TAZA-350')).toMatchObject({ stock: 25, price: '4600.00' });
      // --zero-missing: the variant the feed leaves out is sold out.
      expect(await variant(sandbox, 'REM-M-NG')).toMatchObject({ stock: 0 });

      const second = await nightly(feed);
      expect(second.code, second.stderr).toBe(0);
    });

    it('stops with exit 2 on an invalid catalog, before the stock sync', async () => {
      const bad = join(work, 'bad-catalog.csv');
      writeFileSync(bad, 'handle,name,price\nbroken,Broken,not-a-price\n');
      const run = await nightly({ 'catalog.csv': bad, 'stock.csv': join(EXAMPLES, 'stock-feed.csv') });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('catalog.csv is invalid; nothing was sent');
      const left = await clientFor(sandbox).get('/products', { query: { handle: 'broken' } });
      expect(left.status === 404 ? [] : left.body).toEqual([]);
    });

    it('refuses to run without credentials in the environment', async () => {
      const run = await nightly({}, ['STORE_API_URL']);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('STORE_API_URL: is not set');
      expect(existsSync(join(run.dir, 'catalog.csv'))).toBe(false);
    });
  });
});

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a user gets from `npm pack` + `npm install -g`: the tarball holds what the installed CLI needs, and the
// installed `store` runs from anywhere with its dependencies resolved by npm (not from this checkout).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; license: string };
const run = promisify(execFile);

const work = mkdtempSync(join(tmpdir(), 'store-pack-'));
const packDir = join(work, 'pack');
const prefix = join(work, 'prefix');
const cwd = join(work, 'empty');
const env = {
  ...process.env,
  NO_COLOR: '1',
  // Credentials of the environment would take the place of the sandbox profile the tests log in to.
  STORE_TOKEN: '',
  STORE_ID: '',
  STORE_PROFILE: '',
  HOME: join(work, 'home'),
  XDG_CONFIG_HOME: join(work, 'config'),
  XDG_STATE_HOME: join(work, 'state'),
  XDG_DATA_HOME: join(work, 'data'),
  XDG_CACHE_HOME: join(work, 'cache'),
};
const store = join(prefix, 'bin', 'store');
let packed: string[];
let installWarnings: string;
let sandbox: ChildProcess | undefined;

beforeAll(async () => {
  for (const dir of [packDir, prefix, cwd, env.HOME]) mkdirSync(dir, { recursive: true });
  // --ignore-scripts: prepack would rebuild dist/ while the other integration tests run it; `npm test` has just
  // built it (pretest).
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], { cwd: ROOT });
  const [info] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  packed = info.files.map((f) => f.path);
  // npm's own cache (the real one, not the temp HOME) lets dependencies come from disk when it has them.
  // better-sqlite3 12.x (the run ledger on Node 20; installed on every line) compiles from source here, as on a
  // user's machine without a prebuilt binary:
  // 90 s on an idle machine, far more on a loaded one, hence the hook's long limit.
  const install = await run(
    'npm',
    ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', join(packDir, info.filename)],
    { cwd, env: { ...process.env } },
  );
  installWarnings = install.stderr;
}, 600_000);

afterAll(async () => {
  // The shared sandbox `auth login --sandbox` started, in this file's XDG dirs.
  await storeCli(['sandbox', 'stop']).catch(() => undefined);
  if (sandbox?.exitCode === null) {
    sandbox.kill('SIGTERM');
    await new Promise((resolve) => sandbox!.once('exit', resolve));
  }
  rmSync(work, { recursive: true, force: true });
});

function storeCli(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  return run(store, args, { cwd, env: { ...env, ...extraEnv } });
}

describe('the packed and installed CLI', () => {
  it('packs the entry point, the compiled commands, the manifest and the README, and no sources or tests', () => {
    expect(packed).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'oclif.manifest.json', 'bin/run.js', 'dist/cli/base-command.js', 'dist/commands/api.js']),
    );
    expect(packed.filter((p) => /^(src|test|node_modules)\//.test(p) || (p.endsWith('.ts') && !p.endsWith('.d.ts')))).toEqual([]);
  });

  it('packs the licence, the docs README links to, and no development entry point', () => {
    expect(packed).toEqual(
      expect.arrayContaining(['LICENSE', 'docs/csv.md', 'docs/sandbox.md', 'docs/exit-codes.md', 'docs/commands/README.md', 'docs/examples/catalog.csv']),
    );
    expect(packed).not.toContain('bin/dev.js');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(new RegExp(`^${pkg.license} License\n`));
  });

  it('npm pack --dry-run lists the same files, LICENSE and docs/ among them', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: ROOT });
    const [info] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const listed = info.files.map((f) => f.path);
    expect(listed).toContain('LICENSE');
    expect(listed.filter((p) => p.startsWith('docs/')).length).toBeGreaterThan(10);
    expect(listed.sort()).toEqual([...packed].sort());
  });

  it('installs with no engine warning from npm on this Node', () => {
    expect(installWarnings).not.toContain('EBADENGINE');
  });

  it('installs the Node-API SQLite module (better-sqlite3 13) on Node 22 and later, and skips it on Node 20', () => {
    const installed = join(prefix, 'lib', 'node_modules', pkg.name, 'node_modules');
    expect(existsSync(join(installed, 'better-sqlite3', 'package.json'))).toBe(true);
    expect(existsSync(join(installed, 'better-sqlite3-napi', 'package.json'))).toBe(Number(process.versions.node.split('.')[0]) >= 22);
  });

  it('store --version and help name the same package and version', async () => {
    const line = `${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}`;
    const { stdout } = await storeCli(['--version']);
    expect(stdout).toBe(`${line}\n`);
    const help = await storeCli(['--help']);
    expect(help.stdout).toContain(`VERSION\n  ${line}\n`);
  });

  it('store auth login --sandbox, then store orders list, from the installed CLI', async () => {
    const login = await storeCli(['auth', 'login', '--sandbox']);
    expect(login.stderr).toMatch(/Logged in to store \d+ as profile "sandbox"/);
    const { stdout } = await storeCli(['orders', 'list']);
    const [header, ...rows] = stdout.trimEnd().split('\n');
    expect(header).toMatch(/^id\t/i);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/^\d+\t/);
  });

  it('store api --help shows the usage from an empty directory', async () => {
    const { stdout } = await storeCli(['api', '--help']);
    expect(stdout).toContain('USAGE\n  $ store api [METHOD] PATH');
    expect(stdout).toContain('--paginate');
  });

  it('store sandbox --help lists the sandbox commands', async () => {
    const { stdout } = await storeCli(['sandbox', '--help']);
    for (const verb of ['serve', 'status', 'stop', 'reset']) expect(stdout).toMatch(new RegExp(`^  sandbox ${verb} `, 'm'));
  });

  it('serves a sandbox and calls it with its own dependencies (fastify, got, zod)', async () => {
    const child = spawn(store, ['sandbox', 'serve', '--json', '--seed', 'empty', '--state', join(work, 'sandbox'), '--idle-timeout', '120'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    sandbox = child;
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`store sandbox serve exited with ${code}: ${stderr}`)));
    });
    const info = JSON.parse(line) as { api_url: string; store_id: number; app_name: string; client_id: string; access_token: string };

    const { stdout } = await storeCli(['api', 'GET', '/store'], {
      STORE_TOKEN: info.access_token,
      STORE_ID: String(info.store_id),
      STORE_API_URL: info.api_url,
      STORE_APP_NAME: info.app_name,
      STORE_APP_ID: info.client_id,
    });
    expect(JSON.parse(stdout)).toMatchObject({ id: info.store_id });

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

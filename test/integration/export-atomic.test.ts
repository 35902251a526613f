import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { BIN } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';

/**
 * `store products export FILE` never destroys the previous FILE: it writes a temporary file beside it and
 * renames it at the end. A proxy in front of the sandbox fills the first products page up to the 200 asked for
 * (copies of its last product under new ids), so the walk by since_id goes on, and never answers the next page:
 * the export is caught with rows written and the work half done.
 */

let sandbox: RunningSandbox;
let proxyUrl: string;
let closeProxy: () => Promise<void>;
let onHeldPage: (() => void) | undefined;
const held: ServerResponse[] = [];

const OLD = 'handle,name,sku,price\nvieja,Vieja,V-1,1.00\n';

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', rate: 'off' });
  const target = new URL(sandbox.apiUrl);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const products = /^\/v1\/\d+\/products$/.test(url.pathname) && req.method === 'GET';
    if (products && Number(url.searchParams.get('since_id') ?? 0) > 0) {
      held.push(res);
      onHeldPage?.();
      return;
    }
    const headers = { ...req.headers };
    if (products) delete headers['accept-encoding'];
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        if (!products) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const page = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<Record<string, unknown>>;
          const last = page.at(-1)!;
          for (let k = 1; page.length < 200; k++) page.push({ ...last, id: Number(last.id) + k, handle: { es: `copia-${k}` } });
          const body = JSON.stringify(page);
          const { 'content-length': _length, ...rest } = answer.headers;
          res.writeHead(answer.statusCode ?? 502, { ...rest, 'x-total-count': '9999', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeProxy = () =>
    new Promise((resolve) => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
});

afterAll(async () => {
  await closeProxy?.();
  await sandbox?.close();
});

function freshDir(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'export-atomic-'));
  const file = join(dir, 'catalog.csv');
  writeFileSync(file, OLD);
  return { dir, file };
}

/** Starts an export through the proxy; resolves once it waits on the held page, with the child to stop. */
function exportHeld(file: string) {
  const env = { ...process.env, NO_COLOR: '1', ...cliEnv(sandbox, 'export-atomic'), STORE_API_URL: proxyUrl };
  const child = spawn(process.execPath, [BIN, 'products', 'export', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  const waiting = new Promise<void>((resolve) => (onHeldPage = resolve));
  return { child, exited, waiting };
}

describe('products export FILE', () => {
  it('SIGKILL mid-way: the previous file is byte-identical and nothing partial has its name', async () => {
    const { dir, file } = freshDir();
    const run = exportHeld(file);
    await run.waiting;
    // The first page's rows were written, to the temporary file only.
    const temp = readdirSync(dir).filter((name) => name !== 'catalog.csv');
    expect(temp).toHaveLength(1);
    expect(temp[0]).toMatch(/^\.catalog\.csv\.\d+\.[a-z0-9]+\.tmp$/);
    run.child.kill('SIGKILL');
    const { signal } = await run.exited;
    expect(signal).toBe('SIGKILL');
    expect(readFileSync(file, 'utf8')).toBe(OLD);
  });

  it('Ctrl-C mid-way exits 130, keeps the previous file and removes the temporary one', async () => {
    const { dir, file } = freshDir();
    const run = exportHeld(file);
    await run.waiting;
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code).toBe(130);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
    expect(readdirSync(dir)).toEqual(['catalog.csv']);
  });

  it('a 401 keeps the previous file byte-identical and leaves no other file', async () => {
    const { dir, file } = freshDir();
    const r = await runInProcess(['products', 'export', file], { env: { ...cliEnv(sandbox, 'export-atomic'), STORE_TOKEN: 'not-the-token-of-this-store' } });
    expect(r.code, r.stderr).toBe(4);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
    expect(readdirSync(dir)).toEqual(['catalog.csv']);
  });

  it('a missing directory is one sentence and exit 2', async () => {
    const { dir } = freshDir();
    const missing = join(dir, 'no-such-dir', 'catalog.csv');
    const r = await runInProcess(['products', 'export', missing], { env: cliEnv(sandbox, 'export-atomic') });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`Error: Cannot write ${missing}: the directory ${join(dir, 'no-such-dir')} does not exist.`);
    expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
  });

  it('a finished export replaces the file; a name starting with \'= survives export and import unchanged', async () => {
    const { dir, file } = freshDir();
    const env = cliEnv(sandbox, 'export-atomic');
    const source = join(dir, 'quoted.csv');
    // In a CSV a leading quote before "=" is the export's escape, so the store's "'=1+1" is written "''=1+1".
    writeFileSync(source, `handle,name,sku,price\ncomilla,"''=1+1",Q-1,5\nformula,=2+2,Q-2,5\n`);
    expect((await runInProcess(['products', 'import', source], { env })).code).toBe(0);
    const names = () =>
      sandbox.state.defaultStore()!.products.list().filter((p) => ['comilla', 'formula'].includes(String(Object.values(p.handle)[0])))
        .map((p) => Object.values(p.name)[0]).sort();
    expect(names()).toEqual(["'=1+1", '=2+2']);

    const exported = await runInProcess(['products', 'export', file], { env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toBe(OLD);
    expect(readdirSync(dir).sort()).toEqual(['catalog.csv', 'quoted.csv']);
    const again = await runInProcess(['products', 'import', file], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/0 created, 0 updated/);
    expect(names()).toEqual(["'=1+1", '=2+2']);
  });
});

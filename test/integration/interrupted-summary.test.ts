import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { cliEnv } from '../helpers/sandbox.js';

/**
 * Issue 31, "Ctrl-C garbles the summary": a bulk job stopped by Ctrl-C or SIGTERM while it writes finishes the
 * requests in flight, then prints a summary that says "Interrupted" and what was written (kept in the journal
 * for --resume) — never "Imported"/"Synced", as if the file were done — and exits 130/143. The real binary,
 * stopped by a real signal while the sandbox holds its first write.
 */

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
let hold: Promise<void> | undefined;
let writeArrived: () => void = () => {};
let writes = 0;
/** The first write the sandbox holds: 2 lets one through (the job is then writing), 1 holds the very first. */
let holdFrom = 2;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({
    seed: 'demo',
    rate: 'off',
    host: '127.0.0.1',
    port: 0,
    onRequest: async (req) => {
      // The first write goes through (the job is then writing); the next ones wait for the test.
      if (hold && req.method !== 'GET' && ++writes >= holdFrom) {
        writeArrived();
        await hold;
      }
    },
  });
  env = cliEnv(sandbox, 'interrupted-summary');
  dir = mkdtempSync(join(tmpdir(), 'interrupted-summary-'));
});
afterAll(async () => {
  await sandbox?.close();
});

for (const [signal, code, first] of [
  ['SIGINT', 130, 2],
  ['SIGTERM', 143, 2],
  // The stop comes while the job's very first write is in flight: it is writing already, so it finishes it too.
  ['SIGINT', 130, 1],
] as const) {
  it(`products import stopped by ${signal} while writing${first === 1 ? ' its first request' : ''}: the summary says Interrupted and what was written (exit ${code})`, async () => {
    const name = `${signal}-${first}`;
    const feed = join(dir, `catalog-${name}.csv`);
    const rows = Array.from({ length: 60 }, (_, i) => `nuevo-${name.toLowerCase()}-${i},Nuevo ${i},NEW-${name}-${i},10,1`);
    holdFrom = first;
    writeFileSync(feed, `handle,name,sku,price,stock\n${rows.join('\n')}\n`);
    let release!: () => void;
    writes = 0;
    hold = new Promise((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (writeArrived = resolve));
    try {
      const child = spawn(process.execPath, [BIN, 'products', 'import', feed], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      await arrived;
      child.kill(signal);
      // The CLI says it is stopping, then the request in flight is answered.
      await new Promise((r) => setTimeout(r, 300));
      release();
      hold = undefined;
      expect(await closed, stdout + stderr).toBe(code);
      const [headline, ...rest] = stdout.split('\n');
      expect(headline).toBe(
        `Interrupted: ${feed.split('/').pop()} (canonical columns): 60 rows, 60 products; what was written before the stop is counted below and kept in the journal (--resume finishes the rest).`,
      );
      expect(stdout).not.toMatch(/Imported|Stopping/);
      // What the requests in flight wrote is counted: some products, not all sixty.
      const created = Number(/products: +(\d+) created/.exec(rest.join('\n'))?.[1]);
      expect(created).toBeGreaterThanOrEqual(first === 1 ? 0 : 1);
      expect(created).toBeLessThan(60);
      expect(stderr).toContain(`Stopping after the requests in flight (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…`);
    } finally {
      release();
      hold = undefined;
    }
  });
}

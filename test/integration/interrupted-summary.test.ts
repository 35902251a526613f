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

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({
    seed: 'demo',
    rate: 'off',
    host: '127.0.0.1',
    port: 0,
    onRequest: async (req) => {
      // The first write goes through (the job is then writing); the next ones wait for the test.
      if (hold && req.method !== 'GET' && ++writes > 1) {
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

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  it(`products import stopped by ${signal} while writing: the summary says Interrupted and what was written (exit ${code})`, async () => {
    const feed = join(dir, `catalog-${signal}.csv`);
    const rows = Array.from({ length: 60 }, (_, i) => `nuevo-${signal.toLowerCase()}-${i},Nuevo ${i},NEW-${signal}-${i},10,1`);
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
      expect(created).toBeGreaterThan(0);
      expect(created).toBeLessThan(60);
      expect(stderr).toContain(`Stopping after the requests in flight (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…`);
    } finally {
      release();
      hold = undefined;
    }
  });
}

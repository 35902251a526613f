import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/store.js';
import { BIN } from '../helpers/run-cli.js';

/**
 * `store runs show --json` of a large run into a pipe read slowly (a pager, `| jq` on a busy machine): the command
 * writes a chunk only once the pipe has taken the last, so it holds one chunk, not the run's 44 MB of JSON. It held
 * 388 MiB before it waited (output/io.ts writeOut); a file as stdout (91 MiB) never showed it.
 */

const CHANGES = 100_000;
let dir: string;
let ledgerPath: string;
let runId: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'runs-show-pipe-'));
  ledgerPath = join(dir, 'ledger.db');
  const ledger = Ledger.open(ledgerPath);
  const run = ledger.startRun({ command: 'variants sync', argv: ['stock.csv'] });
  ledger.batch(() => {
    for (let b = 0; b < CHANGES / 50; b++) {
      const changes = Array.from({ length: 50 }, (_, i) => {
        const v = b * 50 + i;
        return { resource: 'variant', id: 1_000_000 + v, parent: 500_000 + Math.floor(v / 5), key: `SH-${v}`, field: 'stock', kind: 'update' as const, before: v % 97, after: v % 89 };
      });
      const first = ledger.intend(run.n, changes);
      ledger.settleRange(first, first + 49, 'confirmed');
    }
  });
  ledger.endRun(run.n, 0);
  ledger.close();
  runId = run.id;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runs show into a pipe read slowly', () => {
  it('--json waits for the pipe between chunks: every change arrives, and the process never holds the whole run', async () => {
    // The process's own peak memory, written at its exit (every thread's).
    const hook = fileURLToPath(new URL('../helpers/usage-hook.js', import.meta.url));
    const usageFile = join(dir, 'usage.json');
    const child = spawn(process.execPath, ['--import', hook, BIN, 'runs', 'show', runId, '--json'], {
      env: { ...process.env, STORE_LEDGER: ledgerPath, XDG_STATE_HOME: dir, XDG_CONFIG_HOME: dir, BENCH_USAGE_FILE: usageFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Nothing is read for 3 s: a command that does not wait for the pipe writes the whole run into its own memory
    // meanwhile; one that waits stops after the pipe's 64 KiB.
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    const shown = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { run: { id: string }; changes: { key: string; before: number; after: number }[] };
    expect(shown.run.id).toBe(runId);
    expect(shown.changes).toHaveLength(CHANGES);
    expect(shown.changes[CHANGES - 1]).toMatchObject({ key: `SH-${CHANGES - 1}`, before: (CHANGES - 1) % 97, after: (CHANGES - 1) % 89 });
    const { peakMiB } = JSON.parse(readFileSync(usageFile, 'utf8')) as { peakMiB: number };
    // 91 MiB measured waiting, 388 MiB not: the line between is far from both.
    expect(peakMiB).toBeLessThan(200);
  }, 60_000);
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, useSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * Issue 24: a report or journal that cannot be written never hides the result. The tests run as root, whom
 * permissions do not stop: the full disk is /dev/full, the read-only one /proc, and a journal directory that
 * cannot be created is one under a file. No server is reached: every case ends before the first request.
 */

const dir = mkdtempSync(join(tmpdir(), 'store-disk-cli-'));
const env = (state = join(dir, 'state')) => ({
  STORE_TOKEN: 'disk-failure-token-0123',
  STORE_ID: '1',
  STORE_API_URL: 'http://127.0.0.1:9',
  XDG_CONFIG_HOME: join(dir, 'config'),
  XDG_STATE_HOME: state,
  XDG_DATA_HOME: join(dir, 'data'),
});

const invalid = join(dir, 'invalid.csv');
writeFileSync(invalid, `handle,name,sku,price\n${Array.from({ length: 400 }, (_, i) => `p${i},P ${i},SKU-${i},abc`).join('\n')}\n`);

describe('disk failures keep the result', () => {
  for (const [what, report, cause] of [
    ['a full disk', '/dev/full', 'the disk is full'],
    ['a read-only place', '/proc/report.csv', 'no such file or directory'],
  ] as const) {
    it(`--report on ${what}: the row errors are still printed, exit 2, and one more line says the report was not written`, async () => {
      const r = await runCli(['products', 'import', invalid, '--report', report], { env: env() });
      expect(r.code).toBe(2);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines.filter((l) => /^invalid\.csv, line \d+, column 4 \(price\)/.test(l))).toHaveLength(200);
      expect(lines).toContain('… and 200 more.');
      expect(lines).toContain(`--report: cannot write ${report}: ${cause}.`);
      expect(lines.at(-1)).toMatch(/^Error: invalid\.csv has 400 errors; nothing was sent/);
    });
  }

  it('a journal directory that cannot be created is one sentence, before anything is sent', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const valid = join(dir, 'valid.csv');
    writeFileSync(valid, 'handle,name,sku,price\nok,Ok,OK-1,10\n');
    const r = await runCli(['products', 'import', valid], { env: env(join(file, 'state')) });
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `Error: Cannot create ${join(file, 'state', 'store', 'imports')}, the directory of the bulk commands' journals (under XDG_STATE_HOME): a part of the path is a file, not a directory; nothing was sent.`,
    ]);
  });

  describe('after a run', () => {
    const t = useSandbox({ seed: 'demo' });

    it('a journal that hits a full disk mid-run names it and the cause, and --resume then finishes the work', async () => {
      // In-process, to inject ENOSPC into the journal's writes (the binary has no seam, and root ignores permissions).
      const { journalFs } = (await import(/* @vite-ignore */ new URL('../../dist/services/bulk/journal.js', import.meta.url).href)) as {
        journalFs: { writeSync: (fd: number, text: string) => number };
      };
      const env = cliEnv(t.sandbox, 'disk-journal');
      const catalog = join(dir, 'catalog.csv');
      writeFileSync(catalog, 'handle,name,sku,price\njournal-full-a,Journal Full A,JF-A,10\njournal-full-b,Journal Full B,JF-B,10\n');
      const writeSync = journalFs.writeSync;
      let entries = 0;
      journalFs.writeSync = (fd, text) => {
        // The run's `begin` is written; the first write the store confirmed is not: the disk is full.
        if (++entries > 1) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        return writeSync(fd, text);
      };
      let failed;
      try {
        failed = await runInProcess(['products', 'import', catalog, '--quiet'], { env });
      } finally {
        journalFs.writeSync = writeSync;
      }
      expect(failed.code).toBe(1);
      expect(failed.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(
          /^Error: Cannot write the journal \S+\.jsonl: the disk is full; the run stopped\. The work recorded so far is kept: once that is fixed, run the same command with --resume to finish it\.$/,
        ),
      ]);
      const resumed = await runInProcess(['products', 'import', catalog, '--resume', '--json'], { env });
      expect(resumed.code).toBe(0);
      const handles = ((await t.get('/products?per_page=200')).body as { handle: Record<string, string> | string }[])
        .map((p) => (typeof p.handle === 'string' ? p.handle : Object.values(p.handle)[0]))
        .filter((h) => h?.startsWith('journal-full-'));
      expect(handles.sort()).toEqual(['journal-full-a', 'journal-full-b']);
    });

    it('a --report that cannot be written names it and the cause, says the run itself finished, and keeps the summary', async () => {
      const product = (await t.get('/products?per_page=1')).body[0];
      const sku = product.variants.find((v: { sku?: string }) => v.sku)?.sku as string;
      const feed = join(dir, 'feed.csv');
      writeFileSync(feed, `sku,stock\n${sku},7\n`);
      const r = await runCli(['variants', 'sync', feed, '--report', '/dev/full'], { env: cliEnv(t.sandbox, 'disk-sync') });
      expect(r.code).toBe(1);
      expect(r.stderr.trimEnd().split('\n').filter((line) => line.startsWith('Error:'))).toEqual([
        'Error: --report: cannot write /dev/full: the disk is full; the run itself finished, only the report is missing.',
      ]);
      // The result is not hidden by the report: the summary of what was written stands.
      expect(r.stdout).toMatch(/^Synced feed\.csv/m);
    });
  });
});

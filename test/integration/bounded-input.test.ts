import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv } from '../helpers/sandbox.js';

/**
 * Issue 31, "Bounded input": what the user hands the CLI (a --jq filter, a CSV line, standard input) cannot take
 * its memory or disk without bound, and each limit is one sentence. The real binary, where stderr must hold that
 * sentence and nothing else.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  env = cliEnv(sandbox, 'bounded-input');
  dir = mkdtempSync(join(tmpdir(), 'bounded-input-'));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--jq', () => {
  it('a filter that fills jq\'s memory is one sentence and exit 2, not the engine\'s "Aborted()" and a stack', async () => {
    // A string doubled until it passes jq's heap, as `[range(1e9)]|length` does more slowly.
    const filter = 'reduce range(40) as $i ("x"; . + .) | length';
    const r = await runCli(['orders', 'list', '--limit', '1', '--jq', filter], { env });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `${JSON.stringify({ error: { message: `--jq ${filter}: jq ran out of memory (it may use 256 MB); filter fewer records (--limit, --json FIELDS) or build smaller values.`, exit_code: 2 } })}\n`,
    );
    expect(r.code).toBe(2);
  });
});

/** Prints the process's peak memory (KB) on stderr as it exits. */
const REPORT_MAX_RSS = ['--import', `data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss "+process.resourceUsage().maxRSS+"\\n"))`];

/** A file of `header`, one good row, then a line of `mb` MB written a megabyte at a time (never whole in memory). */
async function fileWithLongLine(name: string, header: string, good: string, long: (filler: string) => string, mb: number): Promise<string> {
  const path = join(dir, name);
  const out = createWriteStream(path);
  out.write(`${header}\n${good}\n`);
  const megabyte = 'x'.repeat(1024 * 1024);
  const [before, after] = long('\u0000').split('\u0000');
  out.write(before);
  for (let i = 0; i < mb; i++) if (!out.write(megabyte)) await new Promise((resolve) => out.once('drain', resolve));
  out.write(`${after}\n${good.replace(/1/g, '2')}\n`);
  await new Promise((resolve) => out.end(resolve));
  return path;
}

describe('one huge CSV line', () => {
  // 50 MB: past the 8 MiB limit several times over, yet quick to write and read on a shared machine. Without the
  // limit the whole line is held as a string several times over (about 0.4–0.6 GB at 50 MB; 3.4 GB at 300 MB).
  const cases = [
    {
      command: ['variants', 'sync'],
      file: () => fileWithLongLine('feed.csv', 'sku,stock', 'CAM-LIN-S,1', (f) => `CAM-LIN-M,${f}`, 50),
      name: 'feed.csv',
    },
    {
      command: ['products', 'import'],
      // The line is one quoted cell, with line breaks inside it: a quote left open reads this way too.
      file: () => fileWithLongLine('catalog.csv', 'handle,name,sku,price', 'remera-1,Remera,REM-1,10', (f) => `remera-2,"Remera\n${f}",REM-2,10`, 50),
      name: 'catalog.csv',
    },
  ];
  for (const c of cases) {
    it(`${c.command.join(' ')}: a line over 8 MiB is one sentence naming the file, its line and the limit (exit 2), with memory bounded`, async () => {
      const path = await c.file();
      try {
        const r = await runCli([...c.command, path, '--dry-run'], { env, nodeArgs: REPORT_MAX_RSS, timeoutMs: 60_000 });
        const lines = r.stderr.trimEnd().split('\n');
        const rss = Number(lines.pop()!.replace('maxrss ', ''));
        expect(lines.join('\n')).toContain(
          `${c.name}, line 3: the row is longer than 8 MiB (8,388,608 characters), the most one row may hold (a quote left open swallows the lines after it: look for a missing "); the rest of the file was not read`,
        );
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        // Far below what holding the 50 MB line costs: the record is dropped at 8 MiB, the file's rest unread.
        expect(rss).toBeLessThan(250 * 1024);
      } finally {
        rmSync(path, { force: true });
      }
    });
  }
});

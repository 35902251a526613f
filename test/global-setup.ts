import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transcript } from './helpers/run-cli.js';

/**
 * Across the whole test suite, no token or client secret given to the CLI may appear in what it printed
 * (stdout, stderr, --debug lines), except where printing it is the command's job (`store auth token`).
 * Every `runCli` call writes a transcript into STORE_TEST_TRANSCRIPTS; the teardown reads them all and is
 * silent unless it finds a leak, so the summary reporter's line stays the last one.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'store-transcripts-'));
  process.env.STORE_TEST_TRANSCRIPTS = dir;
  return () => {
    const transcripts: Transcript[] = readdirSync(dir).flatMap((file) =>
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Transcript),
    );
    rmSync(dir, { recursive: true, force: true });
    const secrets = new Set(transcripts.flatMap((t) => t.secrets));
    const leaks: string[] = [];
    for (const t of transcripts) {
      if (t.mayPrintSecrets) continue;
      for (const secret of secrets) {
        for (const [stream, text] of [['stdout', t.stdout], ['stderr', t.stderr]] as const) {
          if (text.includes(secret)) leaks.push(`store ${t.args.join(' ')} printed a secret (${secret.slice(0, 4)}…) on ${stream}`);
        }
      }
    }
    if (leaks.length > 0) {
      // Vitest reports an error thrown here but still exits 0, so the failure is made explicit.
      process.stderr.write(`\nFAIL secrets check: secrets leaked in ${leaks.length} CLI runs:\n${leaks.join('\n')}\n`);
      process.exitCode = 1;
      return;
    }
  };
}

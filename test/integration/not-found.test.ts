import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { hasScript, plainText, runOnTerminal } from '../helpers/terminal.js';

// A mistyped command is answered by src/hooks/command-not-found.ts: one sentence naming the typo and the
// closest command or topic, exit 127, on a terminal too: a suggestion, never a prompt.
const home = mkdtempSync(join(tmpdir(), 'store-not-found-'));
const env = {
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_STATE_HOME: join(home, 'state'),
  XDG_DATA_HOME: join(home, 'data'),
  XDG_CACHE_HOME: join(home, 'cache'),
  NO_COLOR: '1',
};
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('an unknown command', () => {
  it('is named on stderr with where to look, and exits 127 without a terminal', async () => {
    const r = await runInProcess(['ordrs', 'list'], { env });
    expect(r.code).toBe(127);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: ordrs list is not a store command; did you mean `store orders list`? (`store help` lists the commands).\n');
  });

  it('inside a known topic points at that topic’s help', async () => {
    const r = await runInProcess(['orders', 'lst'], { env });
    expect(r.code).toBe(127);
    expect(r.stderr).toBe('Error: orders lst is not a store command; did you mean `store orders list`? (`store help orders` lists the commands).\n');
  });

  it('a mistyped topic is suggested too', async () => {
    const r = await runInProcess(['orderz'], { env });
    expect(r.code).toBe(127);
    expect(r.stderr).toBe('Error: orderz is not a store command; did you mean `store orders`? (`store help` lists the commands).\n');
  });

  it.runIf(hasScript)('on a terminal: the same sentence, exit 127, no prompt waiting for input', async () => {
    // No answers are given: a prompt would wait until runOnTerminal's time limit kills it (exit code null).
    const r = await runOnTerminal(['orderz'], { ...env, TERM: 'dumb' });
    expect(plainText(r.output)).toBe('Error: orderz is not a store command; did you mean `store orders`? (`store help` lists the commands).\n');
    expect(r.code).toBe(127);
  });
});

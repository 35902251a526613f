import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

// Shell completion comes from @oclif/plugin-autocomplete 3.2: `store autocomplete SHELL` builds the completion
// functions under the cache dir ($XDG_CACHE_HOME/store/autocomplete) and prints setup instructions;
// `store autocomplete script SHELL` prints the line for ~/.bashrc or ~/.zshrc that sources them.
const home = mkdtempSync(join(tmpdir(), 'store-completion-'));
const env = {
  HOME: home,
  XDG_CACHE_HOME: join(home, 'cache'),
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_STATE_HOME: join(home, 'state'),
  XDG_DATA_HOME: join(home, 'data'),
};
const acDir = join(home, 'cache', 'store', 'autocomplete');
afterAll(() => rmSync(home, { recursive: true, force: true }));

let bashInstructions: { code: number | null; stdout: string };
let setupLine: string;

beforeAll(async () => {
  bashInstructions = await runCli(['autocomplete', 'bash'], { env });
  const script = await runCli(['autocomplete', 'script', 'bash'], { env });
  expect(script.code).toBe(0);
  setupLine = script.stdout;
});

/** Runs `script` in a bash that has sourced the setup line a user appends to ~/.bashrc. */
function bashWithSetup(script: string): string {
  const rc = join(home, 'bashrc');
  writeFileSync(rc, setupLine);
  return execFileSync('bash', ['--norc', '--noprofile', '-c', `source "$1"; ${script}`, 'bash', rc], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home },
  });
}

/** What bash offers for `store WORDS…<TAB>`. */
function bashComplete(words: string[]): string[] {
  const compWords = ['store', ...words].map((w) => `'${w}'`).join(' ');
  const out = bashWithSetup(
    `COMP_WORDS=(${compWords}); COMP_CWORD=${words.length}; _store_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`,
  );
  return [...new Set(out.split('\n').filter(Boolean))].sort();
}

/** zsh is not on every machine; .ci/run installs it, so CI runs the zsh test. */
function hasZsh(): boolean {
  try {
    execFileSync('zsh', ['-f', '-c', 'zmodload zsh/zpty'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const ZSH_COMPLETE = fileURLToPath(new URL('../helpers/zsh-complete.zsh', import.meta.url));

/** What zsh offers for `store LINE<TAB>` after `setup`, the line a user appends to ~/.zshrc. */
function zshComplete(setup: string, line: string): string[] {
  const out = join(home, `zsh-matches-${Math.random().toString(36).slice(2)}`);
  execFileSync('zsh', ['-f', ZSH_COMPLETE, setup, out, `store ${line}`], {
    env: { PATH: process.env.PATH, HOME: home, TERM: 'dumb' },
    timeout: 30_000,
  });
  const matches = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : [];
  return [...new Set(matches)].sort();
}

describe('shell completion', () => {
  it('store autocomplete bash prints the setup instructions and builds the completion function', () => {
    expect(bashInstructions.code).toBe(0);
    expect(bashInstructions.stdout).toContain('Setup Instructions for STORE CLI Autocomplete');
    expect(bashInstructions.stdout).toContain('printf "$(store autocomplete script bash)" >> ~/.bashrc; source ~/.bashrc');
    const fn = readFileSync(join(acDir, 'functions', 'bash', 'store.bash'), 'utf8');
    expect(fn).toContain('complete -F _store_autocomplete store');
    expect(fn).toMatch(/^orders:list .*--status/m);
    expect(fn).toMatch(/^api /m);
  });

  it('store autocomplete zsh prints the zsh instructions and writes the zsh completion function', async () => {
    const r = await runCli(['autocomplete', 'zsh'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('printf "$(store autocomplete script zsh)" >> ~/.zshrc; source ~/.zshrc');
    const fn = readFileSync(join(acDir, 'functions', 'zsh', '_store'), 'utf8');
    expect(fn).toContain('#compdef store');
    expect(fn).toMatch(/^"orders\[/m);
    expect(fn).toMatch(/^"api\[/m);
    expect(fn).toContain('_store_orders() {');
  });

  it('store autocomplete script bash prints a line that sources the built setup', () => {
    expect(setupLine.trim()).toBe(
      `STORE_AC_BASH_SETUP_PATH=${join(acDir, 'bash_setup')} && test -f $STORE_AC_BASH_SETUP_PATH && source $STORE_AC_BASH_SETUP_PATH; # store autocomplete setup`,
    );
    expect(existsSync(join(acDir, 'bash_setup'))).toBe(true);
  });

  it('registers store with bash', () => {
    expect(bashWithSetup('complete -p store').trim()).toBe('complete -F _store_autocomplete store');
  });

  it.skipIf(!hasZsh())('zsh completes store or<TAB> to orders, then its commands, then its flags', async () => {
    expect((await runCli(['autocomplete', 'zsh'], { env })).code).toBe(0);
    const script = await runCli(['autocomplete', 'script', 'zsh'], { env });
    expect(script.code).toBe(0);
    const setup = script.stdout.trim();
    expect(zshComplete(setup, 'or')).toEqual(['orders']);
    expect(zshComplete(setup, 'orders ')).toEqual(expect.arrayContaining(['cancel', 'get', 'list']));
    expect(zshComplete(setup, 'orders list --st')).toEqual(['--status']);
    expect(zshComplete(setup, 'fulfillment-orders tracking ')).toEqual(expect.arrayContaining(['add', 'delete', 'update']));
  });

  it('completes store or<TAB> to orders, then its commands, then its flags', () => {
    expect(bashComplete(['or'])).toEqual(['orders']);
    expect(bashComplete(['orders', ''])).toEqual(expect.arrayContaining(['cancel', 'get', 'list']));
    expect(bashComplete(['orders', 'list', '--st'])).toEqual(['--status']);
    expect(bashComplete(['a'])).toEqual(expect.arrayContaining(['api', 'auth']));
    expect(bashComplete(['fulfillment-orders', 'tracking', ''])).toEqual(expect.arrayContaining(['add', 'delete', 'update']));
  });
});

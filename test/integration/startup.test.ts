import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const TRACE = fileURLToPath(new URL('../helpers/trace-imports.mjs', import.meta.url));
const HEAVY = ['got', 'zod', 'fastify', 'csv-parse', 'csv-stringify', 'cli-table3', '@inquirer/prompts', '@napi-rs/keyring'];

async function loadedModules(args: string[]): Promise<{ urls: string[]; stdout: string; code: number | null }> {
  const file = join(mkdtempSync(join(tmpdir(), 'store-trace-')), 'imports.txt');
  const result = await runCli(args, { nodeArgs: ['--import', TRACE], env: { STORE_TRACE_IMPORTS: file } });
  const urls = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  return { urls, stdout: result.stdout, code: result.code };
}

function heavyIn(urls: string[]): string[] {
  return HEAVY.filter((name) => urls.some((u) => u.includes(`/node_modules/${name}/`)));
}

describe('start-up discipline', () => {
  it('store --version answers without loading oclif or any heavy library', async () => {
    const { urls, stdout, code } = await loadedModules(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^store-cli\/\d+\.\d+\.\d+ /);
    expect(urls.some((u) => u.endsWith('/bin/run.js'))).toBe(true);
    expect(urls.some((u) => u.includes('/node_modules/@oclif/core/'))).toBe(false);
    expect(heavyIn(urls)).toEqual([]);
  });

  it.each([
    ['orders list --help', '--status'],
    ['api --help', '--paginate'],
  ])('store %s loads oclif but none of the heavy libraries', async (command, flag) => {
    const { urls, stdout, code } = await loadedModules(command.split(' '));
    expect(code).toBe(0);
    expect(stdout).toContain('USAGE');
    expect(stdout).toContain(flag);
    expect(urls.some((u) => u.includes('/node_modules/@oclif/core/'))).toBe(true);
    expect(heavyIn(urls)).toEqual([]);
  });
});

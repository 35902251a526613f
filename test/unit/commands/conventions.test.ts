import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BaseCommand } from '../../../src/cli/base-command.js';

/**
 * Conventions every command keeps (issue 14), checked on the command classes themselves so that a new
 * command cannot forget them: repeatable flags never swallow the arguments after them, and a command that
 * prints records offers --json FIELDS and --jq (its own base flags, so help and the manifest show them).
 */
const root = fileURLToPath(new URL('../../../src/commands/', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('command conventions', async () => {
  const commands = await Promise.all(
    files(root).map(async (file) => ({ name: relative(root, file), cls: (await import(pathToFileURL(file).href)).default as typeof BaseCommand })),
  );

  it('finds the commands', () => {
    expect(commands.length).toBeGreaterThan(50);
  });

  it('every repeatable flag is non-greedy (`store api -f a=b GET /orders`)', () => {
    const greedy = commands.flatMap(({ name, cls }) =>
      Object.entries(cls.flags ?? {})
        .filter(([, f]) => (f as { multiple?: boolean }).multiple && !(f as { multipleNonGreedy?: boolean }).multipleNonGreedy)
        .map(([flag]) => `${name} --${flag}`),
    );
    expect(greedy).toEqual([]);
  });

  it('every command that prints records has --json and --jq as its own base flags', () => {
    const missing = commands
      .filter(({ cls }) => cls.enableJsonFlag)
      .filter(({ cls }) => !Object.hasOwn(cls, 'baseFlags') || !('jq' in cls.baseFlags) || !('json' in cls.baseFlags))
      .map(({ name }) => name);
    expect(missing).toEqual([]);
    expect(Object.keys(BaseCommand.recordFlags)).toEqual(expect.arrayContaining(['profile', 'debug', 'json', 'jq']));
  });
});

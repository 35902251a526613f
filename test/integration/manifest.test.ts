import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A newcomer learns the CLI from `--help` and docs/commands (both generated from the manifest), so every
// command and flag must explain itself there. `npm test` builds the manifest first (pretest).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface ManifestFlag {
  description?: string;
  summary?: string;
}
interface ManifestCommand {
  id: string;
  summary?: string;
  description?: string;
  hidden?: boolean;
  examples?: (string | { command: string; description?: string })[];
  flags: Record<string, ManifestFlag>;
  args: Record<string, ManifestFlag>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
  commands: Record<string, ManifestCommand>;
};
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  oclif: { topics: Record<string, { description: string }> };
};
const commands = Object.values(manifest.commands);
const ids = commands.map((c) => c.id).sort();

function exampleCommands(c: ManifestCommand): string[] {
  return (c.examples ?? []).map((e) => (typeof e === 'string' ? e : e.command));
}

function commandFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return commandFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// The commands DESIGN.md and the issues name that exist in the tree; a new command joins this list.
const EXPECTED = [
  'api',
  'auth:list', 'auth:login', 'auth:logout', 'auth:status', 'auth:switch', 'auth:token',
  'categories:create', 'categories:delete', 'categories:get', 'categories:list', 'categories:update',
  'fulfillment-orders:get', 'fulfillment-orders:list',
  'fulfillment-orders:tracking:add', 'fulfillment-orders:tracking:delete', 'fulfillment-orders:tracking:update',
  'invoices:attach', 'invoices:list',
  'locations:create', 'locations:delete', 'locations:list', 'locations:reorder', 'locations:set-default',
  'locations:update',
  'orders:cancel', 'orders:create', 'orders:get', 'orders:list', 'orders:update',
  'products:create', 'products:delete', 'products:export', 'products:get', 'products:images:add',
  'products:import', 'products:list', 'products:update',
  'sandbox:reset', 'sandbox:serve', 'sandbox:status', 'sandbox:stop',
  'variants:create', 'variants:delete', 'variants:get', 'variants:list', 'variants:sync', 'variants:update',
  'variants:custom-fields:create', 'variants:custom-fields:delete', 'variants:custom-fields:list',
  'variants:custom-fields:set', 'variants:custom-fields:unset', 'variants:custom-fields:update',
  'webhooks:add', 'webhooks:delete', 'webhooks:list', 'webhooks:listen', 'webhooks:trigger', 'webhooks:update',
];

describe('command manifest', () => {
  it('has the commands of the design and the issues', () => {
    expect(EXPECTED.filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('is built from every command module in src/commands', () => {
    const dir = join(ROOT, 'src', 'commands');
    const fromSources = commandFiles(dir)
      .map((file) => relative(dir, file).replace(/\.ts$/, '').split(/[\\/]/).filter((part) => part !== 'index').join(':'))
      .sort();
    expect(ids).toEqual(fromSources);
  });

  it.each(commands.map((c) => [c.id, c] as const))('%s has a summary or description', (_id, c) => {
    expect((c.summary ?? c.description ?? '').trim()).not.toBe('');
  });

  it.each(commands.map((c) => [c.id, c] as const))('%s has an example that runs it', (id, c) => {
    const words = id.replaceAll(':', ' ');
    const runsIt = exampleCommands(c).filter(
      (e) => e.includes(`<%= config.bin %> ${words}`) || e.includes('<%= config.bin %> <%= command.id %>'),
    );
    expect(runsIt.length, `examples of ${words}: ${JSON.stringify(c.examples ?? [])}`).toBeGreaterThan(0);
  });

  it.each(commands.map((c) => [c.id, c] as const))('%s describes every flag and argument', (_id, c) => {
    const undescribed = [
      ...Object.entries(c.flags).map(([name, f]) => [`--${name}`, f] as const),
      ...Object.entries(c.args).map(([name, a]) => [name.toUpperCase(), a] as const),
    ]
      .filter(([, f]) => !(f.summary ?? f.description ?? '').trim())
      .map(([name]) => name);
    expect(undescribed).toEqual([]);
  });

  it.each(commands.map((c) => [c.id, c] as const))('%s writes its description in paragraphs that help can wrap', (_id, c) => {
    // oclif wraps each source line on its own: a line break inside a sentence leaves a ragged stump in --help.
    const broken = (c.description ?? '')
      .split('\n\n')
      .flatMap((paragraph) => paragraph.split('\n').slice(1))
      .filter((line) => !/^\s*([-*|$]|\d+\.)\s|^\s{2,}/.test(line));
    expect(broken).toEqual([]);
  });

  it('has at least one command in every topic of package.json', () => {
    const empty = Object.keys(pkg.oclif.topics).filter(
      (topic) => !ids.some((id) => id === topic || id.startsWith(`${topic}:`)),
    );
    expect(empty).toEqual([]);
  });

  it('declares (with a description) every topic and subtopic of the commands', () => {
    const topics = new Set(ids.flatMap((id) => id.split(':').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join(':'))));
    const undeclared = [...topics].filter((topic) => !pkg.oclif.topics[topic]?.description);
    expect(undeclared).toEqual([]);
  });
});

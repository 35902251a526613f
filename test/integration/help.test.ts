import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitLines, usageLine } from '../../src/cli/help.js';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * Every command's help as an 80-column terminal shows it (oclif renders help 80 wide when stdout is not a
 * terminal, as here): nothing wider, no docopts artefacts in the usage line (`[--link <value> | ]`,
 * `[--sandbox |  | …]`, `[--report <value> ]`), examples everywhere; the root help starts people off.
 */
const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, { hidden?: boolean }>;
};
const ids = Object.entries(manifest.commands).filter(([, c]) => !c.hidden).map(([id]) => id);
const env = { NO_COLOR: '1', COLUMNS: '80' };

function checkLayout(label: string, text: string): void {
  const wide = text.split('\n').filter((l) => l.length > 80);
  expect(wide, `${label}: lines wider than 80`).toEqual([]);
  const usage = /\nUSAGE\n([\s\S]*?)\n\n/.exec(`\n${text}`)?.[1] ?? '';
  for (const artefact of ['| ]', '|  |', '[ |', ' ]', '[]', '()']) expect(usage, `${label}: "${artefact}"`).not.toContain(artefact);
}

describe('help at 80 columns', () => {
  it.each(ids)('%s', async (id) => {
    const r = await runInProcess([...id.split(':'), '--help'], { env });
    expect(r.code).toBe(0);
    checkLayout(id, r.stdout);
    expect(r.stdout, id).toMatch(/\nUSAGE\n {2}\$ store /);
    expect(r.stdout, id).toMatch(/\nEXAMPLES\n {2}\S/);
  });

  it('the root help shows how to begin, the topics and examples', async () => {
    const r = await runInProcess(['--help'], { env });
    expect(r.code).toBe(0);
    checkLayout('root', r.stdout);
    const start = r.stdout.indexOf('GETTING STARTED\n  $ store auth login --sandbox');
    expect(start).toBeGreaterThan(0);
    expect(r.stdout.slice(start).split('\n').slice(2, 5).every((l) => l.startsWith('  $ store '))).toBe(true);
    expect(r.stdout).toMatch(/\nEXAMPLES\n {2}\$ store /);
    expect(r.stdout.indexOf('TOPICS')).toBeGreaterThan(start);
  });

  it('a topic help fits too', async () => {
    const r = await runInProcess(['orders', '--help'], { env });
    checkLayout('orders', r.stdout);
    // A summary in the command list is wrapped once, by the list (not first at the full width, then again).
    // The summaries start in one column, after the longest command name (`orders deliver`) and two spaces.
    expect(r.stdout).toMatch(/ {2}orders follow {3}Follow the orders that change: every new version of an order,\n {18}once, oldest first\.\n/);
  });

  it('flags offer only the values the command takes: orders update --status has no cancelled', async () => {
    const r = await runInProcess(['orders', 'update', '--help'], { env });
    expect(r.stdout).toContain('[--status open|closed|paid]');
    expect(r.stdout).not.toContain('cancelled|');
  });
});

describe('the usage line', () => {
  const flag = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'option', ...extra }) as never;

  it('shows each flag once, exclusive partners together while both are free', () => {
    const line = usageLine({
      args: { order_id: { name: 'order_id' } as never },
      flags: {
        key: flag('key', { exclusive: ['file'] }),
        file: flag('file'),
        link: flag('link', { exclusive: ['file'] }),
        report: flag('report', { dependsOn: ['file'] }),
        yes: { name: 'yes', type: 'boolean', char: 'y' } as never,
        status: flag('status', { options: ['open', 'closed'], required: true }),
      },
    });
    expect(line).toBe('<%= command.id %> [ORDER_ID] --status open|closed [--key <value> | --file <value>] [--link <value>] [--report <value>] [-y]');
  });

  it('breaks lines at spaces, example commands with a shell continuation', () => {
    expect(fitLines('  $ store a bb ccc dddd', 14)).toBe('  $ store a \\\n      bb ccc \\\n      dddd');
    expect(fitLines('  some prose that wraps', 12)).toBe('  some prose\n  that wraps');
    expect(fitLines('short', 80)).toBe('short');
  });
});

import { describe, expect, it } from 'vitest';
import { memberArgv, readArgv } from '../../../src/cli/fleet-argv.js';
import type { FleetMember } from '../../../src/services/fleet/members.js';

const definitions = {
  profiles: { type: 'option' },
  fleet: { type: 'option' },
  concurrency: { type: 'option' },
  'output-dir': { type: 'option' },
  report: { type: 'option' },
  jq: { type: 'option' },
  yes: { type: 'boolean', char: 'y' },
  'dry-run': { type: 'boolean' },
};
const ar: FleetMember = { profile: 'ar', storeId: '1', apiHost: 'h', vars: { profile: 'ar', feed: 'feeds/ar.csv' }, args: ['--max-changes', '10%'], where: 'stores.csv line 2' };

describe('memberArgv', () => {
  it('drops the fleet flags, fills {column}, adds the store args and --profile, leaves a jq filter alone', () => {
    const words = readArgv(['{feed}', '--fleet', 'stores.csv', '--concurrency=4', '-y', '--report', 'r-{profile}.csv', '--jq', '{id}'], definitions);
    const argv = memberArgv({ command: ['variants', 'sync'], words, member: ar, known: new Set(['profile', 'feed']), exportsToArgument: false, extra: ['--yes'] });
    expect(argv).toEqual(['variants', 'sync', 'feeds/ar.csv', '--report', 'r-ar.csv', '--jq', '{id}', '--max-changes', '10%', '--yes', '--profile', 'ar']);
  });

  it('--output-dir moves the files a store writes into its folder', () => {
    const words = readArgv(['out/orders.csv', '--profiles', 'ar,br', '--output-dir', 'exports', '--report=fail.csv'], definitions);
    const argv = memberArgv({ command: ['orders', 'export'], words, member: ar, known: new Set(['profile']), storeDir: 'exports/ar', exportsToArgument: true, extra: [] });
    expect(argv).toEqual(['orders', 'export', 'exports/ar/orders.csv', '--report=exports/ar/fail.csv', '--max-changes', '10%', '--profile', 'ar']);
  });

  it('refuses a {column} some stores have and this one lacks, naming its line', () => {
    const words = readArgv(['{factor}'], definitions);
    expect(() => memberArgv({ command: ['x'], words, member: ar, known: new Set(['factor']), exportsToArgument: false, extra: [] })).toThrow(
      'stores.csv line 2: the command line uses {factor}, which store "ar" has no value for.',
    );
  });

  it('keeps the words after -- as arguments, the added flags before it', () => {
    const words = readArgv(['--', '--not-a-flag'], definitions);
    expect(memberArgv({ command: ['api'], words, member: { ...ar, args: [] }, known: new Set(), exportsToArgument: false, extra: [] })).toEqual(['api', '--profile', 'ar', '--', '--not-a-flag']);
  });
});

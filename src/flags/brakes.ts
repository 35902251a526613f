import { Flags } from '@oclif/core';
import { BRAKE_NAMES, type BrakeName, type BrakeSettings, brakeSettings } from '../services/bulk/brakes.js';

/**
 * The brakes of an unattended run (issue 28), on `products import`, `variants sync`, `store apply` and
 * `store undo`: a plan that passes one writes nothing, and the command exits 5 with the records that tripped it.
 * Profile defaults come from `store config set max-changes 5%` (docs/ledger.md); a flag wins over the default.
 */
export const BRAKE_FLAGS = {
  'max-changes': Flags.string({
    description: 'Stop before writing (exit 5) when the plan changes more than N records, or more than P% of the store\'s (e.g. 500 or 5%).',
    helpGroup: 'BRAKES',
  }),
  'max-price-change': Flags.string({
    description: 'Stop before writing (exit 5) when any single price moves by more than P% (e.g. 50%).',
    helpGroup: 'BRAKES',
  }),
  'max-zero-stock': Flags.string({
    description: 'Stop before writing (exit 5) when the plan takes the stock of more than N variants, or P% of the stocked ones, to 0.',
    helpGroup: 'BRAKES',
  }),
  'max-deletes': Flags.string({
    description: 'Stop before writing (exit 5) when the plan deletes more than N records.',
    helpGroup: 'BRAKES',
  }),
};

/** `--plan-out FILE` (import, sync): a dry run that saves its plan for `store apply FILE`. */
export const PLAN_OUT_FLAG = {
  'plan-out': Flags.string({
    description: 'Send nothing: write the plan, with the store values it was computed against, to FILE (sealed; `store apply FILE` writes exactly it, or refuses if the store changed since).',
  }),
};

/** `--verify`: after writing, read back what was written (import, sync, apply, undo). */
export const VERIFY_FLAG = {
  verify: Flags.boolean({
    description: 'After writing, read back every field written (the fewest reads, fields=) and report each one the store does not hold as written as a failed row (exit 3).',
  }),
};

/**
 * The brakes a command runs with: each flag given, else the profile's default (`defaults`, from `store config`).
 * A value that is not a count or a percentage is a usage error (exit 2) naming where it came from.
 */
export function brakesFrom(flags: Partial<Record<BrakeName, string | undefined>>, defaults: Partial<Record<BrakeName, string>> = {}): BrakeSettings {
  const values: Partial<Record<BrakeName, string>> = {};
  const source: Partial<Record<BrakeName, string>> = {};
  for (const name of BRAKE_NAMES) {
    const flag = flags[name];
    if (flag !== undefined) {
      values[name] = flag;
      source[name] = `--${name}`;
    } else if (defaults[name] !== undefined && defaults[name] !== '') {
      values[name] = defaults[name];
      source[name] = `the profile's ${name} (store config)`;
    }
  }
  return brakeSettings(values, (name) => source[name] ?? `--${name}`);
}

import { describe, expect, it } from 'vitest';
import { confirmThenAct } from '../../../src/cli/confirm.js';
import { UsageError } from '../../../src/errors.js';

describe('confirmThenAct', () => {
  it('acts at once with --yes, never asking (the question is not even worded)', async () => {
    let worded = false;
    const result = await confirmThenAct({
      yes: true,
      message: async () => {
        worded = true;
        return 'Delete?';
      },
      action: 'Deleting a thing',
      nothingDone: 'Nothing deleted.',
      declined: () => 'declined',
      act: async () => 'done',
    });
    expect(result).toBe('done');
    expect(worded).toBe(false);
  });

  it('without --yes and nobody to ask, refuses with a usage error naming the flag, and does nothing', async () => {
    let acted = false;
    const attempt = confirmThenAct({
      yes: false,
      interactive: false,
      message: 'Delete?',
      action: 'Deleting a thing',
      nothingDone: 'Nothing deleted.',
      declined: () => 'declined',
      act: async () => {
        acted = true;
        return 'done';
      },
    });
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(attempt).rejects.toThrow('Deleting a thing needs confirmation: pass --yes when not running in a terminal.');
    expect(acted).toBe(false);
  });
});

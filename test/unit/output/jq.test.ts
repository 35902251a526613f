import { describe, expect, it } from 'vitest';
import { filterJson } from '../../../src/output/jq.js';

/** `--jq`'s engine (issue 31, "Bounded input"): jq's errors and limits are one sentence, and a stopped run leaves no harm. */
describe('filterJson', () => {
  it('prints strings raw and keeps jq\'s own errors as one sentence', async () => {
    expect(await filterJson([{ name: 'a' }, { name: 'b' }], '.[].name')).toEqual({ output: 'a\nb' });
    const bad = await filterJson({}, '.[');
    expect(bad.error?.message).toMatch(/^--jq \.\[: syntax error, .*\.$/);
    expect(bad.error?.exitCode).toBe(2);
  });

  it('stops a filter whose output passes the limit with one sentence naming it, and the next filter runs', async () => {
    const flood = await filterJson(null, 'range(1e9)', { maxOutputBytes: 100_000 });
    expect(flood.output).toBe('');
    expect(flood.error?.message).toBe(
      '--jq range(1e9): its output passed 98 KB, the most --jq holds; print the JSON (--json) and run jq on it instead.',
    );
    expect(flood.error?.exitCode).toBe(2);
    expect(await filterJson({ n: [1, 2, 3] }, '.n | add')).toEqual({ output: '6' });
  });
});

/**
 * `--jq EXPR`: jq's own language, run by jq compiled to WebAssembly (the jq-wasm package: no native build and
 * no download at install time; docs/decisions.md). Imported only when --jq is given: loading the engine takes
 * tens of milliseconds that no other command should pay.
 */
import { UsageError } from '../client/errors.js';

/** The jq output for `value`, strings printed raw like `jq -r` (and like gh's --jq). */
export async function filterJson(value: unknown, expression: string): Promise<string> {
  const jq = (await import('jq-wasm')) as unknown as { raw?: Jq; default?: { raw: Jq } };
  const raw = jq.raw ?? jq.default!.raw;
  try {
    return await raw(JSON.stringify(value ?? null), expression, ['-r']);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // jq says "jq: error: syntax error, … at <top-level>, line 1:\n.[ \njq: 1 compile error": its first line is the reason.
    const reason = text.replace(/^Failed to execute raw query:\s*/, '').split('\n')[0]!.replace(/^jq: error(?: \(at [^)]*\))?:\s*/, '').replace(/[\s:]+$/, '');
    throw new UsageError(`--jq ${expression}: ${reason.replace(/\.$/, '')}.`);
  }
}

type Jq = (data: string | object, filter: string, flags?: string[]) => Promise<string>;

/**
 * `--jq EXPR`: jq's own language, run by jq compiled to WebAssembly (the jq-wasm package: no native build and
 * no download at install time; docs/decisions.md). Imported only when --jq is given: loading the engine takes
 * tens of milliseconds that no other command should pay.
 *
 * jq-wasm from 2.0 (jq 1.8.2) loads `jq.wasm` from disk and hands its input to jq in one piece (1.0.1 fed it one
 * byte at a time: quadratic in the input). Figures: docs/benchmarks.md ("--jq"), test/bench/jq.bench.js.
 */
import { setFlagsFromString } from 'node:v8';
import type { Jq } from 'jq-wasm';
import { UsageError } from '../errors.js';

/** What jq printed (strings raw, like `jq -r` and gh's --jq) and, when it stopped on an error, that error. */
export interface JqResult {
  output: string;
  error?: UsageError;
}

let handle: Promise<Jq> | undefined;

export async function filterJson(value: unknown, expression: string): Promise<JqResult> {
  const input = JSON.stringify(value ?? null);
  if (!handle) {
    // V8 first runs WebAssembly with its baseline compiler (Liftoff) and recompiles the hot functions with
    // TurboFan. For one jq run that recompilation costs more than it saves (the first filter on 100 orders:
    // ~300 ms with it, ~80 ms without; 10,000 orders take as long either way), so the engine is compiled with
    // Liftoff only; this process runs one filter.
    setFlagsFromString('--liftoff-only');
    handle = import('jq-wasm').then(({ loadJq }) => loadJq());
  }
  const { stdout, stderr, exitCode } = (await handle).raw(input, expression, ['-r']);
  const output = stdout.replace(/\n$/, '');
  return exitCode === 0 ? { output } : { output, error: jqError(expression, stderr || `jq exited with status ${exitCode}`) };
}

/** jq says "jq: error: syntax error, … at <top-level>, line 1:\n.[ \njq: 1 compile error": its first line is the reason. */
function jqError(expression: string, text: string): UsageError {
  const reason = text.split('\n')[0]!.replace(/^jq: error(?: \(at [^)]*\))?:\s*/, '').replace(/[\s:]+$/, '');
  return new UsageError(`--jq ${expression}: ${reason.replace(/\.$/, '')}.`);
}

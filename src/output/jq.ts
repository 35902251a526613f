/**
 * `--jq EXPR`: jq's own language, run by jq compiled to WebAssembly (the jq-wasm package: no native build and
 * no download at install time; docs/decisions.md). Imported only when --jq is given: loading the engine takes
 * tens of milliseconds that no other command should pay.
 *
 * jq-wasm from 2.0 (jq 1.8.2) loads `jq.wasm` from disk and hands its input to jq in one piece (1.0.1 fed it one
 * byte at a time: quadratic in the input). Figures: docs/benchmarks.md ("--jq"), test/bench/jq.bench.js.
 *
 * Memory is bounded: jq's heap cannot grow past JQ_HEAP_BYTES (the engine's own maximum), and what it prints is
 * held until it ends (the engine has no streaming output), so its output is stopped at JQ_OUTPUT_BYTES. Either
 * limit, like any jq error, is one sentence and exit 2; the engine's own "Aborted()" never reaches the user.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Jq } from 'jq-wasm';
import { formatBytes } from '../client/errors.js';
import { UsageError } from '../errors.js';

/** The most memory jq's heap may take: the maximum jq-wasm's build gives its WebAssembly memory (getHeapMax). */
export const JQ_HEAP_BYTES = 256 * 1024 * 1024;
/**
 * The most output --jq holds before it is printed. Input past about a quarter of JQ_HEAP_BYTES does not fit jq's
 * heap once parsed, so a larger output is a filter that generates it (`range(1e9)`), not data being shown.
 */
export const JQ_OUTPUT_BYTES = 128 * 1024 * 1024;

/** What jq printed (strings raw, like `jq -r` and gh's --jq) and, when it stopped on an error, that error. */
export interface JqResult {
  output: string;
  error?: UsageError;
}

/** The engine and what its output counter needs; one per process, replaced after a run it did not finish. */
interface Engine {
  jq: Jq;
  /** Bytes jq has written to its stdout in the current run, and the most it may write. */
  output: { written: number; limit: number };
}

/** Thrown from inside the engine's write to stdout to stop a run whose output passed its limit. */
class OutputLimitReached extends Error {}

let engine: Promise<Engine> | undefined;

export async function filterJson(value: unknown, expression: string, options: { maxOutputBytes?: number } = {}): Promise<JqResult> {
  const input = JSON.stringify(value ?? null);
  engine ??= loadEngine();
  const { jq, output: counter } = await engine;
  counter.written = 0;
  counter.limit = options.maxOutputBytes ?? JQ_OUTPUT_BYTES;
  // The engine reports its own abort (out of memory) on the console before throwing it: the sentence below says it.
  const consoleError = console.error;
  console.error = () => undefined;
  let result: ReturnType<Jq['raw']>;
  try {
    result = jq.raw(input, expression, ['-r']);
  } catch (error) {
    // A run stopped inside the engine leaves its memory as it was at that instant: the next filter gets a new one.
    engine = undefined;
    return { output: '', error: new UsageError(`--jq ${expression}: ${stoppedReason(error, counter.limit)}.`) };
  } finally {
    console.error = consoleError;
  }
  const { stdout, stderr, exitCode } = result;
  const output = stdout.replace(/\n$/, '');
  return exitCode === 0 ? { output } : { output, error: jqError(expression, stderr || `jq exited with status ${exitCode}`) };
}

async function loadEngine(): Promise<Engine> {
  // V8 first runs WebAssembly with its baseline compiler (Liftoff) and recompiles the hot functions with
  // TurboFan. For one jq run that recompilation costs more than it saves (the first filter on 100 orders:
  // ~300 ms with it, ~80 ms without; 10,000 orders take as long either way), so the engine is compiled with
  // Liftoff only; this process runs one filter.
  setFlagsFromString('--liftoff-only');
  const { loadJq } = await import('jq-wasm');
  const module = await WebAssembly.compile(await readFile(createRequire(import.meta.url).resolve('jq-wasm/jq.wasm')));
  const output = { written: 0, limit: JQ_OUTPUT_BYTES };
  const jq = await loadJq({
    instantiateWasm: (imports, onSuccess) => {
      let memory: WebAssembly.Memory | undefined;
      countStdout(imports as WebAssembly.Imports, () => memory, output);
      const instance = new WebAssembly.Instance(module, imports as WebAssembly.Imports);
      memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
      onSuccess(instance, module);
      return undefined;
    },
  });
  return { jq, output };
}

/**
 * Wraps the engine's `fd_write` (WASI: fd, iovecs, their count, where to put the bytes written) so that the
 * bytes written to stdout are counted and a write past the limit stops the run. The import is found by its
 * function's name (`_fd_write`, as the Emscripten glue names it); without it, output is not counted.
 */
function countStdout(imports: WebAssembly.Imports, memory: () => WebAssembly.Memory | undefined, counter: Engine['output']): void {
  for (const namespace of Object.values(imports)) {
    for (const [name, value] of Object.entries(namespace)) {
      if (typeof value !== 'function' || value.name !== '_fd_write') continue;
      const write = value as (fd: number, iovs: number, count: number, written: number) => number;
      (namespace as Record<string, unknown>)[name] = (fd: number, iovs: number, count: number, written: number) => {
        const buffer = memory()?.buffer;
        if (fd === 1 && buffer) {
          const view = new DataView(buffer);
          for (let i = 0; i < count; i++) counter.written += view.getUint32(iovs + i * 8 + 4, true);
          if (counter.written > counter.limit) throw new OutputLimitReached();
        }
        return write(fd, iovs, count, written);
      };
    }
  }
}

function stoppedReason(error: unknown, outputLimit: number): string {
  if (error instanceof OutputLimitReached) {
    return `its output passed ${formatBytes(outputLimit)}, the most --jq holds; print the JSON (--json) and run jq on it instead`;
  }
  if (error instanceof WebAssembly.RuntimeError && /^Aborted\(/.test(error.message)) {
    return `jq ran out of memory (it may use ${formatBytes(JQ_HEAP_BYTES)}); filter fewer records (--limit, --json FIELDS) or build smaller values`;
  }
  return `jq stopped (${error instanceof Error ? error.message.split('\n')[0]!.replace(/\.$/, '') : String(error)})`;
}

/** jq says "jq: error: syntax error, … at <top-level>, line 1:\n.[ \njq: 1 compile error": its first line is the reason. */
function jqError(expression: string, text: string): UsageError {
  const reason = text.split('\n')[0]!.replace(/^jq: error(?: \(at [^)]*\))?:\s*/, '').replace(/[\s:]+$/, '');
  return new UsageError(`--jq ${expression}: ${reason.replace(/\.$/, '')}.`);
}

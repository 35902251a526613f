// Preloaded with `node --import` by the start-up test: records every module the process loads (ESM resolves
// through a loader hook, CommonJS requires through Module._load) into the file named by STORE_TRACE_IMPORTS,
// so the test can check what `store --version` and `--help` load.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.STORE_TRACE_IMPORTS) appendFileSync(process.env.STORE_TRACE_IMPORTS, result.url + '\\n');
  return result;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const originalLoad = Module._load;
Module._load = function traceLoad(request, parent, isMain) {
  if (process.env.STORE_TRACE_IMPORTS) {
    try {
      appendFileSync(process.env.STORE_TRACE_IMPORTS, `${Module._resolveFilename(request, parent, isMain)}\n`);
    } catch {
      // unresolvable requests fail in the real load below with their own error
    }
  }
  return originalLoad.apply(this, arguments);
};

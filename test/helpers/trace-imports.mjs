// Preloaded with `node --import` by the start-up test: records every module URL the process resolves
// into the file named by STORE_TRACE_IMPORTS, so the test can check what `store --version` loads.
import { register } from 'node:module';

const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.STORE_TRACE_IMPORTS) appendFileSync(process.env.STORE_TRACE_IMPORTS, result.url + '\\n');
  return result;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

#!/usr/bin/env node
// Development entry: runs the compiled commands like bin/run.js, but with oclif's development mode
// (no manifest cache, debug logging). Run `npx tsc -p tsconfig.build.json --watch` beside it.
const { execute } = await import('@oclif/core');
await execute({ development: true, dir: import.meta.url });

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The built CLI is loaded by Node itself, not transformed: test/helpers/run-in-process.ts then holds the very
    // modules oclif loads for the commands it runs (one BaseCommand, one set of streams).
    server: { deps: { external: [/\/dist\//] } },
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});

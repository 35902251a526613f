#!/usr/bin/env node
// `store --version` answers without booting oclif: loading oclif and its plugins alone costs ~100 ms. It prints
// oclif's own version line (the package name, as in help's VERSION section), so both name the same thing.
// Everything else imports only oclif's run entry: the package index loads all of oclif (~25 ms more).
const argv = process.argv.slice(2);
// A reader that stops early (`store products export | head -1`) closes the pipe: that is not an error, the
// output is simply no longer wanted. Exit quietly with 0 instead of an EPIPE stack or a hang.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/**
 * Resolves once everything written to stdout so far has been handed to the reader, however long the reader
 * takes (`store orders list --all --json | less`, a script that reads later): a write's callback runs after
 * every earlier write. oclif's own `execute` gives up after 10 s and exits, losing what the pipe had not taken.
 */
function stdoutWritten() {
  const out = process.stdout;
  if (out.destroyed || out.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => out.write('', () => resolve()));
}

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  const { run } = await import('@oclif/core/run');
  try {
    await run(argv, import.meta.url);
  } catch (error) {
    // What reaches here (oclif's own errors: a plugin that fails to load) ends with oclif's handler, which exits.
    await stdoutWritten();
    const { handle } = await import('@oclif/core/handle');
    await handle(error);
  }
  // A keychain call that timed out is still pending in a native thread and would hold the process open.
  if (globalThis[Symbol.for('store-cli.exit-when-done')]) {
    await stdoutWritten();
    process.exit();
  }
}

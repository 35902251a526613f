#!/usr/bin/env node
// `store --version` answers without booting oclif: loading oclif and its plugins alone costs ~100 ms. It prints
// oclif's own version line (the package name, as in help's VERSION section), so both name the same thing.
// Everything else imports only oclif's execute entry: the package index loads all of oclif (~25 ms more).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  const { execute } = await import('@oclif/core/execute');
  await execute({ dir: import.meta.url });
  // A keychain call that timed out is still pending in a native thread and would hold the process open.
  if (globalThis[Symbol.for('store-cli.exit-when-done')]) process.exit();
}

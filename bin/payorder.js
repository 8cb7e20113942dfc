#!/usr/bin/env node
// The launcher: answers --version before loading anything, enables Node's compile cache, then
// hands over to the bundled CLI.
import module from 'node:module';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  module.enableCompileCache?.();
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(process.argv);
}

#!/usr/bin/env node
// The launcher: answers --version before loading anything, restarts a batch with its memory settings
// (below), then hands over to the bundled CLI (dist/cli.cjs), which dist/code-cache.js starts with
// its code cache (src/code-cache.ts). Node's built-in modules are taken with getBuiltinModule: an
// import of one would build a module facade for it first.

/**
 * A batch (`order create --input`, `order get --input`) allocates a little for every line, and with
 * V8's defaults its memory follows the allocation rate, not the input: the young generation grows
 * to 64 MB and each GC thread keeps a malloc arena of its own. A batch runs with a small young
 * generation and one malloc arena; its old generation's growth and its compiler's settings are set
 * once it starts sending (src/heap-settings.ts). Semi-spaces of 4 MB: 2 MB took 4% more CPU per
 * order for 4 MB less memory; 5, 6 and 8 MB gave no more orders per second, for 95 MB instead of 89.
 * Node reads these only at start-up: the launcher restarts itself in place (process.execve: same
 * process id, same streams) before anything is loaded or read. Not where Node has no
 * process.execve (before 22.15, Windows), nor when the heap flags were given by hand.
 */
const BATCH_FLAGS = ['--max-semi-space-size=4'];

const args = process.argv.slice(2);
const isBatch = () =>
  args[0] === 'order' &&
  (args[1] === 'create' || args[1] === 'get') &&
  args.some((arg) => arg === '--input' || arg.startsWith('--input='));
const heapFlagsGiven = () =>
  [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((flag) =>
    /^--(max-semi-space-size|heap-growing-percent)\b/.test(flag),
  );

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  if (isBatch() && typeof process.execve === 'function' && !heapFlagsGiven()) {
    try {
      process.execve(
        process.execPath,
        [process.execPath, ...process.execArgv, ...BATCH_FLAGS, import.meta.filename, ...args],
        { MALLOC_ARENA_MAX: '1', ...process.env },
      );
    } catch {
      // Not restarted: the batch runs with Node's defaults.
    }
  }
  const { loadCli } = await import('../dist/code-cache.js');
  const cli = loadCli(
    process.getBuiltinModule('node:path').join(import.meta.dirname, '../dist/cli.cjs'),
    process.argv,
  );
  process.exitCode = await cli.main(process.argv);
}

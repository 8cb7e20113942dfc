#!/usr/bin/env node
// The launcher: answers --version before loading anything, turns on Node's compile cache, then hands
// over to the bundled CLI (dist/cli.cjs).
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Node keeps the code it compiled for payorder, so that the next run starts sooner: payorder's
 * folder in the user's cache folder. NODE_COMPILE_CACHE names another (Node reads it itself), and
 * NODE_DISABLE_COMPILE_CACHE=1 turns the cache off.
 */
function cacheFolder() {
  const { env, platform } = process;
  if (env.NODE_COMPILE_CACHE) return undefined;
  if (platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'payorder', 'Cache') : undefined;
  const home = homedir();
  if (!home) return undefined;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'payorder');
  // The XDG specification: a relative path is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(home, '.cache');
  return join(xdg, 'payorder');
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  module.enableCompileCache?.(cacheFolder());
  const { main } = module.createRequire(import.meta.url)('../dist/cli.cjs');
  process.exitCode = await main(process.argv);
}

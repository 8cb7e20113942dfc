/**
 * Runs a TypeScript script from test/ (the demo, the benchmarks) as plain JavaScript: builds dist/
 * (the scripts run the built CLI), bundles each given entry with its packages left external, and runs
 * the first one with this same Node.
 *
 *   node .ci/bundle-run.mjs test/bench/sandbox.bench.ts test/bench/bare-server.ts [args for the script…]
 *
 * test/<dir>/<name>.ts becomes dist/<dir>/<name>.mjs: the same depth below the root as its source,
 * so a script's `new URL('../../', import.meta.url)` is still the root, and entries bundled together
 * still find each other (./bare-server.mjs).
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { buildIfChanged } from './build.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = /^test\/.+\.ts$/;

/** The bundle of test/<dir>/<name>.ts: dist/<dir>/<name>.mjs (relative to the root). */
export function bundlePath(entry) {
  if (!SCRIPT.test(entry)) throw new Error(`not a script under test/: ${entry}`);
  return entry.replace(/^test\//, 'dist/').replace(/\.ts$/, '.mjs');
}

/** Bundles one script under test/ and returns its bundle's path (relative to the root). */
export async function bundle(entry) {
  const outfile = bundlePath(entry);
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Dependencies resolve from node_modules at run time, as they do for the CLI under test.
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Leading .ts arguments are entries; the rest (npm run bench -- …) go to the script.
  const args = process.argv.slice(2);
  const firstArg = args.findIndex((arg) => !arg.endsWith('.ts'));
  const entries = firstArg === -1 ? args : args.slice(0, firstArg);
  const scriptArgs = firstArg === -1 ? [] : args.slice(firstArg);
  if (entries.length === 0 || !entries.every((entry) => SCRIPT.test(entry))) {
    console.error('usage: node .ci/bundle-run.mjs test/<dir>/<script>.ts [more entries…] [args…]');
    process.exit(2);
  }
  await buildIfChanged();
  const [main] = await Promise.all(entries.map(bundle));
  const child = spawn(process.execPath, [main, ...scriptArgs], { cwd: ROOT, stdio: 'inherit' });
  // Ctrl-C reaches the script too (same process group): let it stop, then end as it ended.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
  });
}

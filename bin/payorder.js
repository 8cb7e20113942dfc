#!/usr/bin/env node
// The launcher: answers --version before loading anything, runs a batch in a Node started with its
// memory options (below), turns on Node's compile cache, then hands over to the bundled CLI
// (dist/cli.cjs). Built-in modules are taken with process.getBuiltinModule: an import of one builds
// its module facade first, and node:fs's loads fs/promises and its streams.

// Older Nodes lack what payorder is built on (node:sqlite among it): said in one line, before any of it is used.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `error: payorder needs Node.js 22.13 or later; this is Node.js ${process.versions.node}\nhint: install a current Node.js (an LTS release), then run payorder again\n`,
  );
  process.exit(1);
}

const { argv, env, execArgv, execPath, getBuiltinModule } = process;
const path = getBuiltinModule('node:path');

/**
 * Where Node keeps the code it compiled for payorder, so that the next run starts sooner: payorder's
 * folder in the user's cache folder. NODE_COMPILE_CACHE names another (Node reads it itself), and
 * NODE_DISABLE_COMPILE_CACHE=1 turns the cache off.
 */
function cacheFolder() {
  if (env.NODE_COMPILE_CACHE) return undefined;
  if (process.platform === 'win32')
    return env.LOCALAPPDATA ? path.join(env.LOCALAPPDATA, 'payorder', 'Cache') : undefined;
  const home = getBuiltinModule('node:os').homedir();
  if (!home) return undefined;
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'payorder');
  // The XDG specification: a relative path is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(xdg, 'payorder');
}

/**
 * The Node options of a batch (`order create --input`, `order get --input`). A batch allocates a
 * little for every line and keeps little; with Node's defaults V8 lets the young generation grow to
 * 64 MB and the old one to several times what it holds. A small young generation, and a heap limit
 * far above what a batch keeps but below Node's default, which makes V8 collect the old generation
 * sooner. Node reads them only as it starts: the batch runs in a Node of its own, started with them.
 */
const BATCH_OPTIONS = ['--max-semi-space-size=4', '--max-old-space-size=1024'];

/**
 * The environment of a batch's Node, with two of glibc's documented tunables (mallopt(3); other C
 * libraries ignore them), unless the environment already tunes glibc's allocator:
 * - MALLOC_ARENA_MAX: glibc gives each thread that allocates (Node's thread pool, V8's helpers) an
 *   arena of its own, and a batch's memory then depends on which threads did the work; two at most.
 * - MALLOC_MMAP_THRESHOLD_: V8's optimizing compilers work in blocks of 16 to 32 KiB that they free
 *   once a function is compiled; below the threshold they come from the heap, which keeps the pages
 *   of freed blocks for good, and a batch would carry its start's compilations to its end. At
 *   16 KiB they are mapped and given back.
 */
const batchEnv = () =>
  env.GLIBC_TUNABLES !== undefined || Object.keys(env).some((name) => name.startsWith('MALLOC_'))
    ? env
    : { ...env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '16384' };

const args = argv.slice(2);
const isBatch = () =>
  args[0] === 'order' &&
  (args[1] === 'create' || args[1] === 'get') &&
  args.some((arg) => arg === '--input' || arg.startsWith('--input='));
/** Whether heap options were given by hand: they are then kept, and the batch runs here. */
const heapOptionsGiven = () =>
  [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].some((option) =>
    /^--max-(semi|old)-space-size/.test(option),
  );

/**
 * Runs the batch in a Node started with BATCH_OPTIONS, on this process's streams, and resolves with
 * its exit code. A signal sent to this process is passed on (a terminal's Ctrl-C reaches both: the
 * batch reads a repeat within 250 ms as the same one).
 */
function runBatch() {
  const { spawn } = getBuiltinModule('node:child_process');
  const batch = spawn(execPath, [...execArgv, ...BATCH_OPTIONS, argv[1], ...args], {
    stdio: 'inherit',
    env: batchEnv(),
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => batch.kill(signal));
  return new Promise((resolve) =>
    batch.once('exit', (code, signal) =>
      resolve(code ?? 128 + getBuiltinModule('node:os').constants.signals[signal]),
    ),
  );
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const packageFile = path.join(import.meta.dirname, '../package.json');
  process.stdout.write(
    `${JSON.parse(getBuiltinModule('node:fs').readFileSync(packageFile, 'utf8')).version}\n`,
  );
} else if (isBatch() && !heapOptionsGiven()) {
  process.exitCode = await runBatch();
} else {
  const module = getBuiltinModule('node:module');
  module.enableCompileCache?.(cacheFolder());
  const { main } = module.createRequire(import.meta.url)('../dist/cli.cjs');
  process.exitCode = await main(process.argv);
}

/**
 * Builds dist/ from src/: the CLI (dist/main.js) and the sandbox server (dist/sandbox.js), with the
 * code they share split into dist/chunks/, and THIRD_PARTY_LICENSES, the licences of the packages
 * bundled into them. `npm run build` runs this file; the test run's global setup imports
 * buildIfChanged() so that tests never run a stale dist/.
 *
 * The bundle holds every dependency, so the published package has none: they are all
 * devDependencies, and installing payorder installs one package and runs no install script.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { thirdPartyLicenses } from './third-party-licenses.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The build's output: the two entry points, their chunks, and migrate-check's grammars. */
const OUTPUTS = ['main.js', 'sandbox.js', 'chunks', 'grammars'];

/** Minified: a smaller package, and start-up no slower (measured on --help and order get --help). */
const MINIFY = true;

/**
 * The WebAssembly files migrate-check parses source code with (src/migrate/syntax/), as "package/path
 * inside it": the tree-sitter runtime (whose JavaScript is bundled) and one grammar per language.
 * Only these files are taken from the grammar packages, which are dev dependencies: a user installs
 * none of them, so their native install steps never run at a user's end.
 */
const GRAMMARS = [
  'web-tree-sitter/web-tree-sitter.wasm',
  ...['javascript', 'typescript', 'tsx', 'php', 'python', 'ruby', 'java', 'c-sharp', 'go', 'bash'].map(
    (name) => `@vscode/tree-sitter-wasm/wasm/tree-sitter-${name}.wasm`,
  ),
  '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm',
  // Configuration: Terraform and other HCL files (src/migrate/config-files.ts).
  '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm',
  '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm',
];

/** Copies the grammars into `folder`, each under its own file name. */
function copyGrammars(folder) {
  mkdirSync(folder, { recursive: true });
  for (const file of GRAMMARS) copyFileSync(join(ROOT, 'node_modules', file), join(folder, basename(file)));
}

/**
 * Code that bundled packages import but never run for payorder, left out of the bundle. Each of
 * these imports resolves to a stand-in that throws as soon as it is used.
 * - conf validates a store against a JSON schema (ajv, ajv-formats) only when given one, and runs
 *   migrations (semver) only when given them: payorder gives neither, src/store/ checks the store's
 *   shape itself (180 kB).
 * - undici carries its HTTP parser compiled to WebAssembly twice, with SIMD and without, and falls
 *   back to the second when the first does not load (so it must be the one kept: some platforms
 *   lack SIMD). On answers of a few hundred bytes SIMD saves nothing measurable (72 kB).
 * - undici's clients load fetch's body code only to send a FormData body: payorder sends JSON text
 *   (40 kB).
 */
const LEFT_OUT = [
  { importer: /[\\/]node_modules[\\/]conf[\\/]/, path: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ },
  { importer: /[\\/]node_modules[\\/]undici[\\/]/, path: /[\\/]llhttp_simd-wasm\.js$/ },
  {
    importer: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]/,
    path: /^\.\.\/web\/fetch\/body\.js$/,
  },
];

/**
 * ora's spinners: ora draws `dots`, or `line` where the terminal shows no Unicode, and payorder
 * never names another, so only those two of the package's ninety are bundled (30 kB).
 */
const SPINNERS_KEPT = ['dots', 'line'];

/**
 * Built-in modules that a bundled package imports as it loads but uses only on a path payorder never
 * takes: loaded on first use instead. commander spawns a process only for executable subcommands,
 * which payorder has none of, and node:child_process brings net, dgram and the child process
 * machinery with it on every start.
 */
const LOADED_ON_USE = [{ importer: /[\\/]node_modules[\\/]commander[\\/]/, path: /^node:child_process$/ }];

/** The plugin that leaves those out; the standalone executable's bundle (sea.mjs) uses it too. */
export const leaveOut = {
  name: 'leave-out',
  setup(build) {
    // In place of the package's own index, which exports every spinner (its licence is still listed).
    build.onLoad({ filter: /[\\/]node_modules[\\/]cli-spinners[\\/]index\.js$/ }, () => {
      const all = JSON.parse(readFileSync(join(ROOT, 'node_modules/cli-spinners/spinners.json'), 'utf8'));
      const kept = Object.fromEntries(SPINNERS_KEPT.map((name) => [name, all[name]]));
      return { contents: `export default ${JSON.stringify(kept)};`, loader: 'js' };
    });
    for (const { importer, path } of LOADED_ON_USE)
      build.onResolve({ filter: path }, (args) =>
        importer.test(args.importer) ? { path: args.path, namespace: 'loaded-on-use' } : undefined,
      );
    build.onLoad({ filter: /.*/, namespace: 'loaded-on-use' }, ({ path }) => ({
      contents: `let loaded;
        export default new Proxy({}, { get: (_, key) => (loaded ??= process.getBuiltinModule(${JSON.stringify(path)}))[key] });`,
      loader: 'js',
    }));
    for (const { importer, path } of LEFT_OUT)
      build.onResolve({ filter: path }, (args) =>
        importer.test(args.importer) ? { path: args.path, namespace: 'left-out' } : undefined,
      );
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, ({ path }) => ({
      contents: `const leftOut = () => { throw new Error(${JSON.stringify(`${path} is left out of payorder's bundle (.ci/build.mjs)`)}); };
        const standIn = new Proxy(leftOut, { get: () => standIn, apply: leftOut, construct: leftOut });
        export { standIn as Ajv2020, standIn as default };`,
      loader: 'js',
    }));
  },
};

/** Defines `require` in an output file (see the build's `banner`). */
const REQUIRE_BANNER = "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);";

/**
 * Takes the `require` banner out of the output files that never call require: all but esbuild's own
 * shim, in practice. Each file keeping it would make a require function of its own as it loads,
 * and a command loads up to forty of them.
 */
function dropUnusedRequire(metafile) {
  for (const output of Object.keys(metafile.outputs).filter((file) => file.endsWith('.js'))) {
    const file = join(ROOT, output);
    const code = readFileSync(file, 'utf8');
    const rest = code.slice(REQUIRE_BANNER.length);
    if (code.startsWith(REQUIRE_BANNER) && !/\brequire\b/.test(rest))
      writeFileSync(file, rest.replace(/^\n/, ''));
  }
}

/** esbuild's options for the bundle, written to `outdir`. */
function bundleOptions(version, outdir) {
  return {
    absWorkingDir: ROOT,
    entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/server.ts' },
    bundle: true,
    // Commands load their modules lazily (dynamic import); splitting gives those their own chunks,
    // and code shared by the CLI and the sandbox one copy.
    splitting: true,
    format: 'esm',
    platform: 'node',
    // The oldest Node that package.json "engines" allows: 22.13, the oldest 22 the bundled prompts
    // support (package.json "overrides" keeps them on the releases that do).
    target: 'node22.13',
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    minify: MINIFY,
    legalComments: 'none',
    // The keychain addon is native code with a prebuilt package per platform: it cannot be bundled,
    // stays an optional dependency, and is loaded only when a secret is read or stored.
    external: ['@napi-rs/keyring'],
    // The version the bundled CLI reports (commander's --version, SARIF reports), from package.json.
    define: { PAYORDER_VERSION: JSON.stringify(version) },
    // Bundled CommonJS dependencies call require() inside this ESM bundle, where Node defines no
    // require; esbuild's stand-in would throw 'Dynamic require of "…" is not supported'. Give them one.
    // (Only the files that use it keep it: see dropUnusedRequire.)
    banner: { js: REQUIRE_BANNER },
    logLevel: 'warning',
  };
}

/**
 * A plugin that puts the source files the CLI loads before it runs any command (what main.ts imports,
 * whatever the command) into one chunk. esbuild splits code by the set of entries that reach it, and
 * every lazily loaded module counts as an entry, so these files came out as a dozen chunks of a few
 * hundred bytes, each a module for Node to resolve, read and link (about half a millisecond apiece).
 * Imported by every entry of payorder's own, they share one chunk; main.js always loads first, so no
 * command loads anything it would not have. Packages stay out (the command-line parser, chalk): the
 * sandbox's entry (dist/sandbox.js) has no use for the parser, and chalk is reached by ora's entry.
 * A first build, not written, finds the files and the entries; `file` lists the files to import.
 */
async function startUpChunk(options, file) {
  const { metafile } = await esbuild.build({ ...options, write: false, metafile: true, plugins: [leaveOut] });
  const { outputs } = metafile;
  const loaded = new Set();
  const visit = (output) => {
    if (loaded.has(output)) return;
    loaded.add(output);
    for (const { kind, path, external } of outputs[output].imports)
      if (kind === 'import-statement' && !external) visit(path);
  };
  const main = Object.keys(outputs).find((output) => outputs[output].entryPoint === 'src/main.ts');
  visit(main);
  loaded.delete(main);
  const ours = (input) => input.startsWith('src/');
  const startUp = [...loaded]
    .map((output) => Object.keys(outputs[output].inputs))
    .filter((inputs) => inputs.every(ours))
    .flat();
  writeFileSync(file, startUp.map((input) => `import ${JSON.stringify(join(ROOT, input))};\n`).join(''));
  const entries = new Set(
    Object.values(outputs)
      .map(({ entryPoint }) => entryPoint)
      .filter((entry) => entry !== undefined && ours(entry) && entry !== 'src/main.ts')
      .map((entry) => join(ROOT, entry)),
  );
  return {
    name: 'start-up-chunk',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, ({ path }) =>
        entries.has(path)
          ? {
              contents: `import ${JSON.stringify(file)};\n${readFileSync(path, 'utf8')}`,
              loader: 'ts',
              resolveDir: dirname(path),
            }
          : undefined,
      );
    },
  };
}

/** Where the licences of the bundled packages go: beside README.md in the package. */
const LICENSES = 'THIRD_PARTY_LICENSES';

/**
 * Removes the folders of builds that died before swapping theirs in: never packed, but they would
 * fill dist/ and count in its size.
 */
function removeDeadBuilds() {
  const dist = join(ROOT, 'dist');
  if (!existsSync(dist)) return;
  for (const entry of readdirSync(dist)) {
    const pid = /^\.build-(\d+)$/.exec(entry)?.[1];
    if (pid !== undefined && !isRunning(Number(pid)))
      rmSync(join(dist, entry), { recursive: true, force: true });
  }
}

/** Whether process `pid` exists (EPERM: it does, as another user's). */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Moves `from` to `to`, replacing what is there. Builds run at the same time (each test run builds),
 * and another one may put its folder at `to` between the removal and the rename: then again.
 */
function swapIn(from, to) {
  for (;;) {
    rmSync(to, { recursive: true, force: true });
    try {
      renameSync(from, to);
      return;
    } catch (error) {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    }
  }
}

/**
 * What a build is made from: src/, this file, the licence writer and its texts, and the packages it
 * bundles (package.json and the lock file say which), as one hash.
 */
function inputsHash() {
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).map((file) => join('src', file)),
    '.ci/build.mjs',
    '.ci/third-party-licenses.mjs',
    ...readdirSync(join(ROOT, '.ci/licenses')).map((file) => join('.ci/licenses', file)),
    'package.json',
    'package-lock.json',
  ].sort();
  for (const file of files) {
    const path = join(ROOT, file);
    if (!statSync(path).isFile()) continue;
    hash.update(`${file}\0`).update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

/** Where a build records the hash of its inputs (not packed: package.json "files"). */
const BUILT_FROM = join(ROOT, 'dist/.built-from');

/**
 * Builds dist/ unless the last build was made from the same inputs and is still all there: each test
 * run and benchmark calls this, and most of them follow no change.
 */
export async function buildIfChanged() {
  const hash = inputsHash();
  const current =
    existsSync(BUILT_FROM) &&
    readFileSync(BUILT_FROM, 'utf8') === hash &&
    OUTPUTS.every((output) => existsSync(join(ROOT, 'dist', output)));
  if (current) return;
  await build();
  writeFileSync(BUILT_FROM, hash);
}

/**
 * Bundles the CLI and the sandbox into a fresh folder, then swaps it into dist/: a leftover chunk
 * of an earlier build would still be packed (package.json "files"), and a test or benchmark running
 * from dist/ at the same moment never sees a half-written build.
 */
export async function build() {
  rmSync(BUILT_FROM, { force: true });
  const { version, license } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  removeDeadBuilds();
  const next = join(ROOT, `dist/.build-${process.pid}`);
  // Every output file carries a line saying where the notices of the code bundled into it now are.
  const licenses = thirdPartyLicenses(
    join(next, LICENSES),
    `/*! payorder ${version} | ${license} | bundled packages: ${LICENSES} */`,
  );
  try {
    // The licence plugin writes its file even when the build fails: let it, so the build's own
    // error is the one reported.
    mkdirSync(next, { recursive: true });
    const options = bundleOptions(version, next);
    const { metafile } = await esbuild.build({
      ...options,
      plugins: [leaveOut, await startUpChunk(options, join(next, 'start-up.js')), licenses.plugin],
      metafile: true,
    });
    licenses.complete(metafile);
    dropUnusedRequire(metafile);
    copyGrammars(join(next, 'grammars'));
    for (const output of OUTPUTS) swapIn(join(next, output), join(ROOT, 'dist', output));
    swapIn(join(next, LICENSES), join(ROOT, LICENSES));
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();

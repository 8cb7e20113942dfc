/**
 * Builds dist/ from src/: the CLI as one CommonJS file (dist/cli.cjs), which bin/payorder.js loads
 * with Node's compile cache on, the sandbox server for other programs to import (dist/sandbox.js),
 * migrate-check's worker threads (dist/syntax-worker.cjs) and grammars, THIRD_PARTY_LICENSES, the
 * licences of the packages bundled into them and of the grammars, and dist/sbom.cdx.json, the
 * CycloneDX bill of materials of the same packages. `npm run build` runs this file; the test run's global
 * setup imports buildIfChanged() so that tests never run a stale dist/.
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
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { cycloneDx } from './sbom.mjs';
import { thirdPartyLicenses } from './third-party-licenses.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The software bill of materials, in dist/ (.ci/sbom.mjs). */
const SBOM = 'sbom.cdx.json';

/**
 * Packages that go in files of their own (dist/<file>.cjs), loaded by the code that uses them when it
 * first runs: every command reads and compiles the whole of cli.cjs (the compile cache included), and
 * these are half of it. undici, the HTTP client under ky's agents (src/api/agent-transport.ts), only a
 * batch, a bulk lookup or a proxied command loads; the others only migrate-check (yaml, momoa,
 * web-tree-sitter, which its worker threads share) or --jq (jq-wasm).
 */
const APART = {
  undici: 'undici.cjs',
  yaml: 'yaml.cjs',
  'web-tree-sitter': 'web-tree-sitter.cjs',
  'jq-wasm': 'jq-wasm.cjs',
  '@humanwhocodes/momoa': 'momoa.cjs',
};

/** The build's output. */
const OUTPUTS = ['cli.cjs', ...Object.values(APART), 'syntax-worker.cjs', 'sandbox.js', 'grammars', SBOM];

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
  // Not a grammar: jq itself, which --jq runs (src/output/jq-output.ts), loaded only then.
  'jq-wasm/dist/build/jq.wasm',
];

/** Copies the grammars into `folder`, each under its own file name. */
function copyGrammars(folder) {
  mkdirSync(folder, { recursive: true });
  for (const file of GRAMMARS) copyFileSync(join(ROOT, 'node_modules', file), join(folder, basename(file)));
}

/**
 * The one patch of a dependency: conf imports a JSON-schema validator (ajv, ajv-formats) and a
 * migration runner (semver) as it loads, and uses them only when given a schema or migrations, which
 * payorder never gives (src/store/ checks the store's shape itself). Bundled, they would load with
 * every write of the store. Each import resolves to a stand-in that throws if it is ever
 * used; test/package.test.ts checks that the store is written without them and that they are not
 * bundled.
 */
const LEFT_OUT = {
  importer: /[\\/]node_modules[\\/]conf[\\/]/,
  path: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/,
};

/** The plugin that leaves those out; the standalone executable's bundle (sea.mjs) uses it too. */
export const leaveOut = {
  name: 'leave-out',
  setup(build) {
    build.onResolve({ filter: LEFT_OUT.path }, (args) =>
      LEFT_OUT.importer.test(args.importer) ? { path: args.path, namespace: 'left-out' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, ({ path }) => ({
      contents: `const leftOut = () => { throw new Error(${JSON.stringify(`${path} is left out of payorder's bundle (.ci/build.mjs)`)}); };
        const standIn = new Proxy(leftOut, { get: () => standIn, apply: leftOut, construct: leftOut });
        export { standIn as Ajv2020, standIn as default };`,
      loader: 'js',
    }));
  },
};

/** The plugin that makes an import of an APART package a require of its own file, beside the importer's. */
const apart = {
  name: 'apart',
  setup(build) {
    const names = Object.keys(APART).map((name) => name.replace(/[/\\^$.*+?()[\]{}|-]/g, '\\$&'));
    build.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: `./${APART[args.path]}`, external: true },
    );
  },
};

/** esbuild's options that every output file shares. */
function sharedOptions(version) {
  return {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    // The oldest Node that package.json "engines" allows: 22.13, the oldest 22 the bundled prompts
    // support (package.json "overrides" keeps them on the releases that do).
    target: 'node22.13',
    minify: MINIFY,
    legalComments: 'none',
    // The keychain addon is native code with a prebuilt package per platform: it cannot be bundled,
    // stays an optional dependency, and is loaded only when a secret is read or stored.
    external: ['@napi-rs/keyring'],
    // The version the bundled CLI reports (commander's --version, SARIF reports), from package.json.
    define: { PAYORDER_VERSION: JSON.stringify(version) },
    logLevel: 'warning',
  };
}

/**
 * The CLI (src/main.ts), undici (above) and migrate-check's worker threads
 * (src/migrate/syntax/worker.ts), each as one CommonJS file: Node's compile cache keeps one entry per file, and a command loads only the
 * modules it imports (esbuild runs a module reached only by import() when it is first imported).
 */
function cliOptions(version, outdir) {
  const shared = sharedOptions(version);
  return {
    ...shared,
    entryPoints: {
      cli: 'src/main.ts',
      ...Object.fromEntries(Object.entries(APART).map(([name, file]) => [file.replace(/\.cjs$/, ''), name])),
      'syntax-worker': 'src/migrate/syntax/worker.ts',
    },
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // import.meta.url (where the grammars are, what migrate-check's worker threads run) as the URL of
    // the bundle's own file.
    define: { ...shared.define, 'import.meta.url': '__importMetaUrl' },
    // Any other import.meta would be an empty object here: refused rather than built.
    logOverride: { 'empty-import-meta': 'error' },
    // "use strict" first: an ES module's code is strict throughout, and a directive counts only at
    // the start of the file.
    banner: { js: `"use strict";var __importMetaUrl=require('node:url').pathToFileURL(__filename).href;` },
  };
}

/**
 * The sandbox for other programs to import (`payorder/dist/sandbox.js`, README): the CLI bundle's
 * startSandbox, as an ES module. One copy of the code: the CLI has the sandbox in it.
 */
const SANDBOX_MODULE = `import cli from './cli.cjs';

export const { startSandbox } = cli;
`;

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
 * Removes what earlier builds made and this one does not (the ES module chunks of dist/chunks/, an
 * entry point of another name): left in dist/, it would be packed (package.json "files").
 */
function removeOldOutputs() {
  const dist = join(ROOT, 'dist');
  if (!existsSync(dist)) return;
  for (const entry of readdirSync(dist))
    if (entry === 'chunks' || (/\.c?js$/.test(entry) && !OUTPUTS.includes(entry)))
      rmSync(join(dist, entry), { recursive: true, force: true });
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
    '.ci/sbom.mjs',
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
  const self = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const { version, license } = self;
  removeDeadBuilds();
  const next = join(ROOT, `dist/.build-${process.pid}`);
  // Every output file carries a line saying where the notices of the code bundled into it now are.
  const banner = `/*! payorder ${version} | ${license} | bundled packages: ${LICENSES} */`;
  const licenses = thirdPartyLicenses(join(next, LICENSES), banner);
  try {
    // The licence plugin writes its file even when the build fails: let it, so the build's own
    // error is the one reported.
    mkdirSync(next, { recursive: true });
    const { metafile } = await esbuild.build({
      ...cliOptions(version, next),
      plugins: [leaveOut, apart, licenses.plugin],
      metafile: true,
    });
    const shipped = licenses.complete(metafile, GRAMMARS);
    writeFileSync(join(next, SBOM), `${JSON.stringify(cycloneDx(self, shipped), null, 2)}\n`);
    writeFileSync(join(next, 'sandbox.js'), SANDBOX_MODULE);
    copyGrammars(join(next, 'grammars'));
    for (const output of OUTPUTS) swapIn(join(next, output), join(ROOT, 'dist', output));
    removeOldOutputs();
    swapIn(join(next, LICENSES), join(ROOT, LICENSES));
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();

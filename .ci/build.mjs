/**
 * Builds dist/ from src/: the CLI (dist/main.js) and the sandbox server (dist/sandbox.js), with the
 * code they share split into dist/chunks/. `npm run build` runs this file; the test run's global
 * setup imports build() so that tests never run a stale dist/.
 */
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The build's output: the two entry points, their chunks, and migrate-check's grammars. */
const OUTPUTS = ['main.js', 'sandbox.js', 'chunks', 'grammars'];

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
 * Bundles the CLI and the sandbox into a fresh folder, then swaps it into dist/: a leftover chunk
 * of an earlier build would still be packed (package.json "files"), and a test or benchmark running
 * from dist/ at the same moment never sees a half-written build.
 */
export async function build() {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const next = `dist/.build-${process.pid}`;
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/server.ts' },
    bundle: true,
    // Commands load their modules lazily (dynamic import); splitting gives those their own chunks,
    // and code shared by the CLI and the sandbox one copy.
    splitting: true,
    format: 'esm',
    platform: 'node',
    // The oldest Node that package.json "engines" allows.
    target: 'node22.12',
    outdir: next,
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    // The version the bundled CLI reports (commander's --version, SARIF reports), from package.json.
    define: { PAYORDER_VERSION: JSON.stringify(version) },
    // Bundled CommonJS dependencies call require() inside this ESM bundle, where Node defines no
    // require; esbuild's stand-in would throw 'Dynamic require of "…" is not supported'. Give them one.
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    logLevel: 'warning',
  });
  copyGrammars(fileURLToPath(new URL(`../${next}/grammars`, import.meta.url)));
  for (const output of OUTPUTS) {
    rmSync(new URL(`../dist/${output}`, import.meta.url), { recursive: true, force: true });
    renameSync(
      new URL(`../${next}/${output}`, import.meta.url),
      new URL(`../dist/${output}`, import.meta.url),
    );
  }
  rmSync(new URL(`../${next}`, import.meta.url), { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();

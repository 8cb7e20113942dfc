/**
 * Builds the standalone executable, dist/sea/payorder: one file that runs payorder where Node is not
 * installed. The CLI is bundled into a single ESM file (no chunks: the executable runs one embedded
 * script and loads no code from disk), then Node 26's `--build-sea` embeds it, with its V8 code cache,
 * into a copy of the Node 26 binary, and migrate-check's grammars (from dist/grammars/) as assets.
 * `npm run sea` runs this file; test/sea.test.ts imports buildSea() to build one of its own.
 */
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { execa } from 'execa';
import { buildIfChanged, leaveOut } from './build.mjs';
import { nodeRuntime, RUNTIMES } from './runtimes.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where `npm run sea` writes the executable; package.json "files" leaves dist/sea/ out of the package. */
export const SEA_OUTPUT = join(ROOT, 'dist/sea/payorder');

/**
 * The Node the executable is made of: on Linux, where `strip` is installed, a copy of Node 26 without
 * its symbol tables (a fifth smaller, and it runs the same; stripping the finished executable
 * instead breaks it); Node 26 as it is elsewhere.
 */
async function baseExecutable(work) {
  const node26 = await nodeRuntime(RUNTIMES.node26);
  if (process.platform !== 'linux') return node26;
  const stripped = join(work, 'node');
  copyFileSync(node26, stripped);
  const { failed } = await execa('strip', [stripped], { reject: false, stdin: 'ignore' });
  return failed ? node26 : stripped;
}

/** Builds the executable at `output` from src/ and dist/grammars/ (which the build makes). */
export async function buildSea(output = SEA_OUTPUT) {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const work = join(dirname(output), `.build-${process.pid}`);
  mkdirSync(work, { recursive: true });
  try {
    const main = join(work, 'payorder.mjs');
    await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: ['src/sea.ts'],
      outfile: main,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: `node${RUNTIMES.node26}`,
      // Not minified: from the minified bundle, the executable starts slower (measured: --help 1.4 times).
      minify: false,
      legalComments: 'none',
      // The version `payorder --version` reports, as in build.mjs.
      define: { PAYORDER_VERSION: JSON.stringify(version) },
      // As in build.mjs: bundled CommonJS dependencies call require(), which ESM does not define.
      banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
      // The keychain addon is imported by a name held in a variable (src/store/keychain.ts), which the
      // bundle leaves as it is. Inside the executable import() loads Node's built-in modules only, so
      // that import fails and login keeps the secret in the file, as where the addon is not installed.
      // Code of bundled packages that payorder never runs stays out, as in build.mjs.
      plugins: [leaveOut],
      logLevel: 'warning',
    });
    const grammars = join(ROOT, 'dist/grammars');
    const config = join(work, 'sea-config.json');
    writeFileSync(
      config,
      JSON.stringify({
        main,
        mainFormat: 'module',
        executable: await baseExecutable(work),
        output: join(work, 'payorder'),
        disableExperimentalSEAWarning: true,
        // V8's compiled code of the bundle's top level, made now: --help starts in about two thirds of the time.
        useCodeCache: true,
        // Read by src/migrate/syntax/grammars.ts under their file names.
        assets: Object.fromEntries(readdirSync(grammars).map((file) => [file, join(grammars, file)])),
      }),
    );
    await execa(await nodeRuntime(RUNTIMES.node26), ['--build-sea', config], { stdin: 'ignore' });
    // Swapped in whole: a run of the previous executable never meets a half-written file.
    renameSync(join(work, 'payorder'), output);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return output;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildIfChanged();
  console.log(await buildSea());
}

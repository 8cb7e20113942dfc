/**
 * Node runtimes other than the toolchain's own (the `node` devDependency, Node 24): the packaging
 * test runs the tarball on each Node that payorder supports, and the standalone executable is built
 * with Node 26. Each comes from the npm registry as the `node` package, installed once into a cache
 * folder inside node_modules and reused by later runs. They are not devDependencies: every version
 * of the `node` package links the same `node_modules/.bin/node`, and the toolchain's must win.
 *
 * `node .ci/runtimes.mjs` installs them all (CI does this before the tests).
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache/payorder-node');

/**
 * The runtimes that are tested besides the toolchain's: the release just below the engines floor,
 * the floor (the oldest Node that package.json "engines" allows), the latest 22, and 26.
 */
export const RUNTIMES = Object.freeze({
  /** The last release below the floor, which payorder must refuse in one line. */
  belowFloor: '22.12.0',
  floor: '22.13.0',
  latest22: '22.23.3',
  node26: '26.10.0',
});

/**
 * The path of the `node` binary of `version`, installed from the registry if the cache lacks it.
 * Installs into a fresh folder and renames it into place, so that runs at the same time never see
 * half an install.
 */
export async function nodeRuntime(version) {
  const folder = join(CACHE, version);
  const binary = join(folder, 'node_modules/node/bin/node');
  if (existsSync(binary)) return binary;
  const next = `${folder}.${process.pid}`;
  mkdirSync(next, { recursive: true });
  try {
    await execa(
      'npm',
      [
        'install',
        '--prefix',
        next,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        `node@${version}`,
      ],
      { stdin: 'ignore' },
    );
    if (!existsSync(binary)) renameSync(next, folder);
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const version of Object.values(RUNTIMES)) console.log(await nodeRuntime(version));
}

/**
 * THIRD_PARTY_LICENSES: the licences of the packages bundled into dist/. The bundle strips their
 * own notices (esbuild's legalComments), so this file carries them: each package's name, version,
 * declared licence and the full text of its licence file.
 *
 * esbuild-plugin-license collects the packages as esbuild loads their files. It names a file's
 * package by the nearest package.json and skips files under one without a name, which some packages
 * keep in their subfolders (zod does); the build's metafile says what the output really holds, and
 * the packages the plugin missed are added from it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import license from 'esbuild-plugin-license';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Standard licence texts, by SPDX id, for packages that ship no licence file of their own. */
const STANDARD_TEXTS = join(ROOT, '.ci/licenses');

/** The licence file of the package in `folder`, found the way the plugin finds it; '' if none. */
function licenseFileText(folder) {
  const file = readdirSync(folder).find((name) => name.toLowerCase().includes('license'));
  return file === undefined ? '' : readFileSync(join(folder, file), 'utf8');
}

/** One package's part of the file; a package without a licence file stops the build unless .ci/licenses/ has its licence. */
function section({ packageJson, licenseText }) {
  const heading = `${packageJson.name} ${packageJson.version} (${packageJson.license})`;
  if (licenseText.trim() !== '') return `${heading}\n\n${licenseText.trim()}`;
  const standard = join(STANDARD_TEXTS, `${packageJson.license}.txt`);
  if (!existsSync(standard))
    throw new Error(
      `${packageJson.name} ships no licence file, and .ci/licenses/ has no ${packageJson.license}.txt`,
    );
  return [
    heading,
    `The package ships no licence file; this is the standard text of ${packageJson.license}, the licence it declares.`,
    readFileSync(standard, 'utf8').trim(),
  ].join('\n\n');
}

function render(packages) {
  const sorted = [...packages].sort((a, b) => (a.packageJson.name < b.packageJson.name ? -1 : 1));
  return [
    'payorder bundles the following packages into its dist/ folder. Their licences follow.',
    ...sorted.map(section),
  ].join(`\n\n${'-'.repeat(80)}\n\n`);
}

/**
 * The licence plugin for the build, writing `file`, and complete(metafile), which adds to `file`
 * the bundled packages the plugin missed. `banner` is prepended to every output file.
 */
export function thirdPartyLicenses(file, banner) {
  const { name: self } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  let loaded = [];
  const plugin = license({
    banner,
    thirdParty: {
      output: {
        file,
        template(dependencies) {
          loaded = dependencies.filter(({ packageJson }) => packageJson.name !== self);
          return render(loaded);
        },
      },
    },
  });

  function complete(metafile) {
    const listed = new Set(loaded.map(({ packageJson }) => packageJson.name));
    const missed = new Map();
    const folders = new Set();
    for (const output of Object.values(metafile.outputs))
      for (const input of Object.keys(output.inputs)) {
        // The innermost node_modules/<package>/ of the input's path.
        const folder = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
        if (folder === undefined || folders.has(folder)) continue;
        folders.add(folder);
        const packageJson = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8'));
        if (!listed.has(packageJson.name))
          missed.set(packageJson.name, { packageJson, licenseText: licenseFileText(join(ROOT, folder)) });
      }
    if (missed.size > 0) writeFileSync(file, render([...loaded, ...missed.values()]));
  }

  return { plugin, complete };
}

/**
 * THIRD_PARTY_LICENSES: the licences of what the package ships of others: the packages bundled into
 * dist/, and those whose WebAssembly grammars are copied into dist/grammars/. The bundle strips their
 * own notices (esbuild's legalComments), so this file carries them: each package's name, version,
 * declared licence, the grammar files taken from it, and the full text of its licence file.
 *
 * esbuild-plugin-license collects the packages as esbuild loads their files. It names a file's
 * package by the nearest package.json and skips files under one without a name, which some packages
 * keep in their subfolders (zod does); the build's metafile says what the output really holds, and
 * the packages the plugin missed are added from it. The same list, with where each package is in
 * node_modules and which files of dist/ hold it, is what the build's SBOM lists (sbom.mjs).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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

/** The grammar files a package gives dist/grammars/, as a line of the file; '' when none. */
const grammarLine = (files) =>
  files.length === 0 ? '' : `Shipped as ${files.map((file) => `dist/${file}`).join(', ')}.\n\n`;

/**
 * Code of other projects compiled into a package's WebAssembly, whose notices its licence file does
 * not carry: by package, a line saying what is in it and the notice files in .ci/licenses/ (taken
 * from those projects' sources at the versions the package was built from).
 */
const COMPILED_IN = {
  'jq-wasm': {
    about:
      "jq.wasm is jq 1.8.2 compiled to WebAssembly, with the Oniguruma regular expression library (jq 1.8.2's vendor/oniguruma, commit 4ef8920) and the decNumber library in it. jq's notices (its own, dtoa.c, g_fmt.c, decNumber) and Oniguruma's follow.",
    notices: ['jq-1.8.2-COPYING.txt', 'oniguruma-COPYING.txt'],
  },
};

/** The notices of code compiled into a package's WebAssembly, as text to follow its own licence; '' when none. */
function compiledIn(name) {
  const entry = COMPILED_IN[name];
  if (entry === undefined) return '';
  const notices = entry.notices.map((file) => readFileSync(join(STANDARD_TEXTS, file), 'utf8').trim());
  return `\n\n${[entry.about, ...notices].join('\n\n')}`;
}

/** One package's part of the file; a package without a licence file stops the build unless .ci/licenses/ has its licence. */
function section({ packageJson, licenseText, files }) {
  const heading =
    `${packageJson.name} ${packageJson.version} (${packageJson.license})\n\n${grammarLine(files.filter((file) => file.endsWith('.wasm')))}`.trimEnd();
  if (licenseText.trim() !== '') return `${heading}\n\n${licenseText.trim()}${compiledIn(packageJson.name)}`;
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

/** The package folder (node_modules/<package>, the innermost) of a path in node_modules; undefined outside. */
const packageFolderOf = (path) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];

/** A bundled or copied package: its package.json, licence text, folder (from the root) and files of dist/. */
function shippedPackage(folder, files) {
  const packageJson = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8'));
  return { packageJson, licenseText: licenseFileText(join(ROOT, folder)), folder, files: [...files].sort() };
}

/**
 * The packages dist/ holds: from the metafile, each package some of whose code is in the bundle, with
 * the output files that hold it; then the packages of `grammars` ("package/path" of the files copied into dist/grammars/).
 */
function packagesShipped(metafile, grammars) {
  const files = new Map();
  const add = (folder, file) => files.set(folder, (files.get(folder) ?? new Set()).add(file));
  for (const [output, { inputs }] of Object.entries(metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      const folder = packageFolderOf(input);
      if (folder !== undefined && bytesInOutput > 0) add(folder, basename(output));
    }
  for (const grammar of grammars)
    add(packageFolderOf(`node_modules/${grammar}`), `grammars/${basename(grammar)}`);
  // One package of one version may be installed in two folders: one entry, its files together.
  const byVersion = new Map();
  for (const [folder, held] of files) {
    const shipped = shippedPackage(folder, held);
    const key = `${shipped.packageJson.name}@${shipped.packageJson.version}`;
    const known = byVersion.get(key);
    if (known) known.files = [...new Set([...known.files, ...shipped.files])].sort();
    else byVersion.set(key, shipped);
  }
  return [...byVersion.values()];
}

/**
 * The licence plugin for the build, writing `file`, and complete(metafile, grammars), which writes
 * `file` whole (the packages the plugin missed added, the grammar packages too) and gives the
 * packages shipped. `banner` is prepended to every output file.
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
          return render(loaded.map((dependency) => ({ ...dependency, files: [] })));
        },
      },
    },
  });

  function complete(metafile, grammars) {
    const shipped = packagesShipped(metafile, grammars);
    const found = new Set(shipped.map(({ packageJson }) => `${packageJson.name}@${packageJson.version}`));
    // A package the plugin saw load whose code the bundle dropped entirely keeps its licence here,
    // as before; the SBOM lists only what dist/ holds.
    const dropped = loaded
      .filter(({ packageJson }) => !found.has(`${packageJson.name}@${packageJson.version}`))
      .map((dependency) => ({ ...dependency, files: [] }));
    writeFileSync(file, render([...shipped, ...dropped]));
    return shipped;
  }

  return { plugin, complete };
}

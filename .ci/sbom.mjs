/**
 * dist/sbom.cdx.json: the software bill of materials of the package, as CycloneDX 1.6 JSON. It lists
 * what the tarball really ships of others: each package bundled into dist/ (with the files of dist/
 * that hold it) and each package whose grammars are copied into dist/grammars/, from the same list
 * as THIRD_PARTY_LICENSES; and the one package npm installs beside payorder, the optional keychain
 * addon. Not the toolchain: nothing a build or a test uses is listed. Each component carries the
 * hash of its npm tarball as package-lock.json records it. No time stamp nor serial number: the same
 * inputs give the same file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The package URL of an npm package: a scope's @ is written %40. */
const purlOf = (name, version) => `pkg:npm/${name.replace(/^@/, '%40')}@${version}`;

/** A licence as CycloneDX writes it: one SPDX id, or an SPDX expression ("MIT OR Apache-2.0"). */
const licensesOf = (spdx) => (/[\s()]/.test(spdx) ? [{ expression: spdx }] : [{ license: { id: spdx } }]);

/** The hash of a package's npm tarball, from package-lock.json's integrity ("sha512-<base64>"). */
function hashesOf(integrity) {
  const match = /^sha512-(.+)$/.exec(integrity ?? '');
  return match ? [{ alg: 'SHA-512', content: Buffer.from(match[1], 'base64').toString('hex') }] : [];
}

/** A component of the BOM: an npm package, where it is found in the package (`files`), and its scope. */
function component({ name, version, license }, integrity, files, scope) {
  const scoped = /^(@[^/]+)\/(.+)$/.exec(name);
  return {
    type: 'library',
    'bom-ref': purlOf(name, version),
    ...(scoped ? { group: scoped[1], name: scoped[2] } : { name }),
    version,
    scope,
    hashes: hashesOf(integrity),
    licenses: licensesOf(license),
    purl: purlOf(name, version),
    ...(files.length > 0
      ? { evidence: { occurrences: files.map((file) => ({ location: `dist/${file}` })) } }
      : {}),
  };
}

/**
 * The BOM of payorder, whose package.json is `self`, shipping `packages` (thirdPartyLicenses's
 * complete(): packageJson, folder, files).
 */
export function cycloneDx(self, packages) {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')).packages;
  const shipped = [...packages]
    .sort((a, b) => (a.packageJson.name < b.packageJson.name ? -1 : 1))
    .map(({ packageJson, folder, files }) =>
      component(packageJson, lock[folder]?.integrity, files, 'required'),
    );
  const beside = Object.keys(self.optionalDependencies ?? {}).map((name) => {
    const locked = lock[`node_modules/${name}`];
    return component(
      { name, version: locked.version, license: locked.license },
      locked.integrity,
      [],
      'optional',
    );
  });
  const components = [...shipped, ...beside];
  const ref = purlOf(self.name, self.version);
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    metadata: {
      component: {
        type: 'application',
        'bom-ref': ref,
        name: self.name,
        version: self.version,
        description: self.description,
        licenses: licensesOf(self.license),
        purl: ref,
      },
    },
    components,
    // What the components depend on in turn is not known here: only payorder's own edges are listed.
    dependencies: [{ ref, dependsOn: components.map((each) => each['bom-ref']) }],
  };
}

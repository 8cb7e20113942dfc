/**
 * What the build says the package ships of others (.ci/build.mjs): dist/sbom.cdx.json, a CycloneDX
 * 1.6 bill of materials valid against the official schema, lists every package bundled into dist/
 * and every package whose grammars dist/grammars/ holds, with where each is, its licence and the
 * hash of its npm tarball, and nothing of the toolchain; THIRD_PARTY_LICENSES carries the licence of
 * each grammar; the keychain addon, the one package npm installs beside payorder, is pinned exactly.
 * The package test checks the same files in the installed tarball.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json'));
const sbomText = read('dist/sbom.cdx.json');
const sbom = JSON.parse(sbomText);

/** A component's npm name: its group (a scope) and name. */
const npmName = (component: { group?: string; name: string }) =>
  component.group ? `${component.group}/${component.name}` : component.name;

/** The packages THIRD_PARTY_LICENSES lists, as "name version". */
const licensed = read('THIRD_PARTY_LICENSES')
  .split(`\n\n${'-'.repeat(80)}\n\n`)
  .slice(1)
  .map((part) => /^\s*(\S+ \S+) \(/.exec(part)![1]!);

describe('dist/sbom.cdx.json', () => {
  it('is CycloneDX 1.6 JSON that the official schema accepts, about payorder', async () => {
    const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);
    expect(await validator.validate(sbomText)).toBeNull();
    expect(sbom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6' });
    expect(sbom.metadata.component).toMatchObject({
      type: 'application',
      name: 'payorder',
      version: manifest.version,
      purl: `pkg:npm/payorder@${manifest.version}`,
    });
  });

  it('lists what dist/ holds of others, as THIRD_PARTY_LICENSES does, each with its files, licence and hash', () => {
    const OWN_FILE: Record<string, string> = {
      undici: 'undici.cjs',
      'web-tree-sitter': 'web-tree-sitter.cjs',
    };
    const shipped = sbom.components.filter((component: any) => component.scope === 'required');
    expect(shipped.map((component: any) => `${npmName(component)} ${component.version}`).sort()).toEqual(
      [...licensed].sort(),
    );
    for (const name of ['commander', 'ky', 'zod', 'undici', 'conf', 'proper-lockfile', 'web-tree-sitter'])
      expect(
        shipped.find((component: any) => npmName(component) === name),
        name,
      ).toMatchObject({
        evidence: {
          // undici and web-tree-sitter have files of their own, which only the commands that use
          // them load (a batch's agents; migrate-check).
          occurrences: expect.arrayContaining([{ location: `dist/${OWN_FILE[name] ?? 'cli.cjs'}` }]),
        },
      });
    for (const component of shipped) {
      expect(component.purl).toBe(`pkg:npm/${npmName(component).replace('@', '%40')}@${component.version}`);
      expect(component.hashes, component.purl).toEqual([
        { alg: 'SHA-512', content: expect.stringMatching(/^[0-9a-f]{128}$/) },
      ]);
      expect(component.licenses, component.purl).toHaveLength(1);
      for (const { location } of component.evidence.occurrences)
        expect(readdirSync(join(ROOT, 'dist'), { recursive: true }).map((file) => `dist/${file}`)).toContain(
          location,
        );
    }
  });

  it('lists each grammar of dist/grammars/ under its package, and nothing of the toolchain', () => {
    const grammars = readdirSync(join(ROOT, 'dist/grammars'));
    // The tree-sitter runtime, thirteen grammars, and jq (for --jq).
    expect(grammars).toHaveLength(15);
    expect(grammars).toContain('jq.wasm');
    const locations = sbom.components.flatMap((component: any) =>
      (component.evidence?.occurrences ?? []).map(({ location }: { location: string }) => location),
    );
    for (const grammar of grammars) expect(locations).toContain(`dist/grammars/${grammar}`);
    const hcl = sbom.components.find((component: any) => component.name === 'tree-sitter-hcl');
    expect(hcl).toMatchObject({
      group: '@tree-sitter-grammars',
      licenses: [{ license: { id: 'Apache-2.0' } }],
    });
    const names = sbom.components.map(npmName);
    for (const tool of [
      'esbuild',
      'typescript',
      'vitest',
      '@biomejs/biome',
      'node',
      'esbuild-plugin-license',
    ])
      expect(names).not.toContain(tool);
  });

  it('lists the keychain addon as optional, at the exact version package.json pins', () => {
    const pinned = manifest.optionalDependencies['@napi-rs/keyring'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const lock = JSON.parse(read('package-lock.json'));
    expect(lock.packages[''].optionalDependencies['@napi-rs/keyring']).toBe(pinned);
    expect(lock.packages['node_modules/@napi-rs/keyring'].version).toBe(pinned);
    const addon = sbom.components.filter((component: any) => component.scope === 'optional');
    expect(addon).toEqual([
      expect.objectContaining({
        group: '@napi-rs',
        name: 'keyring',
        version: pinned,
        purl: `pkg:npm/%40napi-rs/keyring@${pinned}`,
      }),
    ]);
    expect(addon[0].evidence).toBeUndefined();
  });
});

describe('THIRD_PARTY_LICENSES', () => {
  it('carries the licence of each grammar package, naming the files it gives dist/grammars/', () => {
    const parts = read('THIRD_PARTY_LICENSES')
      .split(`\n\n${'-'.repeat(80)}\n\n`)
      .map((part) => part.trim());
    const expected: [string, string, RegExp][] = [
      ['@vscode/tree-sitter-wasm', 'MIT', /tree-sitter-javascript\.wasm[\s\S]*Permission is hereby granted/],
      [
        '@tree-sitter-grammars/tree-sitter-kotlin',
        'MIT',
        /tree-sitter-kotlin\.wasm[\s\S]*Permission is hereby granted/,
      ],
      [
        '@tree-sitter-grammars/tree-sitter-hcl',
        'Apache-2.0',
        /tree-sitter-terraform\.wasm[\s\S]*Apache License/,
      ],
      ['web-tree-sitter', 'MIT', /web-tree-sitter\.wasm[\s\S]*Permission is hereby granted/],
    ];
    for (const [name, licence, text] of expected) {
      const part = parts.find((each) => each.startsWith(`${name} `));
      expect(part, name).toMatch(
        new RegExp(`^${name} [\\d.]+ \\(${licence}\\)\\n\\nShipped as dist/grammars/`),
      );
      expect(part).toMatch(text);
    }
    for (const grammar of readdirSync(join(ROOT, 'dist/grammars')))
      expect(
        parts.some((part) => part.includes(`dist/grammars/${grammar}`)),
        grammar,
      ).toBe(true);
  });
});

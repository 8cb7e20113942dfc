/**
 * The integration unit the codemod fixes all or nothing: the folder of the nearest project manifest
 * (package.json, composer.json, go.mod, pom.xml, a Gradle build, a .csproj, Gemfile, pyproject.toml,
 * requirements.txt, setup.py) or git work tree root above a file, and never above the folder
 * migrate-check was given. Its requests are built from the files under that folder: addresses in
 * its configuration, bodies and reads in its code. Without a manifest, the folder given is the unit.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

const MANIFESTS = [
  'package.json',
  'composer.json',
  'go.mod',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'Gemfile',
  'pyproject.toml',
  'requirements.txt',
  'setup.py',
  '.git',
];

function hasManifest(folder: string): boolean {
  if (MANIFESTS.some((name) => existsSync(join(folder, name)))) return true;
  try {
    return readdirSync(folder).some((name) => name.endsWith('.csproj'));
  } catch {
    return false;
  }
}

/** The folder that contains `file` and was given (or is the file's own folder, for a file given). */
function givenFolder(file: string, given: string[]): string {
  const absolute = resolve(file);
  const folders = given
    .map((path) => resolve(path))
    .map((path) => (existsSync(path) && statSync(path).isDirectory() ? path : dirname(path)))
    .filter((folder) => absolute === folder || absolute.startsWith(folder + sep))
    .sort((a, b) => b.length - a.length);
  return folders[0] ?? dirname(absolute);
}

/** The unit's folder (absolute) of a file that migrate-check found under the `given` paths. */
export function unitOf(file: string, given: string[]): string {
  const top = givenFolder(file, given);
  for (let folder = dirname(resolve(file)); ; folder = dirname(folder)) {
    if (hasManifest(folder) || folder === top || dirname(folder) === folder) return folder;
  }
}

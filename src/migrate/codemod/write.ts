/**
 * migrate-check --fix --write for source and configuration: files are changed in place, so git is
 * the undo. Outside a git work tree, or where a file to change has uncommitted changes, nothing is
 * written unless --force.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, usageError } from '../../errors.js';
import type { FilePlan } from './plan.js';

function git(folder: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', folder, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
}

/** Why the files may not be written without --force, or undefined when they may. */
export function gitRefusal(files: string[]): string | undefined {
  for (const file of files) {
    const folder = dirname(resolve(file));
    if (git(folder, ['rev-parse', '--is-inside-work-tree'])?.trim() !== 'true')
      return `${file} is not in a git work tree, so nothing could undo the change; --force writes anyway`;
    const status = git(folder, ['status', '--porcelain', '--', resolve(file)]);
    if (status === undefined)
      return `git cannot tell whether ${file} has uncommitted changes; --force writes anyway`;
    if (status.trim() !== '')
      return `${file} has uncommitted changes: commit them first, so that git can undo this change, or --force`;
  }
  return undefined;
}

/** Writes the fixed files in place; `force` skips the git rules. */
export function writeInPlace(files: FilePlan[], force: boolean): void {
  if (!force) {
    const refusal = gitRefusal(files.map((file) => file.file));
    if (refusal) throw usageError(`--write: ${refusal}`, { field: '--write' });
  }
  for (const file of files) {
    try {
      writeFileSync(file.file, file.after);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CliError('io', `--write: cannot write ${file.file} (${code ?? (error as Error).message})`);
    }
  }
}

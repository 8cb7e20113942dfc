/**
 * The unified diff of the codemod's edits, made by jsdiff (the `diff` package) so that it applies
 * with `git apply` or `patch -p1` like any other.
 */
import { createTwoFilesPatch } from 'diff';

/** The unified diff of one file, its path shown as a/PATH and b/PATH. */
export function unifiedDiff(file: string, before: string, after: string): string {
  // An absolute path is shown as git shows paths, without its leading slash (a/tmp/x, not a//tmp/x).
  const path = file.replaceAll('\\', '/').replace(/^\.\//, '').replace(/^\/+/, '');
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, {
    context: 3,
  });
  // jsdiff opens with an Index line and a row of '=' that git's format does not have.
  return patch.replace(/^(?:Index: [^\n]*\n)?=+\n/, '');
}

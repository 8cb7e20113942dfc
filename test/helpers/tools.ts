/**
 * System tools that some tests run (bash, zsh, fish, `script` for a pseudo-terminal, curl, jq).
 * Where one is missing, the tests that need it are skipped and their title says why; under CI=true
 * (.ci/run installs every tool) a missing tool fails the run instead, so CI never passes by skipping.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const onPath = new Map<string, boolean>();

/** Whether `name` is an executable file in a folder of PATH. */
export function hasTool(name: string): boolean {
  let found = onPath.get(name);
  if (found === undefined) {
    found = (process.env.PATH ?? '').split(delimiter).some((dir) => {
      const file = join(dir || '.', name);
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    });
    onPath.set(name, found);
  }
  return found;
}

/** Whether missing tools fail the tests instead of skipping them. */
const UNDER_CI = process.env.CI === 'true';

/** What a group of tests needs from the system, and what to do where some of it is missing. */
export interface ToolNeed {
  /** The needed tools that are not installed. */
  missing: string[];
  /** Skip the tests: a tool is missing and this is not CI. */
  skip: boolean;
  /** Why, e.g. "zsh is not installed"; empty when nothing is missing. */
  reason: string;
  /** `title`, with " (skipped: <reason>)" appended when skipping. */
  title(title: string): string;
  /** Fails ("zsh is required under CI=true; …") where a tool is missing under CI; else does nothing. */
  check(): void;
}

/**
 * The tools some tests need: skip them where one is missing, and under CI=true (where `skip` is
 * false) let `check` fail them with a clear message instead of a spawn error:
 *
 *   const zsh = needsTool('zsh');
 *   describe.skipIf(zsh.skip)(zsh.title('zsh completion'), () => { beforeAll(zsh.check); … });
 */
export function needsTool(...names: string[]): ToolNeed {
  const missing = names.filter((name) => !hasTool(name));
  const [list, one] = [missing.join(' and '), missing.length === 1];
  const skip = missing.length > 0 && !UNDER_CI;
  const reason = missing.length > 0 ? `${list} ${one ? 'is' : 'are'} not installed` : '';
  // Vitest's default reporter shows only a count of skipped tests; this line says which and why.
  if (skip) console.warn(`Skipping the tests that need ${list}: ${reason}.`);
  return {
    missing,
    skip,
    reason,
    title: (title) => (skip ? `${title} (skipped: ${reason})` : title),
    check() {
      if (missing.length > 0 && UNDER_CI)
        expect.fail(
          `${list} ${one ? 'is' : 'are'} required under CI=true; .ci/run installs ${one ? 'it' : 'them'}`,
        );
    },
  };
}

/**
 * `describe(title, body)` for tests that run system tools: where one is missing the group is skipped
 * with the reason in its title; under CI=true it is replaced by one test that fails naming the tool.
 */
export function describeWithTools(tools: string[], title: string, body: () => void): void {
  const need = needsTool(...tools);
  if (need.missing.length > 0 && UNDER_CI) describe(title, () => it(`needs ${tools.join(', ')}`, need.check));
  else describe.skipIf(need.skip)(need.title(title), body);
}

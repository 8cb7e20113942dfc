/**
 * One temporary folder for the whole test run: every test's config folders, batch files and work
 * directories go inside it, and it is removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    tempRoot: string;
  }
}

export default function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'payorder-tests-'));
  project.provide('tempRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}

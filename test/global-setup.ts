/**
 * Before any test: builds dist/ from the current src/ (end-to-end tests run the built CLI, and must
 * never run a stale one), and makes one temporary folder for the whole test run: every test's config
 * folders, batch files and work directories go inside it, and it is removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from '../.ci/build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    tempRoot: string;
  }
}

export default async function setup(project: TestProject) {
  await build();
  const root = mkdtempSync(join(tmpdir(), 'payorder-tests-'));
  project.provide('tempRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}

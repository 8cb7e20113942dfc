/**
 * Before any test: builds dist/ from the current src/ (end-to-end tests run the built CLI, and must
 * never run a stale one), and makes one temporary folder for the whole test run: every test's config
 * folders, batch files and work directories go inside it, and it is removed when the run ends.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildIfChanged } from '../.ci/build.mjs';
import { LONG_TIER } from './tiers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    tempRoot: string;
  }
}

export default async function setup(project: TestProject) {
  const unknown = LONG_TIER.filter((file) => !existsSync(join(project.config.root, file)));
  if (unknown.length > 0)
    throw new Error(`test/tiers.ts lists files that do not exist: ${unknown.join(', ')}`);
  const left = LONG_TIER.filter((file) => project.config.exclude.includes(file));
  if (left.length > 0)
    console.log(
      `Not run: the long tier (${left.length} files, test/tiers.ts). Run everything with npm run test:all; CI does.`,
    );
  await buildIfChanged();
  const root = mkdtempSync(join(tmpdir(), 'payorder-tests-'));
  project.provide('tempRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}

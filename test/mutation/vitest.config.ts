// The test set-up of mutation testing (.stryker.config.mjs): the project's own vitest.config.ts, and a
// setup file that loads the rule modules before any test file runs, so their module-level patterns
// are seen as static wherever the tests first import them (docs/mutation.md).
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig((env) =>
  mergeConfig(base(env), { test: { setupFiles: ['test/mutation/load-rules.ts'] } }),
);

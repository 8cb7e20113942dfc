// At the root because Vitest looks for its config only there: plain `npx vitest run` uses it.
import { configDefaults, defineConfig } from 'vitest/config';
import { LONG_TIER, runsLongTier } from './test/tiers.js';

export default defineConfig(({ mode }) => ({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(runsLongTier(mode) ? [] : LONG_TIER)],
    // Builds dist/ and makes the run's temporary folder before any test file runs.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Test files share their worker and the modules it loaded: a fresh process per file cost more
    // than a quarter of the run. No test changes a module's state for the next one (a file that
    // mocks a module loads what it tests afresh after the mock).
    isolate: false,
    // End-to-end files spawn CLI processes and servers; two cores run two files at a time.
    maxWorkers: 2,
  },
}));

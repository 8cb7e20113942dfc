// At the root because Vitest looks for its config only there: plain `npx vitest run` uses it.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ and makes the run's temporary folder before any test file runs.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // End-to-end files spawn CLI processes and servers; two cores run two files at a time.
    maxWorkers: 2,
  },
});

/**
 * The long tier: test files that each take from five to twenty-five seconds, mostly of CPU, and
 * together more than half of the run. They run under CI=true (.ci/run), with `npm run test:all`,
 * and with `--mode all` on vitest's command line; a plain `npm test` leaves them out and says so.
 */
export const LONG_TIER = [
  // Packs the tarball, installs it, and runs it on four Nodes.
  'test/package.test.ts',
  // Builds the standalone executable (a copy of Node 26) and runs it.
  'test/sea.test.ts',
  // Runs every sh block of the README, about seventy runs of the built CLI.
  'test/readme.test.ts',
  // Runs the demo on a pseudo-terminal.
  'test/demo.test.ts',
  // Starts a D-Bus session and gnome-keyring for each case.
  'test/commands/keychain.test.ts',
  // A batch of 20,000 lines against the in-process sandbox.
  'test/orders/batch-shape.test.ts',
  // Times migrate-check's statement selection on 10,000 and 40,000 lines.
  'test/migrate/scaling.test.ts',
  // Fixes small v1 integrations in seven languages and runs each against the sandbox (Go and Java compile).
  'test/migrate/codemod-run.test.ts',
  // Runs fourteen integrations in eight languages, v1 and v2, against the sandbox.
  'test/migrate/runnable.test.ts',
];

/** Whether a run with vitest's `mode` includes the long tier. */
export const runsLongTier = (mode: string) => mode === 'all' || process.env.CI === 'true';

// Mutation testing of migrate-check's rules (docs/mutation.md): a local tier like the benchmarks,
// not part of `npm test`. One module at a time: npm run mutation -- --mutate src/migrate/syntax/amounts.ts
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // The project's own vitest.config.ts (its global setup builds dist/ inside the sandbox) with a setup
  // file that loads the rule modules before any test: their module-level patterns are then static
  // however the tests first import them. Forks like `npm test`, as some test files spawn the CLI and
  // change the working directory.
  vitest: { configFile: 'test/mutation/vitest.config.ts', pool: 'forks' },
  // The rules' own tests, which call them in process. The rest of the suite runs the built CLI or
  // other commands, which no mutant of a rule reaches.
  testFiles: ['test/migrate/**/*.test.ts', 'test/commands/migrate-check*.test.ts'],
  coverageAnalysis: 'perTest',
  // A mutant of a module-level constant (a rule's pattern) needs the whole environment reloaded and
  // every covering test run: on two shared cores, over half an hour a module. They are reported as
  // ignored, and left out of the score.
  ignoreStatic: true,
  // Stryker rewrites a tsconfig's `extends` and `references` for the sandbox through TypeScript's
  // JavaScript API, which TypeScript 7 no longer has; tsconfig.json has neither, so none is named.
  tsconfigFile: '',
  // Nothing type-checks the sandbox, and a "// @ts-nocheck" line added to the fixtures under test/
  // would move every line that the tests expect a finding on.
  disableTypeChecks: false,
  // Two cores shared with other work: one test process.
  concurrency: 1,
  // Built output and reports are not inputs: the sandbox builds its own dist/ from the mutated src/.
  ignorePatterns: ['dist', 'coverage', '.payorder-tmp'],
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'coverage/mutation/mutation.html' },
  jsonReporter: { fileName: 'coverage/mutation/mutation.json' },
  // A mutant that makes a rule loop on a file is a timeout (counted as detected), not a hang.
  timeoutMS: 20_000,
};

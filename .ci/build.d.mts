// Types for build.mjs, which the test run's global setup (TypeScript) imports.

/** Empties dist/ and bundles the CLI and the sandbox into it. */
export declare function build(): Promise<void>;

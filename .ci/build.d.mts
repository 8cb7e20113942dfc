// Types for build.mjs, which the test run's global setup (TypeScript) imports.

/** Bundles the CLI and the sandbox into dist/, and writes THIRD_PARTY_LICENSES for what they bundle. */
export declare function build(): Promise<void>;

/** Builds as build() does, unless dist/ was built from the same inputs (src/, the packages, the build's own files). */
export declare function buildIfChanged(): Promise<void>;

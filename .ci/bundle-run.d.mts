// Types for bundle-run.mjs, whose bundle() the demo test (TypeScript) imports.

/** The bundle of test/<dir>/<name>.ts: dist/<dir>/<name>.mjs (relative to the root). */
export declare function bundlePath(entry: string): string;
/** Bundles one script under test/ and returns its bundle's path (relative to the root). */
export declare function bundle(entry: string): Promise<string>;

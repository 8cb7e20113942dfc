// Types for sea.mjs, whose buildSea() the standalone executable's test (TypeScript) imports.

/** Where `npm run sea` writes the executable. */
export declare const SEA_OUTPUT: string;
/** Builds the standalone executable at `output` (SEA_OUTPUT by default) and returns its path. */
export declare function buildSea(output?: string): Promise<string>;

// Types for runtimes.mjs, whose runtimes the packaging test (TypeScript) runs the tarball on.

/** The runtimes that are tested besides the toolchain's: the engines floor, the latest 22, the oldest 24 allowed, and 26. */
export declare const RUNTIMES: Readonly<{
  belowFloor: string;
  floor: string;
  latest22: string;
  node26: string;
}>;
/** The path of the `node` binary of `version`, installed from the registry if the cache lacks it. */
export declare function nodeRuntime(version: string): Promise<string>;

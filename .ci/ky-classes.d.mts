// Types for ky-classes.mjs, which vitest.config.ts (TypeScript) imports.

/** The Vite plugin that gives ky's modules payorder's Headers, Request and Response classes. */
export declare const kyClassesForVite: {
  name: string;
  enforce: 'pre';
  transform(code: string, id: string): string | undefined;
};

/**
 * ky builds its requests and reads its answers with the Headers, Request and Response classes it
 * finds on globalThis. Node's are undici's, and the first use of any of them loads undici: about
 * 45 ms of a one-shot command. Wherever payorder's code runs (the bundle, the standalone executable,
 * the tests), each of ky's modules that names globalThis finds payorder's instead: the import this
 * adds at its top binds the name to `kyGlobal` (src/api/ky-classes.ts), globalThis with payorder's
 * three classes in place of Node's. Nothing on the real globalThis changes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const KY_CLASSES = fileURLToPath(new URL('../src/api/ky-classes.ts', import.meta.url));

/** ky's own modules (as published: ESM in distribution/). */
export const KY_MODULE = /[\\/]node_modules[\\/]ky[\\/]distribution[\\/].+\.js$/;

/** A module of ky's with payorder's globalThis, when it names globalThis at all. */
export function withKyClasses(code) {
  return /\bglobalThis\b/.test(code)
    ? `import { kyGlobal as globalThis } from ${JSON.stringify(KY_CLASSES)};\n${code}`
    : code;
}

/** For esbuild (.ci/build.mjs, .ci/sea.mjs). */
export const kyClasses = {
  name: 'ky-classes',
  setup(build) {
    build.onLoad({ filter: KY_MODULE }, ({ path }) => ({
      contents: withKyClasses(readFileSync(path, 'utf8')),
      loader: 'js',
    }));
  },
};

/** For Vite, which Vitest transforms modules with (vitest.config.ts, where ky is inlined). */
export const kyClassesForVite = {
  name: 'ky-classes',
  enforce: 'pre',
  transform(code, id) {
    return KY_MODULE.test(id) ? withKyClasses(code) : undefined;
  },
};

/**
 * Loads the tree-sitter runtime and the grammars that migrate-check ships in dist/grammars/ (copied
 * there by .ci/build.mjs), or as assets of the standalone executable (.ci/sea.mjs): only on first
 * use, and only the languages a run meets. Nothing is fetched.
 * Each WebAssembly file is compiled once per process: worker threads are handed the compiled modules
 * (whose code V8 shares between threads) instead of compiling their own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { getRawAsset, isSea } from 'node:sea';
import { fileURLToPath } from 'node:url';
import { Language, Parser } from 'web-tree-sitter';
import { GRAMMAR_FILES, type LanguageId } from './languages.js';

/** The runtime's own WebAssembly, beside the grammars. */
export const RUNTIME_FILE = 'web-tree-sitter.wasm';

/**
 * Where the grammars are: beside the bundle (dist/cli.cjs) or, when this module runs from src/
 * (tests), in the dist/ that the test run builds first.
 */
function grammarFolder(): string {
  const candidates = ['./grammars/', '../../../dist/grammars/'].map((relative) =>
    fileURLToPath(new URL(relative, import.meta.url)),
  );
  const found = candidates.find((folder) => existsSync(`${folder}${RUNTIME_FILE}`));
  if (!found)
    throw new Error('migrate-check: the grammars are missing from dist/grammars/ (run npm run build)');
  return found;
}

/** A compiled WebAssembly module (this project's TypeScript setup has no DOM types for it). */
export type WasmModule = object;
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => WasmModule;
      instantiate(module: WasmModule, imports: unknown): Promise<object>;
    };
  }
).WebAssembly;

const modules = new Map<string, WasmModule>();

/** The bytes of a WebAssembly file: an asset of the standalone executable, or a file of dist/grammars/. */
const wasmBytes = (file: string): Uint8Array =>
  isSea() ? new Uint8Array(getRawAsset(file)) : readFileSync(`${grammarFolder()}${file}`);

/** A WebAssembly file of dist/grammars/ (or the executable's asset of that name), compiled (once). */
function compiled(file: string): WasmModule {
  let module = modules.get(file);
  if (!module) {
    module = new wasm.Module(wasmBytes(file));
    modules.set(file, module);
  }
  return module;
}

/** Compiled modules to hand to a worker thread, by file name. */
export function shareModules(files: Iterable<string>): Record<string, WasmModule> {
  return Object.fromEntries([...files].map((file) => [file, compiled(file)]));
}

/** Takes the modules another thread compiled. */
export function adoptModules(shared: Record<string, WasmModule>): void {
  for (const [file, module] of Object.entries(shared)) if (!modules.has(file)) modules.set(file, module);
}

/** The files a language needs: the runtime and its grammar. */
export const filesFor = (id: LanguageId) => [RUNTIME_FILE, GRAMMAR_FILES[id]];

let runtime: Promise<void> | undefined;

function ready(): Promise<void> {
  runtime ??= Parser.init({
    // The runtime from its compiled module: compiled once per process, shared with worker threads.
    instantiateWasm(imports: unknown, receive: (instance: object, module: WasmModule) => void) {
      const module = compiled(RUNTIME_FILE);
      void wasm.instantiate(module, imports).then((instance) => receive(instance, module));
      return {};
    },
  } as Parameters<typeof Parser.init>[0]);
  return runtime;
}

const languages = new Map<LanguageId, Promise<Language>>();

/** The grammar of a language, loaded once per thread. */
export function loadLanguage(id: LanguageId): Promise<Language> {
  let language = languages.get(id);
  if (!language) {
    language = ready().then(() =>
      Language.loadSync(compiled(GRAMMAR_FILES[id]) as Parameters<typeof Language.loadSync>[0]),
    );
    languages.set(id, language);
  }
  return language;
}

const parsers = new Map<LanguageId, Parser>();

/** A parser for a language, one per thread and language. */
export async function parserFor(id: LanguageId): Promise<Parser> {
  const language = await loadLanguage(id);
  let parser = parsers.get(id);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers.set(id, parser);
  }
  return parser;
}

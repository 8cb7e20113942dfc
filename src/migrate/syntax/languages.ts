/**
 * Which grammar reads which file: languages by file extension (or a shell script's #! line), and the
 * grammar file of each in dist/grammars/. Files of any other language get the text fallback.
 */
import { basename, extname } from 'node:path';

export type LanguageId =
  | 'javascript'
  | 'typescript'
  | 'tsx'
  | 'php'
  | 'python'
  | 'ruby'
  | 'java'
  | 'kotlin'
  | 'c_sharp'
  | 'go'
  | 'bash'
  /** Configuration, read by src/migrate/config-files.ts (not a source language: no extension maps to it). */
  | 'hcl'
  | 'terraform';

/** The grammar of each language, as .ci/build.mjs copies it into dist/grammars/. */
export const GRAMMAR_FILES: Record<LanguageId, string> = {
  javascript: 'tree-sitter-javascript.wasm',
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  php: 'tree-sitter-php.wasm',
  python: 'tree-sitter-python.wasm',
  ruby: 'tree-sitter-ruby.wasm',
  java: 'tree-sitter-java.wasm',
  kotlin: 'tree-sitter-kotlin.wasm',
  c_sharp: 'tree-sitter-c-sharp.wasm',
  go: 'tree-sitter-go.wasm',
  bash: 'tree-sitter-bash.wasm',
  hcl: 'tree-sitter-hcl.wasm',
  terraform: 'tree-sitter-terraform.wasm',
};

const EXTENSIONS: Record<string, LanguageId> = {
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.php': 'php',
  '.phtml': 'php',
  '.py': 'python',
  '.pyw': 'python',
  '.rb': 'ruby',
  '.rake': 'ruby',
  '.java': 'java',
  '.kt': 'kotlin',
  '.kts': 'kotlin',
  '.cs': 'c_sharp',
  '.go': 'go',
  '.sh': 'bash',
  '.bash': 'bash',
  '.zsh': 'bash',
};

const NAMED: Record<string, LanguageId> = { Rakefile: 'ruby', Gemfile: 'ruby' };

const SHEBANG: Array<[RegExp, LanguageId]> = [
  [/^#!.*\b(?:ba|z|k|da)?sh\b/, 'bash'],
  [/^#!.*\bpython[\d.]*\b/, 'python'],
  [/^#!.*\bnode\b/, 'javascript'],
  [/^#!.*\bruby\b/, 'ruby'],
  [/^#!.*\bphp\b/, 'php'],
];

/** The language of a file by its name, or for a file without extension by its #! line or PHP tag. */
export function languageOf(file: string, text: string): LanguageId | undefined {
  const byExtension = EXTENSIONS[extname(file).toLowerCase()];
  if (byExtension) return byExtension;
  const byName = NAMED[basename(file)];
  if (byName) return byName;
  // Text without a name to go by (stdin): PHP opens with its tag, scripts with #!.
  if (extname(file) === '' && text.trimStart().startsWith('<?php')) return 'php';
  if (extname(file) === '' && text.startsWith('#!')) {
    const first = text.slice(0, text.indexOf('\n') >>> 0);
    return SHEBANG.find(([test]) => test.test(first))?.[1];
  }
  return undefined;
}

/**
 * String constants a file defines for others to use: a PHP config's `define('PO_API_PREFIX', '/1')`,
 * a module's `export const API_PREFIX = '/1'`, a settings file's `AUTH_BASE = "https://…"`. A client
 * that uses the file builds its addresses from them, so its checks are given them by name.
 */

const DEFINITIONS = [
  // PHP: define('NAME', 'value'); const NAME = 'value';
  /\bdefine\(\s*['"](\w+)['"]\s*,\s*['"]([^'"\n]*)['"]\s*\)/g,
  // JS, TS, PHP, Kotlin, Swift: const NAME = 'value' (exported or not).
  /^[ \t]*(?:export\s+)?(?:const|val|let)\s+(\w+)(?:\s*:\s*\w+)?\s*=\s*['"]([^'"\n]*)['"]\s*;?\s*$/gm,
  // Python, Ruby, shell, PHP class constants: an upper-case name given a string at the start of a line.
  /^[ \t]*(?:const\s+)?([A-Z][A-Z0-9_]*)\s*=\s*['"]([^'"\n]*)['"]\s*;?\s*$/gm,
];

/** The string constants `text` defines, by name (the first definition of a name wins). */
export function constantsOf(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const pattern of DEFINITIONS)
    for (const [, name, value] of text.matchAll(pattern))
      if (name !== undefined && value !== undefined && !(name in found)) found[name] = value;
  return found;
}

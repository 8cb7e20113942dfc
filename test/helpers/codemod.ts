/** The codemod run on files of a test's own: in memory on one file, or on a folder written for it. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { applyEdits, compatible } from '../../src/migrate/codemod/edits.js';
import { fixSource } from '../../src/migrate/codemod/source-edits.js';
import { ParsedFile } from '../../src/migrate/codemod/tree.js';
import { checkSource } from '../../src/migrate/source.js';
import { type LanguageId, languageOf } from '../../src/migrate/syntax/languages.js';
import { tempDir } from './cli.js';

/** A folder of files (names relative to it), written under a fresh temporary folder. */
export function folderOf(files: Record<string, string>, prefix = 'payorder-codemod-'): string {
  const root = tempDir(prefix);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

/** One file's source after the codemod, in memory, its language, and the findings it left. */
export async function fixedInMemory(file: string, text: string) {
  const language = languageOf(file, text) as LanguageId;
  const findings = await checkSource(text, file);
  const parsed = await ParsedFile.parse(text, language);
  if (!parsed) throw new Error(`${file} does not parse`);
  try {
    const fix = fixSource(parsed, findings, { given: {}, known: [] });
    return { text: applyEdits(text, compatible(fix.edits)), language, left: fix.left };
  } finally {
    parsed.delete();
  }
}

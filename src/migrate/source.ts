/**
 * Checks source code. Files in a language with a grammar (src/migrate/syntax/) are parsed and
 * checked on their syntax: string literals, keys, annotations, calls, concatenations, following
 * constants within the file, never comments. Files of other languages get a text check that warns
 * at most. It never changes a file: each finding carries the suggested replacement of its line
 * where one can be written.
 */
import type { Finding } from './rules.js';
import { RELEVANT } from './syntax/chunks.js';
import { languageOf } from './syntax/languages.js';
import { defaultWorkers, type IndexedJob, runJobs } from './syntax/pool.js';
import { checkText } from './syntax/text-fallback.js';

export interface SourceFile {
  /** The path shown in findings (its extension, or a #! line, tells the language). */
  file: string;
  text: string;
  /** String constants of the files this one uses (its config), by name. */
  constants?: Record<string, string>;
}

export interface SourceOptions {
  /**
   * Worker threads that help this one once a run has many files to parse; by default one fewer
   * than the cores. 0 checks on this thread only.
   */
  workers?: number;
}

/**
 * Checks source files; findings come grouped by file in the given order, each file's by position.
 * Files that never mention the service are not parsed. `files` is read once, lazily: a generator
 * that reads each file as it is asked for keeps only the files being checked in memory.
 */
export async function checkSources(
  files: Iterable<SourceFile>,
  options: SourceOptions = {},
): Promise<Finding[]> {
  const perFile: Finding[][] = [];
  function* jobs(): Generator<IndexedJob> {
    for (const { file, text, constants } of files) {
      const index = perFile.push([]) - 1;
      if (!RELEVANT.test(text)) continue;
      const language = languageOf(file, text);
      if (language) yield { file, text, language, index, ...(constants ? { constants } : {}) };
      else perFile[index] = checkText(text, file);
    }
  }
  await runJobs(jobs(), options.workers ?? defaultWorkers(), (job, findings) => {
    perFile[job.index] = findings;
  });
  return perFile.flat();
}

/** Checks one file's text; `file` is the path shown in findings (and tells its language). */
export function checkSource(text: string, file: string): Promise<Finding[]> {
  return checkSources([{ file, text }], { workers: 0 });
}

/**
 * Finds the files migrate-check reads: named files as they are; folders walked honoring .gitignore,
 * .payorderignore and --exclude, leaving out dependencies, build output and binary files.
 */
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

const SKIPPED_FOLDERS = new Set([
  'node_modules',
  'vendor',
  'dist',
  'build',
  'out',
  'target',
  'bin',
  'obj',
  'coverage',
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.next',
  '.nuxt',
  '.gradle',
  '.idea',
  '.vscode',
]);
/** Asked of a file's name (not its path: most of a path is its folders, and each folder's name was asked already). */
const SKIPPED_FILES =
  /^(?:\.payorderignore|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|composer\.lock|Gemfile\.lock|.*\.min\.js|.*\.map)$/;
const MAX_BYTES = 2 * 1024 * 1024;

export interface FoundFile {
  path: string;
  /**
   * Named on the command line (not found by walking a folder). A file found walking may still be
   * left out when it is read (readFound): larger than 2 MB, or binary.
   */
  explicit: boolean;
}

/** A NUL byte in the first 8 KB: the file is binary. */
const BINARY_PROBE = 8192;

/** Whether the start of a file looks binary (a NUL byte in its first 8 KB). */
export function isBinary(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(BINARY_PROBE);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).includes(0);
  } finally {
    closeSync(fd);
  }
}

/**
 * The text of a file found walking a folder, or undefined when it is left out: larger than 2 MB, or
 * binary. Opened once: its size, its first bytes and its text come from the same read.
 */
function readWalked(path: string): string | undefined {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_BYTES) return undefined;
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    for (let read = 1; filled < size && read > 0; filled += read)
      read = readSync(fd, buffer, filled, size - filled, filled);
    const bytes = buffer.subarray(0, filled);
    if (bytes.subarray(0, BINARY_PROBE).includes(0)) return undefined;
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** A found file's text; undefined for a file found walking that is left out (too large, binary). */
export function readFound(file: FoundFile): string | undefined {
  return file.explicit ? readFileSync(file.path, 'utf8') : readWalked(file.path);
}

function readIgnore(dir: string, name: string): string | undefined {
  try {
    return readFileSync(join(dir, name), 'utf8');
  } catch {
    return undefined;
  }
}

/** What the user leaves out, on top of .gitignore: --exclude patterns and .payorderignore files. */
export interface Excludes {
  /** Patterns in .gitignore syntax, relative to each folder given. */
  patterns: string[];
  /** How many files and folders they left out, counted as the walk meets them. */
  count: number;
}

interface Rules {
  base: string;
  matcher: Ignore;
}

// The walk joins every path onto its folder's, so a rule's base is always a prefix of the path it
// is asked about: what follows it is the relative path, without path.relative's normalising.
const matches = (rules: Rules[], path: string, isDir: boolean) =>
  rules.some(({ base, matcher }) => {
    const inside = insideOf(base, path);
    if (!inside) return false;
    const rel = sep === '/' ? inside : inside.split(sep).join('/');
    return matcher.ignores(isDir ? `${rel}/` : rel);
  });

/** `path` relative to `base` (both as join() writes them), or undefined when it is not inside it. */
function insideOf(base: string, path: string): string | undefined {
  if (base === '.') return path;
  const prefix = base.endsWith(sep) ? base : base + sep;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

/** localeCompare's order, with its collator made once rather than for each comparison. */
const byName = new Intl.Collator().compare;

export function* walk(root: string, excludes: Excludes = { patterns: [], count: 0 }): Generator<string> {
  const git: Rules[] = [];
  const own: Rules[] =
    excludes.patterns.length > 0 ? [{ base: join(root, '.'), matcher: ignore().add(excludes.patterns) }] : [];
  function* visit(dir: string): Generator<string> {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => byName(a.name, b.name));
    // Read only where the folder has them: most folders have neither.
    const has = (name: string) => entries.some((entry) => entry.name === name);
    const gitignore = has('.gitignore') ? readIgnore(dir, '.gitignore') : undefined;
    const payorderignore = has('.payorderignore') ? readIgnore(dir, '.payorderignore') : undefined;
    // As join() writes it, as the paths below it are written.
    const base = join(dir, '.');
    if (gitignore) git.push({ base, matcher: ignore().add(gitignore) });
    if (payorderignore) own.push({ base, matcher: ignore().add(payorderignore) });
    const left = (path: string, isDir: boolean) => {
      if (matches(git, path, isDir)) return true;
      if (!matches(own, path, isDir)) return false;
      excludes.count++;
      return true;
    };
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && !left(path, true)) yield* visit(path);
      } else if (entry.isFile() && !SKIPPED_FILES.test(entry.name) && !left(path, false)) {
        yield path;
      }
    }
    if (gitignore) git.pop();
    if (payorderignore) own.pop();
  }
  yield* visit(root);
}

/** Every file to read, in a stable order; throws ENOENT-style errors for names that do not exist. */
export function* findFiles(paths: string[], excludes?: Excludes): Generator<FoundFile> {
  for (const path of paths) {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const file of walk(path, excludes)) yield { path: file, explicit: false };
    } else {
      yield { path, explicit: true };
    }
  }
}

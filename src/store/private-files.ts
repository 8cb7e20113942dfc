/**
 * payorder's private files (batch journals, what the data folder holds, and the store's file, which
 * the store reads here): made 0600 in 0700 folders, and read or appended to only when safely the
 * user's (private-path.ts). A file is opened without following a link and checked on the open
 * descriptor, so what is checked is what is read; a new one is created with O_EXCL, never through a
 * link someone left at its path.
 */
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  type Stats,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, type ErrorDetails } from '../errors.js';
import { type StorePart, unsafeBecause } from './private-path.js';

/** How a refusal names what it refuses, and what it says to do: "the journal" /x, "give a new file". */
export interface PrivateLabel {
  /** "the journal", "the payorder data folder". */
  name: string;
  /** What to do instead, whatever the problem: the hint's first part. */
  instead: string;
  field?: string;
}

// Windows has neither flag.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
// A named pipe put at the path must not hold payorder: it is opened without waiting, then refused.
const APPEND_EXISTING = constants.O_RDWR | constants.O_APPEND | NOFOLLOW | NONBLOCK;
const READ_EXISTING = constants.O_RDONLY | NOFOLLOW | NONBLOCK;

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/** The refusal of `path` for `problem`: exit 2, naming the path and the rule broken. */
export function refusal(label: PrivateLabel, path: string, problem: string): CliError {
  const details: ErrorDetails = { hint: label.instead };
  if (label.field) details.field = label.field;
  return new CliError('config', `refusing ${label.name} ${path}: ${problem}`, details);
}

/**
 * The refusal of a file or folder by its stats (an lstat, or the fstat of the opened file), or
 * undefined when it is safely the user's. The store phrases its own (private-path.ts's refusalOf).
 */
export type Refuse = (part: StorePart, path: string, stats: Stats) => CliError | undefined;

/** The refusals that name the file by `label`. */
const refuseAs =
  (label: PrivateLabel): Refuse =>
  (part, path, stats) => {
    const problem = unsafeBecause(part, stats);
    return problem ? refusal(label, path, problem) : undefined;
  };

/** O_NOFOLLOW's answer to a link (ELOOP on Linux and macOS, EMLINK on FreeBSD) as the link's refusal. */
function openChecked(refuse: Refuse, path: string, flags: number): { fd: number; stats: Stats } {
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (error) {
    const code = errnoOf(error);
    const link = (code === 'ELOOP' || code === 'EMLINK') && lstatSync(path, { throwIfNoEntry: false });
    const refused = link ? refuse('file', path, link) : undefined;
    throw refused ?? error;
  }
  try {
    const stats = fstatSync(fd);
    const refused = refuse('file', path, stats);
    if (refused) throw refused;
    return { fd, stats };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

export interface OpenedFile {
  fd: number;
  /** Whether the file was made by this call (it is then empty). */
  created: boolean;
}

/**
 * Opens `path` to append to, creating it 0600 when there is none. A refusal is a config error;
 * any other failure of the file system is thrown as it came, for the caller to phrase.
 */
export function openPrivateFile(
  label: PrivateLabel,
  path: string,
  mode: 'new' | 'new-or-existing',
): OpenedFile {
  try {
    return { fd: openSync(path, CREATE_NEW, 0o600), created: true };
  } catch (error) {
    // A dangling link at the path is "there" too: it is refused below, never followed.
    if (mode === 'new' || errnoOf(error) !== 'EEXIST') throw error;
  }
  return { fd: openChecked(refuseAs(label), path, APPEND_EXISTING).fd, created: false };
}

/** Opens an existing private file to read, checked as openPrivateFile checks it: its descriptor. */
export function openPrivateFileToRead(label: PrivateLabel, path: string): number {
  return openChecked(refuseAs(label), path, READ_EXISTING).fd;
}

/**
 * The text of the file at `path` and its stats, checked by `refuse` as readPrivateFile checks it;
 * undefined when there is none. Any other failure of the file system is thrown as it came.
 */
export function readCheckedFile(path: string, refuse: Refuse): { text: string; stats: Stats } | undefined {
  let opened: { fd: number; stats: Stats };
  try {
    opened = openChecked(refuse, path, READ_EXISTING);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return { text: readFileSync(opened.fd, 'utf8'), stats: opened.stats };
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Creates `dir` 0700 when it is missing, else checks it. Only folders this call created are chmodded
 * (mkdir's mode passes through the umask); a folder that was there is the user's, and one that others
 * can write is refused, never changed.
 */
export function preparePrivateFolder(label: PrivateLabel, dir: string): void {
  let created: string | undefined;
  try {
    created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // Something that is not a folder is in the way: the check below names it.
    if (errnoOf(error) !== 'EEXIST' && errnoOf(error) !== 'ENOTDIR') throw error;
  }
  if (created !== undefined) {
    const first = resolve(created);
    for (let folder = resolve(dir); ; folder = dirname(folder)) {
      chmodSync(folder, 0o700);
      if (folder === first || folder === dirname(folder)) break;
    }
  }
  const refused = refuseAs(label)('folder', dir, lstatSync(dir));
  if (refused) throw refused;
}

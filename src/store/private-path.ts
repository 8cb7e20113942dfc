/**
 * Whether a file or folder that holds or leads to a secret is safely ours, the test ssh applies to
 * its keys. The store's folder and file must not be symbolic links, must be owned by the user
 * payorder runs as, and writable by no one else: whoever can change the store can point the next
 * login at their own server and receive the client secret, so a store that fails is refused, and
 * never repaired behind the user's back. A secret file (--client-secret-file) is held to the same
 * rule, with two differences: it may be a link (container secrets are), its target is what is
 * checked, and root may own it (container secrets are mounted so). Both are said to be readable by
 * others when they are, which is a warning, not a refusal: the secret may have been read.
 */
import type { Stats } from 'node:fs';
import { CliError } from '../errors.js';

export type StorePart = 'folder' | 'file';

// Windows has no owner ids or group/other permission bits to check in a Stats.
const POSIX = process.platform !== 'win32';

/** The label a message gives a part of the store: "the payorder store folder /x" or "the payorder store /x/config.json". */
export const labelOf = (part: StorePart, path: string) =>
  `the payorder store${part === 'folder' ? ' folder' : ''} ${path}`;

/** What else than its owner may happen to a file or folder, the worst first. */
export type Access =
  | { problem: 'owner'; uid: number; me: number }
  | { problem: 'writable' | 'readable'; by: 'others' | 'its group'; mode: string }
  | undefined;

const modeText = (stats: Stats) => `mode ${(stats.mode & 0o7777).toString(8).padStart(4, '0')}`;

const byWhom = (stats: Stats, otherBit: number, groupBit: number) =>
  stats.mode & otherBit ? 'others' : stats.mode & groupBit ? 'its group' : undefined;

/**
 * Who besides the user payorder runs as may own, change or read what `stats` describes; undefined
 * when no one. `rootMayOwn`: a file root owns is accepted (root can change any file anyway, so
 * trusting it adds no one).
 */
export function accessOf(stats: Stats, { rootMayOwn }: { rootMayOwn: boolean }): Access {
  if (!POSIX) return undefined;
  const me = process.geteuid?.();
  if (me !== undefined && stats.uid !== me && !(rootMayOwn && stats.uid === 0))
    return { problem: 'owner', uid: stats.uid, me };
  const writers = byWhom(stats, 0o002, 0o020);
  if (writers) return { problem: 'writable', by: writers, mode: modeText(stats) };
  const readers = byWhom(stats, 0o004, 0o040);
  if (readers) return { problem: 'readable', by: readers, mode: modeText(stats) };
  return undefined;
}

/**
 * Who besides its owner can read `file` inside `folder`: those its mode lets read it who may also
 * pass through the folder (a 0644 file in a 0700 folder is read by no one else). Undefined when no one.
 */
export function readersOf(
  file: Stats,
  folder: Stats,
): { by: 'others' | 'its group'; mode: string } | undefined {
  if (!POSIX) return undefined;
  const by =
    file.mode & 0o004 && folder.mode & 0o001
      ? 'others'
      : file.mode & 0o040 && folder.mode & 0o010
        ? 'its group'
        : undefined;
  return by && { by, mode: `${modeText(file)} in a folder of ${modeText(folder)}` };
}

/** A path as one shell word, so that a hint naming it can be pasted. */
export const shellWord = (path: string) =>
  /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;

/**
 * The error that refuses `path`, given its lstat (or fstat of the opened file), or undefined when it
 * is safely ours.
 */
export function refusalOf(part: StorePart, path: string, stats: Stats): CliError | undefined {
  const refuse = (problem: string, hint: string) =>
    new CliError('config', `refusing ${labelOf(part, path)}: ${problem}`, { hint });
  const elsewhere =
    part === 'folder' ? 'set PAYORDER_CONFIG_DIR to a folder of your own' : 'move it away and log in again';

  if (stats.isSymbolicLink())
    return refuse(
      'it is a symbolic link, and payorder follows no link to its store',
      part === 'folder'
        ? 'set PAYORDER_CONFIG_DIR to the folder the link points to, if it is yours, or replace the link with it'
        : 'replace the link with the file it points to, if that file is yours, or move the link away and log in again',
    );
  if (part === 'folder' ? !stats.isDirectory() : !stats.isFile())
    return refuse(part === 'folder' ? 'it is not a folder' : 'it is not a regular file', elsewhere);

  const access = accessOf(stats, { rootMayOwn: false });
  if (access?.problem === 'owner')
    return refuse(
      `it is owned by uid ${access.uid}, not by you (uid ${access.me})`,
      `if it is yours, take it back (chown); otherwise ${elsewhere}`,
    );
  if (access?.problem === 'writable')
    return refuse(
      `it is writable by ${access.by} (${access.mode})`,
      part === 'folder'
        ? 'set PAYORDER_CONFIG_DIR to a folder only you can write, or, if this folder is yours alone, remove their write access (chmod go-w)'
        : 'remove their write access (chmod go-w), then check the addresses it holds (payorder config list --all)',
    );
  return undefined;
}

/**
 * A secret file, given the fstat of the file opened through any links: the error that refuses it
 * (others may write it, or another user than root owns it), a warning to give when others may
 * read it, or nothing. What is not a regular file (a pipe: `<(pass show …)`) keeps nothing at rest
 * and is not judged by its mode.
 */
export function secretFileVerdict(
  field: string,
  path: string,
  stats: Stats,
): { verdict: 'ok' } | { verdict: 'refused'; error: CliError } | { verdict: 'exposed'; warning: string } {
  const access = stats.isFile() ? accessOf(stats, { rootMayOwn: true }) : undefined;
  const refuse = (problem: string, hint: string) => ({
    verdict: 'refused' as const,
    error: new CliError('config', `${field}: refusing ${path}: ${problem}`, { field, hint }),
  });
  switch (access?.problem) {
    case undefined:
      return { verdict: 'ok' };
    case 'owner':
      return refuse(
        `it is owned by uid ${access.uid}, neither by you (uid ${access.me}) nor by root, so its owner can change the secret`,
        'keep the secret in a file of your own, mode 600',
      );
    case 'writable':
      return refuse(
        `it is writable by ${access.by} (${access.mode}), who could change the secret`,
        `chmod 600 ${shellWord(path)}`,
      );
    case 'readable':
      return {
        verdict: 'exposed',
        warning: `${field} ${path} is readable by ${access.by} (${access.mode}); make it private: chmod 600 ${shellWord(path)}`,
      };
  }
}

/**
 * Why `stats` (an lstat, or an fstat of the opened file) is not safely the user's, by the same rules
 * as refusalOf, for payorder's other private files and folders (batch journals, the data folder):
 * "it is a symbolic link", "it is owned by uid 65534, not by you (uid 0)", …; undefined when it is.
 */
export function unsafeBecause(part: StorePart, stats: Stats): string | undefined {
  if (stats.isSymbolicLink()) return 'it is a symbolic link, and payorder follows no link to its own files';
  if (part === 'folder' ? !stats.isDirectory() : !stats.isFile())
    return part === 'folder' ? 'it is not a folder' : 'it is not a regular file';
  const access = accessOf(stats, { rootMayOwn: false });
  if (access?.problem === 'owner') return `it is owned by uid ${access.uid}, not by you (uid ${access.me})`;
  if (access?.problem === 'writable') return `it is writable by ${access.by} (${access.mode})`;
  return undefined;
}

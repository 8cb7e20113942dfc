/**
 * Whether the store's folder and file are safely ours, the test ssh applies to its keys: not a
 * symbolic link, owned by the user payorder runs as, and writable by no one else. Whoever can change
 * the store can point the next login at their own server and receive the client secret, so a store
 * that fails is refused, and never repaired behind the user's back.
 */
import type { Stats } from 'node:fs';
import { CliError } from '../errors.js';

export type StorePart = 'folder' | 'file';

// Windows has no owner ids or group/other write bits to check in a Stats.
const POSIX = process.platform !== 'win32';

/** The label a message gives a part of the store: "the payorder store folder /x" or "the payorder store /x/config.json". */
export const labelOf = (part: StorePart, path: string) =>
  `the payorder store${part === 'folder' ? ' folder' : ''} ${path}`;

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
  if (!POSIX) return undefined;

  const me = process.geteuid?.();
  if (me !== undefined && stats.uid !== me)
    return refuse(
      `it is owned by uid ${stats.uid}, not by you (uid ${me})`,
      `if it is yours, take it back (chown); otherwise ${elsewhere}`,
    );
  const mode = `mode ${(stats.mode & 0o7777).toString(8).padStart(4, '0')}`;
  const writers = stats.mode & 0o002 ? 'others' : stats.mode & 0o020 ? 'its group' : undefined;
  if (writers)
    return refuse(
      `it is writable by ${writers} (${mode})`,
      part === 'folder'
        ? 'set PAYORDER_CONFIG_DIR to a folder only you can write, or, if this folder is yours alone, remove their write access (chmod go-w)'
        : 'remove their write access (chmod go-w), then check the addresses it holds (payorder config list --all)',
    );
  return undefined;
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
  if (!POSIX) return undefined;
  const me = process.geteuid?.();
  if (me !== undefined && stats.uid !== me) return `it is owned by uid ${stats.uid}, not by you (uid ${me})`;
  const writers = stats.mode & 0o002 ? 'others' : stats.mode & 0o020 ? 'its group' : undefined;
  if (writers)
    return `it is writable by ${writers} (mode ${(stats.mode & 0o7777).toString(8).padStart(4, '0')})`;
  return undefined;
}

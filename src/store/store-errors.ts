/**
 * The errors of reading and writing the store, each naming the path and what to do: a file that is
 * not a store, and the file system's refusals. Permissions are the user's to fix (exit 2); a full
 * disk is a failure of the machine, not of the command line (exit 5, the kind 'io').
 * A failed write leaves the store as it was (it is written to a temporary file, then renamed), and
 * the full-disk message says so.
 */
import { CliError } from '../errors.js';
import { labelOf, type StorePart } from './private-path.js';

const NEVER_OVERWRITES = 'payorder never overwrites a store it cannot read';

/** A file that is not JSON, or not a JSON object. */
export function brokenStore(path: string, error: unknown): CliError {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new CliError('config', `${labelOf('file', path)} cannot be read: ${reason}`, {
    hint: `fix the file by hand or move it away; ${NEVER_OVERWRITES}`,
  });
}

/** JSON of the wrong shape: `problem` says where ("environments.stage.credentials.clientId is missing"). */
export function wrongShape(path: string, problem: string): CliError {
  return new CliError('config', `${labelOf('file', path)} is not a store payorder can use: ${problem}`, {
    hint: `fix the file by hand, or move it away and log in again; ${NEVER_OVERWRITES}`,
  });
}

/**
 * A failure of the file system on `path` while reading or writing the store, as a typed error.
 * A CliError passes through as it is.
 */
export function storeIoError(
  error: unknown,
  part: StorePart,
  path: string,
  doing: 'read' | 'write',
): CliError {
  if (error instanceof CliError) return error;
  const what = `${labelOf(part, path)} cannot be ${doing === 'read' ? 'read' : 'written'}`;
  const unchanged = doing === 'write' ? '; the store is unchanged' : '';
  const local = (reason: string, hint: string) =>
    new CliError('io', `${what}: ${reason}${unchanged}`, { hint });
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EACCES':
    case 'EPERM':
      return new CliError('config', `${what}: permission denied`, {
        hint:
          doing === 'read'
            ? 'the store must be yours and readable by you (chmod 600 on the file, chmod 700 on its folder)'
            : 'payorder writes its store through a lock and a temporary file in that folder: give yourself write access to it (chmod u+w), or set PAYORDER_CONFIG_DIR to a folder of your own',
      });
    case 'EROFS':
      return new CliError('config', `${what}: the file system is read-only`, {
        hint: 'set PAYORDER_CONFIG_DIR to a folder on a writable disk',
      });
    case 'ENOSPC':
      return local('no space left on the device', 'free some space on that disk, then run the command again');
    case 'EDQUOT':
      return local(
        'the disk quota is exhausted',
        'free some space within your quota, then run the command again',
      );
    case 'EIO':
      return local('input/output error', 'check the disk, then run the command again');
  }
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new CliError('config', `${what}: ${reason}${unchanged}`, {
    hint:
      doing === 'read'
        ? `fix it by hand or move it away; ${NEVER_OVERWRITES}`
        : 'check the folder and its disk, then run the command again',
  });
}

/**
 * The store's cross-process lock: a folder config.lock beside the store, made and kept fresh by
 * proper-lockfile. A process that dies holding it leaves it stale: another takes it over once its
 * time has not been renewed for STALE_MS. A live holder (a token renewal waits on the service
 * inside it) is waited for, visibly, for at most a few minutes; what is not a lock at all is named
 * at once.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../errors.js';
import { storeIoError } from './store-errors.js';

/** How long a lock whose holder stopped renewing it is still respected (proper-lockfile's `stale`). */
const STALE_MS = 15_000;

/** How long payorder waits for a live holder: beyond a token renewal's timeout and its retries. */
export const LOCK_WAIT_MS = 300_000;

/** After this long waiting for the lock, payorder says on stderr what it waits for. */
const QUIET_WAIT_MS = 1_000;

export interface LockOptions {
  /** Tells the user a line (stderr); a wait longer than a moment is announced. */
  notice?: (line: string) => void;
  /** How long to wait for a lock another process holds (LOCK_WAIT_MS). */
  waitMs?: number;
}

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

const inMinutes = (ms: number) =>
  ms >= 60_000 ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}` : `${ms / 1000} s`;

/**
 * Something other than a folder where the lock goes (a file left by hand, a link): proper-lockfile
 * would wait for it to age, then fail to remove it as a folder. It is never removed for the user.
 */
function strayLock(path: string): CliError | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats || stats.isDirectory()) return undefined;
  const what = stats.isSymbolicLink() ? 'a symbolic link' : stats.isFile() ? 'a file' : 'not a folder';
  return new CliError('config', `${path} is ${what}, not payorder's lock: the store cannot be written`, {
    hint: `payorder makes this lock as a folder; if no payorder is running, remove it: rm '${path.replaceAll("'", "'\\''")}'`,
  });
}

function stillHeld(path: string, waitMs: number): CliError {
  return new CliError(
    'io',
    `the store's lock ${path} is still held by another payorder process after ${inMinutes(waitMs)}; the store is unchanged`,
    {
      hint: `wait for that process to finish (a token renewal waits on the service), then run the command again; a lock whose process died is taken over after ${STALE_MS / 1000} s`,
    },
  );
}

/**
 * Takes the lock of the store in `dir` and gives its release. proper-lockfile retries on any error,
 * so a first attempt without retries tells a lock another process holds (worth waiting for) from a
 * folder that refuses it (permissions, a full or read-only disk) or a stray file: said at once.
 */
export async function lockStore(dir: string, { notice, waitMs = LOCK_WAIT_MS }: LockOptions = {}) {
  const { default: lockfile } = await import('proper-lockfile');
  const path = join(dir, 'config.lock');
  const options = { lockfilePath: path, realpath: false, stale: STALE_MS, onCompromised: () => {} };
  try {
    return await lockfile.lock(dir, { ...options, retries: 0 });
  } catch (error) {
    const refusal = strayLock(path);
    if (refusal) throw refusal;
    if (errnoOf(error) !== 'ELOCKED') throw storeIoError(error, 'folder', dir, 'write');
  }
  const announce = setTimeout(
    () => notice?.(`waiting for another payorder process, which holds the store's lock ${path}…`),
    QUIET_WAIT_MS,
  );
  try {
    return await lockfile.lock(dir, {
      ...options,
      retries: { forever: true, maxRetryTime: waitMs, factor: 1.3, minTimeout: 5, maxTimeout: 200 },
    });
  } catch (error) {
    const refusal = strayLock(path);
    if (refusal) throw refusal;
    throw errnoOf(error) === 'ELOCKED'
      ? stillHeld(path, waitMs)
      : storeIoError(error, 'folder', dir, 'write');
  } finally {
    clearTimeout(announce);
  }
}

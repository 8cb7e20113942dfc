/**
 * payorder's data folder: what it keeps of the work it did (the automatic journals of batches), apart
 * from the store's settings and secrets. $XDG_DATA_HOME/payorder (usually ~/.local/share/payorder), or
 * PAYORDER_DATA_DIR. What is in it decides what is sent (a line found there as created is not sent
 * again), so it is held to the store's rules: folders 0700, files 0600, and nothing in it is used
 * unless it is safely the user's (private-files.ts).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../errors.js';
import type { Env } from '../variables.js';
import { type PrivateLabel, preparePrivateFolder } from './private-files.js';

const FOLDER: PrivateLabel = {
  name: 'the payorder data folder',
  instead:
    'set PAYORDER_DATA_DIR to a folder only you can write, or, if this folder is yours alone, fix it (chown, chmod go-w)',
};

export class DataFolder {
  constructor(readonly dir: string) {}

  /**
   * The path of the folder `name` inside, created 0700 with the data folder when missing; throws a
   * config error (exit 2) when either is not safely the user's.
   */
  folder(name: string): string {
    const path = join(this.dir, name);
    try {
      preparePrivateFolder(FOLDER, this.dir);
      preparePrivateFolder(FOLDER, path);
    } catch (error) {
      throw dataFolderError(error, path);
    }
    return path;
  }
}

/**
 * A failure of the file system at `path` in the data folder as a typed error naming it: the user's to
 * fix (permissions, a read-only disk: exit 2) or the machine's (a full disk: exit 5). A CliError
 * (a refusal) passes through.
 */
export function dataFolderError(error: unknown, path: string): CliError {
  if (error instanceof CliError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = code ?? (error as Error).message;
  const local = code === 'ENOSPC' || code === 'EDQUOT' || code === 'EIO';
  return new CliError(
    local ? 'io' : 'config',
    `cannot write ${path} in the payorder data folder (${reason})`,
    {
      hint: local
        ? 'free some space on that disk, then run the command again'
        : 'the data folder must be yours and writable by you; or set PAYORDER_DATA_DIR to a folder of your own',
    },
  );
}

/** The data folder `env` names: PAYORDER_DATA_DIR, else $XDG_DATA_HOME/payorder. */
export function dataFolderOf(env: Env): DataFolder {
  const base = env.XDG_DATA_HOME || join(env.HOME ?? homedir(), '.local', 'share');
  return new DataFolder(env.PAYORDER_DATA_DIR || join(base, 'payorder'));
}

/**
 * The ledger's file: `ledger/orders.sqlite` in payorder's data folder, held to the rules of the data
 * folder's other files (0600 in a 0700 folder, no link followed, owned by the user and writable by no
 * one else; private-path.ts), opened in WAL mode with a busy timeout so that parallel payorder
 * processes write to it in turn, and brought to the schema this payorder writes (schema.ts).
 */
import { closeSync, constants, lstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { dataFolderError } from '../store/data-folder.js';
import { type PrivateLabel, refusal } from '../store/private-files.js';
import { unsafeBecause } from '../store/private-path.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { loadSqlite } from './sqlite.js';

const LABEL: PrivateLabel = {
  name: 'the order ledger',
  instead:
    'payorder uses only a ledger that you own and that no one else can write: if it is yours, fix it (chown, chmod go-w); otherwise move it away, or set PAYORDER_DATA_DIR to a folder of your own',
};

/** How long a write waits for another payorder process's (a parallel batch's) before failing. */
export const BUSY_TIMEOUT_MS = 10_000;

/** Where the ledger is in the data folder. */
const LEDGER_FILE = ['ledger', 'orders.sqlite'] as const;

/** The ledger's path in the data folder, its folder made (0700) when missing. */
export const ledgerPath = (ctx: Context) => join(ctx.dataFolder().folder(LEDGER_FILE[0]), LEDGER_FILE[1]);

/** Checks the file at `path` (and SQLite's companions of it, when there) is safely the user's. */
function checkFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const stats = lstatSync(file, { throwIfNoEntry: false });
    if (!stats) continue;
    const problem = unsafeBecause('file', stats);
    if (problem) throw refusal(LABEL, file, problem);
  }
}

/** Creates the ledger's file 0600 unless it is there; never through a link someone left at its path. */
function createFile(path: string): void {
  try {
    closeSync(
      openSync(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
        0o600,
      ),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * The ledger's database, open and up to date; undefined when `create` is false and there is none
 * (`order get` updates a ledger that holds the order, and makes none).
 */
export async function openLedgerFile(ctx: Context, create: boolean): Promise<DatabaseSync | undefined> {
  // A command that makes no ledger leaves the data folder as it is.
  if (!create && !lstatSync(join(ctx.dataFolder().dir, ...LEDGER_FILE), { throwIfNoEntry: false }))
    return undefined;
  let path: string;
  try {
    path = ledgerPath(ctx);
    createFile(path);
    checkFiles(path);
  } catch (error) {
    throw dataFolderError(error, join(ctx.dataFolder().dir, 'ledger'));
  }
  const { DatabaseSync } = await loadSqlite();
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path);
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    migrate(db, path);
    return db;
  } catch (error) {
    db?.close();
    throw ledgerError(error, path);
  }
}

const versionOf = (db: DatabaseSync) =>
  Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);

/** Brings the ledger to SCHEMA_VERSION, in one transaction; a newer one is refused. */
function migrate(db: DatabaseSync, path: string): void {
  if (versionOf(db) === SCHEMA_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    const from = versionOf(db);
    if (from > SCHEMA_VERSION)
      throw new CliError(
        'config',
        `the order ledger ${path} has schema version ${from}, newer than this payorder's (${SCHEMA_VERSION})`,
        { hint: 'update payorder, or run this one with --no-ledger' },
      );
    for (const step of MIGRATIONS.slice(from)) db.exec(step);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** A failure of SQLite as a typed error naming the ledger: a lock held too long, a damaged file, a full disk. */
export function ledgerError(error: unknown, path: string): CliError {
  if (error instanceof CliError) return error;
  const message = (error as Error).message;
  const code = (error as { errcode?: number }).errcode;
  // SQLITE_FULL (13) and SQLITE_IOERR (10): the machine's; a lock held past the timeout (5) too.
  if (code === 13 || code === 10 || (code !== undefined && (code & 0xff) === 10))
    return new CliError('io', `cannot write the order ledger ${path} (${message})`, {
      hint: 'free some space on that disk, then run the command again, or run it with --no-ledger',
    });
  if (code === 5)
    return new CliError(
      'io',
      `the order ledger ${path} stayed busy for ${BUSY_TIMEOUT_MS / 1000} s (${message})`,
      {
        hint: 'another payorder process holds it: run the command again when it is done',
      },
    );
  return new CliError('config', `cannot use the order ledger ${path} (${message})`, {
    hint: 'move the file away (payorder makes a new one), or run the command with --no-ledger',
  });
}

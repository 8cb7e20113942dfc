/**
 * The ledger's file: 0600 in a 0700 folder of the data folder, refused when it is a link or another
 * user's, its schema versioned (a ledger of a newer payorder is refused, never changed), WAL, and
 * node:sqlite loaded with exactly Node 22's announcement of it held back.
 */
import { chownSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/ledger.js';
import { SCHEMA_VERSION } from '../../src/ledger/schema.js';
import { isSqliteWarning } from '../../src/ledger/sqlite.js';
import { tempDir } from '../helpers/cli.js';
import { testContext } from '../helpers/context.js';

const contextIn = (dir: string) => testContext({ env: { PAYORDER_DATA_DIR: dir } }).ctx;
const file = (dir: string) => join(dir, 'ledger', 'orders.sqlite');

async function refusal(dir: string): Promise<string> {
  try {
    (await openLedger(contextIn(dir), { create: true }))?.close();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no refusal';
}

describe('the ledger file', () => {
  it('is made 0600 in a 0700 folder, in WAL mode, at the schema version; opening it again changes nothing', async () => {
    const dir = join(tempDir(), 'data');
    expect(await openLedger(contextIn(dir), { create: false })).toBeUndefined();
    const ledger = (await openLedger(contextIn(dir), { create: true }))!;
    ledger.close();
    expect(statSync(file(dir)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'ledger')).mode & 0o777).toBe(0o700);
    (await openLedger(contextIn(dir), { create: false }))!.close();
    const db = new DatabaseSync(file(dir));
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.close();
  });

  it('a ledger of a newer payorder is refused, and left as it is', async () => {
    const dir = join(tempDir(), 'data');
    (await openLedger(contextIn(dir), { create: true }))!.close();
    const db = new DatabaseSync(file(dir));
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(await refusal(dir)).toContain(
      `has schema version ${SCHEMA_VERSION + 1}, newer than this payorder's (${SCHEMA_VERSION})`,
    );
    const after = new DatabaseSync(file(dir));
    expect(after.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION + 1 });
    after.close();
  });

  it('a link at its path, a file others can write or another user owns: refused', async () => {
    const linked = join(tempDir(), 'data');
    mkdirSync(join(linked, 'ledger'), { recursive: true, mode: 0o700 });
    const elsewhere = join(tempDir(), 'elsewhere.sqlite');
    writeFileSync(elsewhere, '', { mode: 0o600 });
    symlinkSync(elsewhere, file(linked));
    expect(await refusal(linked)).toMatch(
      /^refusing the order ledger \S+orders\.sqlite: it is a symbolic link/,
    );

    const writable = join(tempDir(), 'data');
    mkdirSync(join(writable, 'ledger'), { recursive: true, mode: 0o700 });
    writeFileSync(file(writable), '', { mode: 0o666 });
    // The umask may have taken bits off: the mode is set as the test means it.
    (await import('node:fs')).chmodSync(file(writable), 0o666);
    expect(await refusal(writable)).toContain('it is writable by others (mode 0666)');

    if (process.geteuid?.() === 0) {
      const owned = join(tempDir(), 'data');
      mkdirSync(join(owned, 'ledger'), { recursive: true, mode: 0o700 });
      writeFileSync(file(owned), '', { mode: 0o600 });
      chownSync(file(owned), 65534, 65534);
      expect(await refusal(owned)).toContain('it is owned by uid 65534, not by you (uid 0)');
    }
  });

  it('a file that is not a database: a config error naming it', async () => {
    const dir = join(tempDir(), 'data');
    mkdirSync(join(dir, 'ledger'), { recursive: true, mode: 0o700 });
    writeFileSync(file(dir), 'not a database at all, just some text that is long enough', { mode: 0o600 });
    expect(await refusal(dir)).toMatch(
      /^cannot use the order ledger \S+orders\.sqlite \(file is not a database\)/,
    );
  });
});

describe("Node 22's warning of node:sqlite", () => {
  it('exactly that warning is recognised, in each form process.emitWarning takes', () => {
    const text = 'SQLite is an experimental feature and might change at any time';
    expect(isSqliteWarning(text, 'ExperimentalWarning')).toBe(true);
    expect(isSqliteWarning(text, { type: 'ExperimentalWarning' })).toBe(true);
    const error = Object.assign(new Error(text), { name: 'ExperimentalWarning' });
    expect(isSqliteWarning(error, undefined)).toBe(true);
    expect(
      isSqliteWarning('WASI is an experimental feature and might change at any time', 'ExperimentalWarning'),
    ).toBe(false);
    expect(isSqliteWarning(text, 'DeprecationWarning')).toBe(false);
    expect(isSqliteWarning(text, undefined)).toBe(false);
  });
});

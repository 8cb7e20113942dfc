/**
 * The profile store: per environment the credentials, addresses and cached tokens, plus defaults.
 * A conf JSON file in the XDG config folder (PAYORDER_CONFIG_DIR overrides), 0600 in a 0700 folder
 * whatever the umask. It holds client secrets, so it is used only when its folder and file are
 * safely ours (private-path.ts) and of the right shape (profile-schema.ts); payorder creates the
 * folder when it is missing and never changes one it did not create. Every read-modify-write holds
 * a cross-process lock and re-reads under it, so parallel payorder processes never lose each other's
 * writes. A broken file is reported, never replaced; a failed write leaves the file as it was.
 *
 * conf is used only to write the file (atomically, with its mode, in its folder), not as the store
 * it could be, because of how it reads: conf reads the file, and creates it, as soon as it is
 * constructed, following a link at its path, before payorder could check that the file is not a
 * link, is the user's and is writable by no one else (private-path.ts); and it would be loaded by
 * every command that only reads (most do, once a token is cached). So a read goes through
 * private-files.ts as every private file of payorder's does (opened without following links,
 * checked on what was opened, then parsed here), and conf is loaded and made only under the lock of
 * an update, once the file has passed those checks.
 */
import { chmodSync, lstatSync, mkdirSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type Conf from 'conf';
import type { Env } from '../variables.js';
import { readCheckedFile } from './private-files.js';
import { readersOf, refusalOf } from './private-path.js';
import type { StoreData } from './profile-data.js';
import { shapeProblem } from './profile-schema.js';
import { brokenStore, storeIoError, wrongShape } from './store-errors.js';
import { type LockOptions, lockStore } from './store-lock.js';

export type { StoreData } from './profile-data.js';

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/** Who besides its owner could read the store's file, and the modes of the file and its folder. */
export interface Exposure {
  by: 'others' | 'its group';
  mode: string;
}

export class ProfileStore {
  #conf: Conf<StoreData> | undefined;
  #exposure: Exposure | undefined;
  /** The folder's lstat when it was last checked: whether others may pass through it to the file. */
  #folder: Stats | undefined;

  constructor(
    readonly dir: string,
    readonly path: string,
    /** How a wait for the lock is told and how long it lasts (store-lock.ts). */
    readonly lock: LockOptions = {},
  ) {}

  /**
   * The whole store as it is on disk now ({} when there is none yet). Reading is a plain JSON parse
   * of conf's file, so a command that only reads (most do, once a token is cached) does not load conf.
   * Throws a config error, having read nothing, when the folder or file is not safely ours.
   */
  read(): StoreData {
    if (!this.#checkFolder()) return {};
    const text = this.#readFile();
    if (text === undefined) return {};
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw brokenStore(this.path, error);
    }
    const problem = shapeProblem(data);
    if (problem) throw wrongShape(this.path, problem);
    return data as StoreData;
  }

  /**
   * Who besides its owner could read the file when it was last read (a file payorder did not write:
   * its own writes are 0600), or undefined. A client secret in such a file may have been read.
   */
  get exposure(): Exposure | undefined {
    return this.#exposure;
  }

  /**
   * Reads, changes and writes the store under the cross-process lock. `change` gets a fresh copy
   * read under the lock and may be async (a token renewal runs inside it, so others wait for it).
   */
  async update<T>(change: (data: StoreData) => Promise<T> | T): Promise<T> {
    this.#prepareFolder();
    const loadingConf = import('conf');
    const release = await lockStore(this.dir, this.lock);
    try {
      const { default: ConfClass } = await loadingConf;
      const data = this.read();
      const result = await change(data);
      try {
        // Created only now, once the file has passed the checks: conf reads it when it starts.
        this.#conf ??= new ConfClass<StoreData>({
          cwd: this.dir,
          configName: 'config',
          projectName: 'payorder',
          configFileMode: 0o600,
          clearInvalidConfig: false,
        });
        // conf writes a temporary file beside the store and renames it over: all or nothing.
        this.#conf.store = data;
      } catch (error) {
        throw storeIoError(error, 'file', this.path, 'write');
      }
      return result;
    } finally {
      await release();
    }
  }

  /** Whether the folder exists; throws when it is not safely ours or cannot be looked at. */
  #checkFolder(): boolean {
    let stats: Stats;
    try {
      stats = lstatSync(this.dir);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return false;
      throw storeIoError(error, 'folder', this.dir, 'read');
    }
    const refusal = refusalOf('folder', this.dir, stats);
    if (refusal) throw refusal;
    this.#folder = stats;
    return true;
  }

  /** The file's text, or undefined when there is none; checked on the open file, so what is checked is what is read. */
  #readFile(): string | undefined {
    let file: ReturnType<typeof readCheckedFile>;
    try {
      file = readCheckedFile(this.path, refusalOf);
    } catch (error) {
      throw storeIoError(error, 'file', this.path, 'read');
    }
    if (!file) return undefined;
    this.#exposure = this.#folder && readersOf(file.stats, this.#folder);
    return file.text;
  }

  /**
   * Creates the folder 0700 when it is missing, else checks it. Only folders this call created are
   * chmodded (mkdir's mode passes through the umask, which may take the owner's own bits away); a
   * folder that was there is the user's, and one others can write is refused, never changed.
   */
  #prepareFolder(): void {
    let created: string | undefined;
    try {
      created = mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      // Something that is not a folder is in the way: the check below names it.
      if (errnoOf(error) !== 'EEXIST' && errnoOf(error) !== 'ENOTDIR')
        throw storeIoError(error, 'folder', this.dir, 'write');
    }
    if (created !== undefined) {
      const first = resolve(created);
      try {
        for (let dir = resolve(this.dir); ; dir = dirname(dir)) {
          chmodSync(dir, 0o700);
          if (dir === first || dir === dirname(dir)) break;
        }
      } catch (error) {
        throw storeIoError(error, 'folder', this.dir, 'write');
      }
    }
    this.#checkFolder();
  }
}

/** The store's folder: PAYORDER_CONFIG_DIR, else $XDG_CONFIG_HOME/payorder (usually ~/.config/payorder). */
export function openStore(env: Env, lock: LockOptions = {}): ProfileStore {
  const base = env.XDG_CONFIG_HOME || join(env.HOME ?? homedir(), '.config');
  const dir = env.PAYORDER_CONFIG_DIR || join(base, 'payorder');
  return new ProfileStore(dir, join(dir, 'config.json'), lock);
}

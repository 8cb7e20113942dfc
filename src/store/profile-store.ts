/**
 * The profile store: per environment the credentials, addresses and cached tokens, plus defaults.
 * A conf JSON file in the XDG config folder (PAYORDER_CONFIG_DIR overrides), 0600 in a 0700 folder
 * whatever the umask. Every read-modify-write holds a cross-process lock and re-reads under it, so
 * parallel payorder processes never lose each other's writes. A broken file is reported, never replaced.
 */
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Conf from 'conf';
import type { Env } from '../context.js';
import { CliError } from '../errors.js';
import type { StoreData } from './profile-data.js';

export type { StoreData } from './profile-data.js';

export class ProfileStore {
  #conf: Conf<StoreData> | undefined;

  constructor(
    readonly dir: string,
    readonly path: string,
  ) {}

  /**
   * The whole store as it is on disk now. Reading is a plain JSON parse of conf's file, so a command
   * that only reads (most do, once a token is cached) does not load conf and its schema validator.
   */
  read(): StoreData {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw brokenStore(this.path, error);
    }
    try {
      const data: unknown = JSON.parse(text);
      if (typeof data !== 'object' || data === null || Array.isArray(data))
        throw new Error('not a JSON object');
      return data as StoreData;
    } catch (error) {
      throw brokenStore(this.path, error);
    }
  }

  /**
   * Reads, changes and writes the store under the cross-process lock. `change` gets a fresh copy
   * read under the lock and may be async (a token renewal runs inside it, so others wait for it).
   */
  async update<T>(change: (data: StoreData) => Promise<T> | T): Promise<T> {
    this.#ensureDir();
    const [{ default: lockfile }, conf] = await Promise.all([import('proper-lockfile'), this.#openConf()]);
    const release = await lockfile.lock(this.dir, {
      lockfilePath: join(this.dir, 'config.lock'),
      realpath: false,
      stale: 15_000,
      retries: { retries: 600, factor: 1.3, minTimeout: 5, maxTimeout: 100 },
      onCompromised: () => {},
    });
    try {
      const data = this.read();
      const result = await change(data);
      conf.store = data;
      return result;
    } finally {
      await release();
    }
  }

  async #openConf(): Promise<Conf<StoreData>> {
    if (this.#conf) return this.#conf;
    const { default: ConfClass } = await import('conf');
    try {
      this.#conf = new ConfClass<StoreData>({
        cwd: this.dir,
        configName: 'config',
        projectName: 'payorder',
        configFileMode: 0o600,
        clearInvalidConfig: false,
      });
    } catch (error) {
      throw brokenStore(this.path, error);
    }
    return this.#conf;
  }

  #ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
  }
}

function brokenStore(path: string, error: unknown): CliError {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new CliError('config', `the payorder store ${path} cannot be read: ${reason}`, {
    hint: 'fix the file by hand or move it away; payorder never overwrites a file it cannot read',
  });
}

/** The store's folder: PAYORDER_CONFIG_DIR, else $XDG_CONFIG_HOME/payorder (usually ~/.config/payorder). */
export function openStore(env: Env): ProfileStore {
  const base = env.XDG_CONFIG_HOME || join(env.HOME ?? homedir(), '.config');
  const dir = env.PAYORDER_CONFIG_DIR || join(base, 'payorder');
  return new ProfileStore(dir, join(dir, 'config.json'));
}

/**
 * The profile store: per environment the credentials, addresses and cached tokens, plus defaults.
 * A conf JSON file in the XDG config folder (PAYORDER_CONFIG_DIR overrides), 0600 in a 0700 folder
 * whatever the umask. Every read-modify-write holds a cross-process lock and re-reads under it, so
 * parallel payorder processes never lose each other's writes. A broken file is reported, never replaced.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import lockfile from 'proper-lockfile';
import type { Env } from '../context.js';
import { CliError } from '../errors.js';
import type { StoreData } from './profile-data.js';

export type { StoreData } from './profile-data.js';

export class ProfileStore {
  readonly #conf: Conf<StoreData>;

  constructor(
    readonly dir: string,
    conf: Conf<StoreData>,
  ) {
    this.#conf = conf;
  }

  get path(): string {
    return this.#conf.path;
  }

  /** The whole store as it is on disk now. */
  read(): StoreData {
    try {
      return structuredClone(this.#conf.store);
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
      this.#conf.store = data;
      return result;
    } finally {
      await release();
    }
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

/** Opens the store in PAYORDER_CONFIG_DIR, else the XDG config folder. */
export function openStore(env: Env): ProfileStore {
  const options = {
    projectName: 'payorder',
    projectSuffix: '',
    configName: 'config',
    configFileMode: 0o600,
    clearInvalidConfig: false,
    ...(env.PAYORDER_CONFIG_DIR ? { cwd: env.PAYORDER_CONFIG_DIR } : {}),
  };
  let conf: Conf<StoreData>;
  try {
    conf = new Conf<StoreData>(options);
  } catch (error) {
    const dir = env.PAYORDER_CONFIG_DIR ?? 'the payorder config folder';
    throw brokenStore(join(dir, 'config.json'), error);
  }
  return new ProfileStore(env.PAYORDER_CONFIG_DIR ?? join(conf.path, '..'), conf);
}

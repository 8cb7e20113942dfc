/**
 * A real Secret Service for the keychain tests: a D-Bus session of its own (dbus-run-session) with
 * gnome-keyring's secrets component, its login keyring created and unlocked with a password given
 * on stdin, all in a folder of the test's (nothing of the user's own keyring is touched). payorder
 * runs in child processes pointed at it by DBUS_SESSION_BUS_ADDRESS; the test reads and writes
 * entries with the addon itself, in a child too (the addon reads the process's own environment).
 * And a probe that tells whether a payorder process loaded the addon at all.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';

/** The tools the keyring needs (Debian: dbus, gnome-keyring). */
export const KEYRING_TOOLS = ['dbus-run-session', 'gnome-keyring-daemon'];

const ADDON = createRequire(import.meta.url).resolve('@napi-rs/keyring');

// Unlocks (creating it) the login keyring, prints the bus address, then holds the session open
// until its stdin is closed.
const SESSION = `printf '%s' "$KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 || exit 1
printf '%s\\n' "$DBUS_SESSION_BUS_ADDRESS"
cat >/dev/null`;

export interface Keyring {
  /** The session bus address, for DBUS_SESSION_BUS_ADDRESS. */
  address: string;
  /** The secret of payorder's entry for `account` ("sandbox:client"), or null when there is none. */
  read(account: string): Promise<string | null>;
  /** Removes payorder's entry for `account`, if there is one. */
  remove(account: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startKeyring(home: string): Promise<Keyring> {
  const runtime = join(home, 'run');
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_RUNTIME_DIR: runtime,
    KEYRING_PASSWORD: 'keyring-test-password',
  };
  const session: ResultPromise = execa('dbus-run-session', ['--', 'sh', '-c', SESSION], {
    env,
    extendEnv: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'ignore',
    reject: false,
    // A safety net: the test file stops the session when it is done.
    timeout: 600_000,
  });
  const address = await new Promise<string>((resolve, reject) => {
    let text = '';
    session.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(text.split('\n')[0]!.trim());
    });
    session.then((result) => reject(new Error(`the keyring session ended (exit ${result.exitCode})`)));
  });
  const addon = async (script: string, ...args: string[]) => {
    const result = await execa(process.execPath, ['-e', script, ADDON, ...args], {
      env: { ...env, DBUS_SESSION_BUS_ADDRESS: address },
      extendEnv: false,
    });
    return result.stdout;
  };
  const entry = `const { Entry } = require(process.argv[1]);
const entry = new Entry('payorder', process.argv[2], { linux: { store: 'secret-service' } });`;
  return {
    address,
    read: async (account) =>
      JSON.parse(await addon(`${entry}\nconsole.log(JSON.stringify(entry.getPassword()));`, account)),
    remove: async (account) => {
      await addon(`${entry}\nentry.deletePassword();`, account);
    },
    stop: async () => {
      session.stdin!.end();
      await session;
    },
  };
}

// Records every module and native addon the process loads, and writes the list when it exits.
const PROBE = `const { writeFileSync } = require('node:fs');
const native = [];
const dlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) {
  native.push(filename);
  return dlopen.call(this, module, filename, ...rest);
};
process.on('exit', () => {
  writeFileSync(process.env.ADDON_PROBE_OUT, JSON.stringify({ native, modules: Object.keys(require.cache) }));
});
`;

/**
 * Whether a payorder process loaded the keychain addon: a preload (NODE_OPTIONS=--require) lists
 * the modules and native addons it loaded. `watch()` gives the environment for one run, and then
 * what that run loaded of the addon (empty when nothing).
 */
export function addonProbe(dir: string) {
  const script = join(dir, 'addon-probe.cjs');
  writeFileSync(script, PROBE);
  let runs = 0;
  return {
    watch() {
      const out = join(dir, `addon-probe-${++runs}.json`);
      return {
        env: { NODE_OPTIONS: `--require ${script}`, ADDON_PROBE_OUT: out },
        /** The addon's modules and binaries the run loaded; throws when the run wrote no list. */
        loaded(): string[] {
          const seen: { native: string[]; modules: string[] } = JSON.parse(readFileSync(out, 'utf8'));
          return [...seen.modules, ...seen.native].filter((path) => /[\\/]@napi-rs[\\/]keyring/.test(path));
        },
      };
    },
  };
}

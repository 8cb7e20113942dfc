/**
 * The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows) through
 * the optional native addon @napi-rs/keyring. The addon is loaded here only, and only when a client
 * secret is written, read or removed: start-up and the commands that use a cached token never load
 * it. Where it cannot be loaded (not installed, a platform without a prebuilt binary, the standalone
 * executable) or no keychain answers, the caller keeps the secret in the store's file instead.
 *
 * On Linux only Secret Service is used. The addon would otherwise fall back to the kernel keyring,
 * which forgets its keys when the session ends or the machine restarts: a login that silently
 * disappears is worse than the file, which payorder then uses and says so.
 */
import type { Env } from '../variables.js';

/** The service name every secret payorder keeps in the keychain is filed under. */
export const KEYCHAIN_SERVICE = 'payorder';

/** The keychain's entries of the payorder service, by account name. */
export interface Keychain {
  /** The secret of `account`, or undefined when the keychain has none. */
  read(account: string): Promise<string | undefined>;
  write(account: string, secret: string): Promise<void>;
  /** Whether there was an entry to remove. */
  remove(account: string): Promise<boolean>;
}

/** The keychain, or why there is none to use (a short phrase, for a message). */
export type KeychainAccess = { keychain: Keychain } | { unreachable: string };

// A name in a variable, so that the bundler leaves the addon out: it is a native module, found at run
// time in node_modules when the optional dependency is installed.
const ADDON = '@napi-rs/keyring';

type Addon = typeof import('@napi-rs/keyring');

/** Opens the keychain, loading the addon; never throws (an unusable keychain is `unreachable`). */
export async function openKeychain(env: Env, signal?: AbortSignal): Promise<KeychainAccess> {
  // Secret Service is reached over the session bus; without its address the addon could only fail.
  if (process.platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS)
    return { unreachable: 'no D-Bus session for Secret Service: DBUS_SESSION_BUS_ADDRESS is not set' };
  let addon: Addon;
  try {
    addon = (await import(ADDON)) as Addon;
  } catch {
    return {
      unreachable: `the keychain module ${ADDON} cannot be loaded (not installed, no build for this platform, or the standalone executable)`,
    };
  }
  const entry = (account: string) =>
    new addon.AsyncEntry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } });
  return {
    keychain: {
      read: async (account) => (await entry(account).getPassword(signal)) ?? undefined,
      write: (account, secret) => entry(account).setPassword(secret, signal),
      remove: (account) => entry(account).deletePassword(signal),
    },
  };
}

/** What a failure of the keychain says, in one line ("Couldn't access platform storage: …"). */
export function keychainProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\n[\s\S]*$/, '').trim() || 'the keychain refused';
}

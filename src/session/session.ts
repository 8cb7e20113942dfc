/**
 * A ready-to-use connection to one target: its credentials, its service client and an access token
 * that is cached, shared between parallel processes and renewed when needed. The only path by
 * which payorder obtains, renews and stores tokens (login included). A secret kept in the OS keychain
 * is read only when a token is requested, so a command with a usable cached token never opens it.
 */
import { type ServiceClient, type Target, TOKEN_REFUSED } from '../api/service.js';
import type { Context } from '../context.js';
import type { Account, Credentials } from '../contract/token.js';
import { CliError } from '../errors.js';
import { shellWord } from '../store/private-path.js';
import type { CachedToken, StoreData } from '../store/profile-data.js';
import type { ProfileStore } from '../store/profile-store.js';
import { warn } from '../terminal/messages.js';
import { clockIsSet } from '../variables.js';
import { refuseCleartextTarget } from './cleartext.js';
import { requireCredentials } from './credentials.js';
import { cachedToken, rememberToken, usableUntil } from './token-cache.js';

export class Session {
  /**
   * The token this process uses, so a batch does not read the store for every order, and until when
   * it may be sent (read from its expiry once, not for every order).
   */
  #current: { token: CachedToken; until: number } | undefined;
  #secret: Promise<string> | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly store: ProfileStore,
    readonly client: ServiceClient,
    /** Who the tokens are for; the secret comes from `secret`, called at most once. */
    readonly credentials: Account,
    private readonly secret: () => Promise<string>,
  ) {}

  /** The credentials with the secret, for a token request: a keychain is read now, once per session. */
  async withSecret(): Promise<Credentials> {
    this.#secret ??= this.secret();
    return {
      username: this.credentials.username,
      clientId: this.credentials.clientId,
      clientSecretId: await this.#secret,
    };
  }

  get target(): Target {
    return this.client.target;
  }

  /** A valid token: the cached one, else one renewal shared with any parallel payorder process. */
  async token(refused?: string): Promise<string> {
    const usable = (
      token: CachedToken | undefined,
      until = token ? usableUntil(token) : 0,
    ): token is CachedToken =>
      token !== undefined && until > this.ctx.clock().getTime() && token.accessToken !== refused;
    const current = this.#current;
    if (current && usable(current.token, current.until)) return current.token.accessToken;
    const cached = cachedToken(this.store.read(), this.target, this.credentials, clockIsSet(this.ctx.env));
    if (usable(cached)) return this.#use(cached).accessToken;
    // Renew under the store's lock: a process that waited re-reads and uses the first one's token.
    const renewed = await this.store.update(async (data) => {
      const stored = cachedToken(data, this.target, this.credentials, clockIsSet(this.ctx.env));
      if (usable(stored)) return stored;
      return this.#issue(data);
    });
    return this.#use(renewed).accessToken;
  }

  #use(token: CachedToken): CachedToken {
    this.#current = { token, until: usableUntil(token) };
    return token;
  }

  /**
   * Proves the credentials with a new token and stores it, together with whatever `alsoStore`
   * writes in the same update. `alsoStore` runs only once the token request has succeeded (login
   * stores the credentials, and puts the secret in the keychain, only then).
   */
  async renew(alsoStore: (data: StoreData) => Promise<void> | void = () => {}): Promise<CachedToken> {
    // A failed request throws out of the update, so nothing of it is written.
    const renewed = await this.store.update((data) => this.#issue(data, alsoStore));
    return this.#use(renewed);
  }

  /** A new token, kept in `data` after `alsoStore` has had its say there (a token cached during a rehearsal says so). */
  async #issue(
    data: StoreData,
    alsoStore: (data: StoreData) => Promise<void> | void = () => {},
  ): Promise<CachedToken> {
    const issued = await this.client.requestToken(await this.withSecret());
    await alsoStore(data);
    return rememberToken(
      data,
      this.target,
      this.credentials,
      issued,
      this.ctx.clock(),
      clockIsSet(this.ctx.env),
    );
  }

  /**
   * Runs a request with a token; when the service refuses the token (the explicit-deny 403 or a 401:
   * expired, or signed by a key the service no longer has) renews it once and repeats once.
   */
  async authorized<T>(request: (token: string) => Promise<T>): Promise<T> {
    const token = await this.token();
    try {
      return await request(token);
    } catch (error) {
      if (!(error instanceof CliError) || !TOKEN_REFUSED.includes(error.details.code ?? '')) throw error;
      return request(await this.token(token));
    }
  }
}

export interface SessionOptions {
  /** Credentials to use instead of the stored or PAYORDER_ ones (login's). */
  credentials?: Credentials;
  /** Abort requests in flight on Ctrl-C (default); a batch lets them finish instead. */
  interruptible?: boolean;
}

/** A session for a resolved target, with the given, the environment's or the stored credentials. */
export async function openSession(
  ctx: Context,
  target: Target,
  { credentials, interruptible = true }: SessionOptions = {},
): Promise<Session> {
  const store = await ctx.store();
  const data = store.read();
  refuseCleartextTarget(ctx, target, data);
  const found = credentials
    ? { credentials, secretIn: 'given' as const }
    : requireCredentials(ctx, data, target);
  const chosen = found.credentials;
  const { username, clientId, clientSecretId } = chosen;
  // A secret from the keychain is not known yet: the token request masks it itself.
  const client = await ctx.client(target, {
    secrets: clientSecretId === undefined ? [] : [clientSecretId],
    interruptible,
  });
  // The secret is read only when a token must be requested: a cached token never loads the
  // secret's storage (the keychain code) at all.
  const secret = async () => {
    if (found.secretIn === 'file') warnIfExposed(ctx, store);
    return (await import('./secret-storage.js')).storedSecret(ctx, target, chosen);
  };
  return new Session(ctx, store, client, { username, clientId }, secret);
}

/** Said each time a client secret is read from a store file others can read: it may have been read. */
function warnIfExposed(ctx: Context, store: ProfileStore): void {
  const exposure = store.exposure;
  if (!exposure) return;
  warn(
    ctx,
    `the payorder store ${store.path} holds the client secret and is readable by ${exposure.by} (${exposure.mode}): make it private (chmod 600 ${shellWord(store.path)}) and rotate the secret, which may have been read`,
  );
}

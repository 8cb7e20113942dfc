/**
 * A ready-to-use connection to one target: resolved environment and version, credentials, and an
 * access token that is cached, shared between parallel processes and renewed when needed.
 */
import type { HttpOptions } from '../api/http.js';
import { EXPIRED, ServiceClient, type Target } from '../api/service.js';
import type { Context } from '../context.js';
import type { Credentials } from '../contract/token.js';
import { CliError } from '../errors.js';
import { type CachedToken, profileOf, type StoreData } from '../store/profile-data.js';
import type { ProfileStore } from '../store/profile-store.js';
import { requireCredentials } from './credentials.js';
import { resolveTarget, type TargetFlags } from './target.js';

/** Renew this long before the service's expiry, so a token never dies in flight. */
const RENEW_EARLY_MS = 60_000;

export function httpOptions(ctx: Context, secrets: string[] = [], interruptible = true): HttpOptions {
  const seconds = Number(ctx.env.PAYORDER_TIMEOUT ?? 30);
  return {
    timeoutMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : 30) * 1000,
    trace: ctx.flags.debug ? (line) => ctx.io.stderr.write(`[debug] ${line}\n`) : undefined,
    secrets,
    // A batch lets requests in flight finish on Ctrl-C, so that none is left with an unknown outcome.
    signal: interruptible ? ctx.signal : undefined,
    refusalRetries: 4,
  };
}

export class Session {
  readonly client: ServiceClient;
  /** The token this process uses, so a batch does not read the store for every order. */
  #current: CachedToken | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly store: ProfileStore,
    readonly target: Target,
    readonly credentials: Credentials,
    interruptible = true,
  ) {
    this.client = new ServiceClient(target, httpOptions(ctx, [credentials.clientSecretId], interruptible));
  }

  /** A valid token: the cached one, else one renewal shared with any parallel payorder process. */
  async token(refused?: string): Promise<string> {
    const usable = (cached: CachedToken | undefined) =>
      cached &&
      cached.clientId === this.credentials.clientId &&
      cached.accessToken !== refused &&
      Date.parse(cached.expiresAt) - RENEW_EARLY_MS > this.ctx.clock().getTime();
    const { env, version } = this.target;
    if (usable(this.#current)) return this.#current!.accessToken;
    const cached = this.store.read().environments?.[env]?.tokens?.[version];
    if (usable(cached)) {
      this.#current = cached;
      return cached!.accessToken;
    }
    // Renew under the store's lock: a process that waited re-reads and uses the first one's token.
    this.#current = await this.store.update(async (data) => {
      const current = data.environments?.[env]?.tokens?.[version];
      if (usable(current)) return current!;
      const issued = await this.client.requestToken(this.credentials);
      const profile = profileOf(data, env);
      profile.tokens ??= {};
      profile.tokens[version] = {
        accessToken: issued.accessToken,
        expiresAt: new Date(this.ctx.clock().getTime() + issued.expiresIn * 1000).toISOString(),
        clientId: this.credentials.clientId,
      };
      return profile.tokens[version];
    });
    return this.#current.accessToken;
  }

  /** Runs a request with a token; on the explicit-deny 403 (expired) renews once and repeats once. */
  async authorized<T>(request: (token: string) => Promise<T>): Promise<T> {
    const token = await this.token();
    try {
      return await request(token);
    } catch (error) {
      if (!(error instanceof CliError) || error.details.code !== EXPIRED) throw error;
      return request(await this.token(token));
    }
  }
}

export async function openSession(
  ctx: Context,
  flags: TargetFlags,
  { interruptible = true } = {},
): Promise<Session> {
  const store = await ctx.store();
  const data: StoreData = store.read();
  const target = resolveTarget(ctx, flags, data);
  const { credentials } = requireCredentials(ctx, data, target.env);
  return new Session(ctx, store, target, credentials, interruptible);
}

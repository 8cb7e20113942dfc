/**
 * Cleartext addresses. The token request carries the client secret and every other request a
 * token, so production and stage are reached over https://, or over http:// only on this machine
 * (a local tunnel or proxy). The sandbox holds no real secret and is exempt. A user who must use
 * http:// anyway says so with --allow-insecure-http or the config key of the same name, and is
 * warned each time such an address is used.
 */
import type { Target } from '../api/service.js';
import type { Context } from '../context.js';
import type { EnvName } from '../contract/environments.js';
import { isLoopbackHost, parsedUrl } from '../contract/urls.js';
import { CliError } from '../errors.js';
import type { StoreData } from '../store/profile-data.js';
import { warnEvenQuiet } from '../terminal/messages.js';

/** The flag and the config key that allow http:// for production and stage. */
export const ALLOW_INSECURE_HTTP = 'allow-insecure-http';

/** Whether `url` would carry `env`'s secret or tokens unencrypted beyond this machine. */
export function isCleartext(env: EnvName, url: string): boolean {
  if (env === 'sandbox') return false;
  const parsed = parsedUrl(url);
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname);
}

/** How the user allowed cleartext, if they did: the flag wins over the config key. */
export type InsecureHttp =
  | 'refused'
  | `--${typeof ALLOW_INSECURE_HTTP}`
  | `${typeof ALLOW_INSECURE_HTTP} true`;

export function insecureHttpOf(ctx: Context, data: StoreData): InsecureHttp {
  if (ctx.flags.allowInsecureHttp) return `--${ALLOW_INSECURE_HTTP}`;
  return data.allowInsecureHttp === true ? `${ALLOW_INSECURE_HTTP} true` : 'refused';
}

/** An address about to be stored or used, named as the user knows it. */
export interface AddressUse {
  env: EnvName;
  /** The flag, variable or config key it came from. */
  field: string;
  url: string;
  /** What the user would run or set to give the https:// address instead; `https` is that address. */
  fix: (https: string) => string;
}

/**
 * Refuses a cleartext address (exit 2, before anything is sent), or, when the user allowed it,
 * warns on stderr; --quiet does not silence that warning.
 */
export function checkCleartext(ctx: Context, use: AddressUse, allowed: InsecureHttp): void {
  if (!isCleartext(use.env, use.url)) return;
  if (allowed === 'refused') {
    const https = use.url.replace(/^http:/i, 'https:');
    throw new CliError(
      'config',
      `${use.field}: ${use.env} needs https:// (http:// only to this machine: localhost, 127.0.0.0/8, ::1), or the client secret and tokens travel unencrypted`,
      {
        field: use.field,
        hint: `use https: ${use.fix(https)}; or add --${ALLOW_INSECURE_HTTP} to send them unencrypted anyway`,
      },
    );
  }
  warnEvenQuiet(
    ctx,
    `${use.field} is ${use.url}: ${use.env}'s client secret and tokens travel unencrypted (allowed by ${allowed})`,
  );
}

/**
 * The last look before a session sends anything: whatever built `target`, neither address goes out
 * in cleartext unless the user allowed it. Where the address came from was named (and an allowed
 * one warned about) when the target was resolved; this only refuses.
 */
export function refuseCleartextTarget(ctx: Context, target: Target, data: StoreData): void {
  if (insecureHttpOf(ctx, data) !== 'refused') return;
  for (const [kind, url] of [
    ['auth', target.authBase],
    ['checkout', target.checkoutBase],
  ] as const)
    checkCleartext(
      ctx,
      { env: target.env, field: `the ${kind} address`, url, fix: (https) => `give ${https}` },
      'refused',
    );
}

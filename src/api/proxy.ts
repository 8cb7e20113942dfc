/**
 * The proxy payorder's requests go through, from the variables curl, gh and most tools read:
 * HTTPS_PROXY for https:// addresses, HTTP_PROXY for http:// ones, NO_PROXY for the hosts that are
 * reached directly (each also in lower case, which wins). As with Go's tools, an address on this
 * machine (localhost, 127.x.x.x, ::1: a sandbox) is always reached directly (transport.ts). An
 * https:// address goes through a CONNECT tunnel, so the proxy never sees a token.
 */
import { CliError } from '../errors.js';
import type { Env } from '../variables.js';

/** The proxies of each kind of address, and the hosts reached without one (undici's EnvHttpProxyAgent). */
export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy: string;
}

/** The variable that sets `name` (its lower-case spelling wins, as in curl), and its value. */
function variable(env: Env, name: string): [string, string] | undefined {
  for (const spelling of [name.toLowerCase(), name]) {
    const value = env[spelling];
    if (value) return [spelling, value];
  }
  return undefined;
}

/**
 * The proxy settings of `env`, or undefined when no proxy is set. A proxy address that is not an
 * http:// or https:// URL is refused, naming the variable (never its value: it may hold a password).
 */
export function proxySettings(env: Env): ProxySettings | undefined {
  const http = variable(env, 'HTTP_PROXY');
  const https = variable(env, 'HTTPS_PROXY');
  if (!http && !https) return undefined;
  for (const [name, value] of [http, https].filter((set) => set !== undefined)) {
    const protocol = URL.parse(value)?.protocol;
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new CliError('config', `${name}: must be the http:// or https:// address of a proxy`, {
        hint: `for example ${name}=http://proxy.example:3128; unset it to connect directly`,
      });
  }
  return {
    ...(http ? { httpProxy: http[1] } : {}),
    ...(https ? { httpsProxy: https[1] } : {}),
    noProxy: variable(env, 'NO_PROXY')?.[1] ?? '',
  };
}

/**
 * The proxy payorder's requests go through, from the variables curl, gh and most tools read:
 * HTTPS_PROXY for https:// addresses, HTTP_PROXY for http:// ones, NO_PROXY for the hosts that are
 * reached directly (each also in lower case, which wins). As with Go's tools, an address on this
 * machine (localhost, 127.x.x.x, ::1: a sandbox) is always reached directly.
 *
 * Node's agents go through the proxy themselves (their `proxyEnv` option: an https:// address
 * through a CONNECT tunnel, so the proxy never sees a token), from Node 22.21 and 24.5 on.
 */
import { CliError } from '../errors.js';
import type { Env } from '../variables.js';

/** What Node's agents read from their `proxyEnv` option. */
export interface ProxySettings {
  http_proxy?: string;
  https_proxy?: string;
  no_proxy: string;
}

const LOOPBACK = ['localhost', '127.0.0.0-127.255.255.255', '::1'];

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
  const noProxy = variable(env, 'NO_PROXY')?.[1];
  return {
    ...(http ? { http_proxy: http[1] } : {}),
    ...(https ? { https_proxy: https[1] } : {}),
    no_proxy: [...(noProxy ? [noProxy] : []), ...LOOPBACK].join(','),
  };
}

/** Whether Node's agents of `version` go through a proxy (their `proxyEnv` option). */
export function agentsTakeProxies(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 24 || (major === 24 && minor >= 5) || (major === 22 && minor >= 21);
}

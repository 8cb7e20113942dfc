/**
 * Who may drive the sandbox. It listens on this machine, where the developer's browser runs too:
 * any page open there could make the browser POST to it (register a listener, reset it, pay an
 * order), and a page whose name is rebound to 127.0.0.1 (DNS rebinding) could read it. So a
 * request must name the sandbox in its Host, and a request that changes something must not come
 * from another origin. Scripts and curl send neither Origin nor Sec-Fetch-Site and pass as before.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isLoopbackHost } from '../contract/urls.js';

/** The names a sandbox answers to, beyond the loopback ones. */
export interface SandboxNames {
  /** The address it binds (--host), unless that is every address (0.0.0.0, ::). */
  bound: string;
  /** --allow-host. */
  allowed: readonly string[];
  /** The origin of --public-url, when it has one. */
  publicUrl: string | undefined;
}

/** Longest piece of a refused header quoted back: enough to recognise it. */
const QUOTED = 100;

const UNSPECIFIED = new Set(['0.0.0.0', '::', '[::]']);

/** Whether a host name (no port; IPv6 in brackets or not) is this machine's loopback, *.localhost included. */
export const isLoopbackName = (name: string): boolean =>
  isLoopbackHost(name) || name.toLowerCase().endsWith('.localhost');

/** The host name of a Host header value ("[::1]:4010" → "[::1]"), lower-cased. */
export function hostName(host: string): string {
  const value = host.toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  const colon = value.lastIndexOf(':');
  return colon < 0 ? value : value.slice(0, colon);
}

/** A name as given on the command line or in a URL, in the form hostName gives: "::1" → "[::1]". */
export function normalName(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

const quote = (value: string) => (value.length > QUOTED ? `${value.slice(0, QUOTED)}…` : value);

const UNSAFE_FETCH_SITES = new Set(['cross-site', 'same-site']);

/**
 * The check for a sandbox known by `names`: it gives the reason to refuse a request, or undefined
 * to serve it.
 */
export function requestGuard(
  names: SandboxNames,
): (method: string, headers: IncomingHttpHeaders) => string | undefined {
  const known = new Set(names.allowed.map(normalName));
  if (!UNSPECIFIED.has(names.bound)) known.add(normalName(names.bound));
  if (names.publicUrl) known.add(new URL(names.publicUrl).hostname);
  const publicOrigin = names.publicUrl && new URL(names.publicUrl).origin;

  return (method, headers) => {
    // HTTP/1.0 allows a request without Host; no browser sends one.
    const host = headers.host;
    if (host !== undefined) {
      const name = hostName(host);
      if (!known.has(name) && !isLoopbackName(name))
        return `Host ${quote(host)} is not a name of this sandbox: use a loopback name, or start it with --allow-host ${quote(name)}`;
    }
    const { origin } = headers;
    if (origin !== undefined) {
      const own =
        (host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`) ||
        origin === publicOrigin;
      if (!own)
        return `Origin ${quote(origin)} is not this sandbox: a web page cannot drive it (see --public-url)`;
    }
    // A page's GET navigation (a payment link the shop sends the browser to) changes nothing.
    const site = headers['sec-fetch-site'];
    if (method !== 'GET' && method !== 'HEAD' && typeof site === 'string' && UNSAFE_FETCH_SITES.has(site))
      return `Sec-Fetch-Site ${site}: a web page cannot drive this sandbox`;
    return undefined;
  };
}

/**
 * The rule for every address payorder is given: callback links (spec §2.3) and the base addresses
 * of the token and order services (§9) are absolute http(s) URLs.
 */
import { invalidField } from '../errors.js';

import { PREFIX } from './versions.js';

/** How many addresses parsedUrl keeps: a batch reads the same few for every line. */
const KEPT = 64;
const parsed = new Map<string, Readonly<URL>>();

/**
 * `new URL(text)`, kept for the next time the same text comes: each line of a batch has the same
 * callback links, and each order goes to the same address (read by ky's Request and again by the
 * transport). The URL is shared, so it is read-only. A text that is no URL throws, every time.
 */
export function parsedUrl(text: string): Readonly<URL> {
  let url = parsed.get(text);
  if (url === undefined) {
    url = new URL(text);
    if (parsed.size >= KEPT) parsed.clear();
    parsed.set(text, url);
  }
  return url;
}

/**
 * Whether a host name (as a URL has it, IPv6 in brackets, or bare) is this machine's loopback:
 * localhost, 127.0.0.0/8 or ::1.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return (
    name === 'localhost' ||
    name === '::1' ||
    name === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/**
 * Shown for a value in an error: control characters escaped, so the message stays one line, and
 * any user:password before the host replaced, so a refusal never prints a password.
 */
const shown = (value: string) => JSON.stringify(value.replace(/^([a-z][a-z0-9+.-]*:\/*)[^/?#]*@/i, '$1***@'));

/**
 * An absolute http(s) URL written out in full (`scheme://host…`), with no spaces or control
 * characters anywhere: the rule for every address and callback link. The value is sent exactly as
 * given, so a lenient reading ("http:s.example" as http://s.example/) is not good enough.
 */
export function checkHttpUrl(field: string, value: string): string {
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(value))
    throw invalidField(field, `must be a URL without spaces or control characters, got ${shown(value)}`);
  let url: Readonly<URL>;
  try {
    url = parsedUrl(value);
  } catch {
    throw invalidField(field, `must be an absolute http(s) URL, got ${shown(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidField(field, `must be an absolute http(s) URL, got a ${url.protocol.replace(':', '')} URL`);
  }
  if (!/^https?:\/\/[^/]/i.test(value))
    throw invalidField(field, `must be an absolute http(s) URL like https://host/path, got ${shown(value)}`);
  return value;
}

/**
 * A base address: an absolute http(s) URL without credentials, kept without trailing slashes.
 * payorder appends the version prefix and the path itself, so a base that already ends in one
 * ("…/v2/api", "…/1/auth/token") is refused rather than doubled.
 */
export function checkBaseUrl(field: string, value: string): string {
  const url = new URL(checkHttpUrl(field, value));
  if (url.username || url.password)
    throw invalidField(field, 'must not contain a user name or password; payorder sends credentials itself');
  const base = value.replace(/\/+$/, '');
  const path = url.pathname.replace(/\/+$/, '');
  for (const prefix of Object.values(PREFIX)) {
    if (path.endsWith(prefix) || path.includes(`${prefix}/`))
      throw invalidField(
        field,
        `give the base address without "${prefix}" or a path after it; payorder appends ${prefix}/… itself (got ${shown(value)})`,
      );
  }
  if (/\/(auth\/token|checkout|orders?)$/.test(path))
    throw invalidField(
      field,
      `give the base address, not an endpoint; payorder appends the path itself (got ${shown(value)})`,
    );
  if (url.search || url.hash || /[?#]/.test(value))
    throw invalidField(
      field,
      `must not have a query or fragment; payorder appends paths to it (got ${shown(value)})`,
    );
  return base;
}

/**
 * Which redirects payorder follows, as a step decided from the answer alone: a token request follows
 * none (the client secret would go wherever the answer points); other requests follow at most
 * MAX_REDIRECTS, within their origin only (so never from https to http, and the token never leaves
 * the origin), as fetch would: a POST becomes a GET without its body on 301, 302 and 303. http.ts
 * traces each step and turns a refusal into the error a person reads.
 */

/** What a redirect step reads of a request (http.ts's Exchange). */
interface Hop {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  issuesToken: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** How many redirects a request follows, as many as fetch follows. */
export const MAX_REDIRECTS = 20;

export const isRedirect = (status: number) => REDIRECTS.has(status);

/** What to do with a redirect: follow it with the next hop, or refuse it and why. */
export type RedirectStep<H extends Hop> =
  | { follow: H; to: URL }
  | { refused: 'token' | 'origin' | 'too-many'; to: URL }
  | { refused: 'not-http' };

/** The step after `hop` (the `redirects`th hop of `first`) was answered `status` with `location`. */
export function redirectStep<H extends Hop>(
  first: Hop,
  hop: H,
  status: number,
  location: string,
  redirects: number,
): RedirectStep<H> {
  const from = new URL(hop.url);
  const to = URL.parse(location, from.href);
  if (to?.protocol !== 'http:' && to?.protocol !== 'https:') return { refused: 'not-http' };
  if (first.issuesToken) return { refused: 'token', to };
  if (to.origin !== from.origin) return { refused: 'origin', to };
  if (redirects === MAX_REDIRECTS) return { refused: 'too-many', to };
  if (status === 303 ? hop.method !== 'GET' : (status === 301 || status === 302) && hop.method === 'POST') {
    const { 'content-type': _, ...headers } = hop.headers ?? {};
    return { follow: { ...hop, method: 'GET', url: to.href, headers, body: undefined }, to };
  }
  return { follow: { ...hop, url: to.href }, to };
}

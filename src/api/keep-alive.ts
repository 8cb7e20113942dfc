/**
 * The transport of batches and bulk lookups: what ky sends through (its `fetch` option) when a
 * command makes many requests. undici's dispatcher API on a keep-alive agent of payorder's own,
 * sized to the requests the command keeps in flight, in place of the built-in fetch: per request the
 * built-in fetch builds a Request and a Response of its own, streams both bodies through WHATWG
 * streams and ties them to weak references that outlive V8's young generation, which was most of a
 * batch's CPU time and memory. Redirects are followed as fetch follows them (a POST becomes a GET
 * on 301, 302 and 303; the Authorization header is dropped when one leaves the origin).
 *
 * One-shot commands keep the built-in fetch (transport.ts): loading undici costs more start-up time
 * than one request saves.
 *
 * Only the three parts of undici used here are imported (src/types/package-parts.d.ts): its index
 * loads fetch, WebSocket, the caches and the mocks as well, which more than doubled the bundle.
 */
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import dispatchRequest from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import redirect from 'undici/lib/interceptor/redirect.js';
import { answered, type Transport } from './transport.js';

/** How many redirects are followed, as many as fetch follows. */
const MAX_REDIRECTIONS = 20;

/** A transport whose agent keeps at most `connections` connections per origin, each kept alive. */
export function keepAliveTransport(connections: number): Transport {
  const dispatcher = new Agent({ connections }).compose(redirect({ maxRedirections: MAX_REDIRECTIONS }));
  return {
    async fetch(request, { wire }) {
      const url = new URL(request.url);
      const answer = await dispatchRequest.call(dispatcher, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method as Dispatcher.HttpMethod,
        headers: wire.headers,
        body: wire.body,
        signal: request.signal,
      });
      const text = await answer.body.text();
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (Array.isArray(value)) for (const each of value) headers.append(name, each);
        else if (value !== undefined) headers.append(name, value);
      }
      return answered(answer.statusCode, STATUS_CODES[answer.statusCode] ?? '', headers, text);
    },
  };
}

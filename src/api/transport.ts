/**
 * How payorder's requests travel once ky has them: ky's `fetch` option, made of undici's fetch on an
 * undici Agent of payorder's own for each service client (a batch's or a bulk lookup's sized to the
 * requests it keeps in flight, its --concurrency), or an EnvHttpProxyAgent when a proxy is set.
 * Node's own fetch takes no dispatcher of the undici package reliably across Node's versions, so the
 * package's fetch is used, given the parts of ky's Request (a Request of Node's it would read as a
 * string).
 *
 * A transport follows no redirect: it hands the redirect back, and http.ts decides whether to follow
 * it. It reads the whole answer before it resolves, so ky's timeout covers the body too, and reads at
 * most MAX_ANSWER_BYTES of it: no answer of the service comes near it, and an endless one must not
 * exhaust memory.
 *
 * Each attempt says whether its request left (`Attempt.sent`): undici starts a request once it has an
 * open connection for it (over TLS, once the handshake is done), so a failure before then (a
 * connection refused, a name that does not resolve, a TLS error, a timeout while connecting) means
 * the service never had it.
 */
import { Agent, type Dispatcher, EnvHttpProxyAgent, Response, fetch as undiciFetch } from 'undici';
import { isLoopbackHost } from '../contract/urls.js';
import type { ProxySettings } from './proxy.js';

/** The most of an answer that is read: an order is a few hundred bytes. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** An answer larger than MAX_ANSWER_BYTES: given up unread, after the request was sent. */
class AnswerTooLarge extends Error {
  constructor() {
    super(`an answer of more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, not read to its end`);
  }
}

/** One attempt of a request, as far as the transport knows it. */
export interface Attempt {
  /** False until the request is handed to an open connection: from then on the service may have it. */
  sent: boolean;
}

/**
 * The fetch function ky is given for one exchange (ky's `fetch` option): it takes what fetch takes,
 * and answers with undici's Response, which is a Fetch Response as Node's is.
 */
export type KyFetch = (input: string | URL | Request, init?: RequestInit) => Promise<globalThis.Response>;

export interface Transport {
  /** A fetch for ky that notes on `attempt` whether each of its requests left. */
  fetchFor(attempt: Attempt): KyFetch;
}

/** How long an idle connection is kept when the service does not say (Node's server keeps one 5 s). */
const IDLE_MS = 4_000;
/** How much sooner than the service's Keep-Alive hint an idle connection is let go. */
const IDLE_MARGIN_MS = 1_000;
/** The statuses whose answer has no body, which a Response cannot be made with. */
const NO_BODY = new Set([204, 205, 304]);

/**
 * A transport whose agents keep at most `connections` connections per origin (as many as needed
 * when not given), each kept alive, and go through `proxy` when given (proxy.ts). Addresses on this
 * machine (a sandbox) are always reached directly.
 */
export function httpTransport(connections = Number.POSITIVE_INFINITY, proxy?: ProxySettings): Transport {
  const options = {
    connections: Number.isFinite(connections) ? connections : null,
    keepAliveTimeout: IDLE_MS,
    keepAliveTimeoutThreshold: IDLE_MARGIN_MS,
  };
  const direct = new Agent(options);
  const proxied = proxy
    ? new EnvHttpProxyAgent({
        ...options,
        // Given whole, so that undici reads none of process.env's own.
        httpProxy: proxy.httpProxy ?? '',
        httpsProxy: proxy.httpsProxy ?? '',
        noProxy: proxy.noProxy,
        // An http:// address is asked of the proxy as it is; an https:// one still goes through a
        // CONNECT tunnel, so the proxy never sees a token.
        proxyTunnel: false,
      })
    : undefined;
  const dispatcherFor = (url: URL): Dispatcher => {
    if (!proxied || isLoopbackHost(url.hostname)) return direct;
    // As curl: HTTPS_PROXY for https:// addresses only, HTTP_PROXY for http:// ones only.
    return (url.protocol === 'https:' ? proxy?.httpsProxy : proxy?.httpProxy) ? proxied : direct;
  };

  return {
    fetchFor(attempt) {
      return async (input, init) => {
        attempt.sent = false;
        const request = input instanceof Request ? input : new Request(input, init);
        const answer = await undiciFetch(request.url, {
          method: request.method,
          headers: [...request.headers],
          body: request.body === null ? undefined : await request.text(),
          signal: request.signal,
          redirect: 'manual',
          dispatcher: dispatcherFor(new URL(request.url)).compose(noteSent(attempt)),
        });
        if (answer.status < 200 || answer.status > 599) {
          await answer.body?.cancel();
          throw new Error(`an answer with status ${answer.status}, which HTTP does not have`);
        }
        const text = await readText(answer);
        const whole = new Response(NO_BODY.has(answer.status) ? null : text, {
          status: answer.status,
          statusText: answer.statusText,
          headers: answer.headers,
        });
        return whole as unknown as globalThis.Response;
      };
    },
  };
}

/**
 * An interceptor that notes when undici starts the request: once it has an open connection for it
 * (undici's `onRequestStart`). Every other step is handed on as it comes.
 */
function noteSent(attempt: Attempt): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatch(options, {
      onRequestStart(controller, context) {
        attempt.sent = true;
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
      onResponseStart: (...args) => handler.onResponseStart?.(...args),
      onResponseData: (...args) => handler.onResponseData?.(...args),
      onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
      onResponseError: (...args) => handler.onResponseError?.(...args),
    });
}

/** The whole body as UTF-8 text (a byte order mark dropped, as fetch does); AnswerTooLarge past the cap. */
async function readText(answer: Response): Promise<string> {
  const length = answer.headers.get('content-length');
  if (Number(length) > MAX_ANSWER_BYTES) {
    await answer.body?.cancel();
    throw new AnswerTooLarge();
  }
  // An answer that says how long it is cannot run past it: undici stops at its length.
  if (length !== null) return answer.text();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of answer.body ?? []) {
    size += chunk.length;
    // Leaving the loop cancels the body: undici drops the connection.
    if (size > MAX_ANSWER_BYTES) throw new AnswerTooLarge();
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

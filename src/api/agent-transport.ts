/**
 * The transport of batches, bulk lookups and proxied requests (transport.ts): ky's Requests handed to
 * an undici Agent of payorder's own (undici's `request()`), or to an EnvHttpProxyAgent when a proxy
 * is set. The agents keep at most as many connections as the command keeps requests in flight, and
 * read at most MAX_ANSWER_BYTES of an answer (their `maxResponseSize`). An interceptor notes when
 * undici starts a request on an open connection (`Attempt.sent`).
 */
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import { isLoopbackHost } from '../contract/urls.js';
import type { ProxySettings } from './proxy.js';
import { AnswerTooLarge, type Attempt, MAX_ANSWER_BYTES, type Transport, wholeAnswer } from './transport.js';

/** How long an idle connection is kept when the service does not say (Node's server keeps one 5 s). */
const IDLE_MS = 4_000;
/** How much sooner than the service's Keep-Alive hint an idle connection is let go. */
const IDLE_MARGIN_MS = 1_000;

/**
 * A transport whose agents keep at most `connections` connections per origin (as many as needed
 * when not given), each kept alive, and go through `proxy` when given (proxy.ts). Addresses on this
 * machine (a sandbox) are always reached directly.
 */
export function agentTransport(connections = Number.POSITIVE_INFINITY, proxy?: ProxySettings): Transport {
  const options = {
    connections: Number.isFinite(connections) ? connections : null,
    keepAliveTimeout: IDLE_MS,
    keepAliveTimeoutThreshold: IDLE_MARGIN_MS,
    maxResponseSize: MAX_ANSWER_BYTES,
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
    fetchFor(attempt, given) {
      return async (input, init) => {
        attempt.sent = false;
        const request = input instanceof Request ? input : new Request(input, init);
        const url = new URL(request.url);
        const body = given ?? (request.body === null ? undefined : await request.text());
        let answer: Dispatcher.ResponseData;
        try {
          answer = await dispatcherFor(url)
            .compose(noteSent(attempt))
            .request({
              origin: url.origin,
              path: `${url.pathname}${url.search}`,
              method: request.method as Dispatcher.HttpMethod,
              headers: Object.fromEntries(request.headers),
              body,
              signal: request.signal,
            });
        } catch (error) {
          throw tooLarge(error) ?? error;
        }
        return responseOf(answer);
      };
    },
  };
}

/** The answer read whole, as a Response of Node's (ky's); AnswerTooLarge past MAX_ANSWER_BYTES. */
async function responseOf({
  statusCode,
  statusText,
  headers,
  body,
}: Dispatcher.ResponseData): Promise<Response> {
  const fields: Array<[string, string]> = [];
  for (const name in headers) {
    const value = headers[name];
    if (Array.isArray(value)) for (const each of value) fields.push([name, each]);
    else fields.push([name, value ?? '']);
  }
  return wholeAnswer(statusCode, statusText, fields, {
    text: () => body.text().catch((error) => Promise.reject(tooLarge(error) ?? error)),
    discard: () => body.dump(),
  });
}

/** undici's refusal of an answer longer than `maxResponseSize`, as the transport names it. */
const tooLarge = (error: unknown) =>
  (error as { code?: string }).code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' ? new AnswerTooLarge() : undefined;

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

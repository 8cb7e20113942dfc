/**
 * How payorder's requests travel once ky has them (ky's `fetch` option). ky hands each attempt to a
 * transport with the headers and the body as they go on the wire beside it: ky's own Request carries
 * neither, so ky never streams a body nor clones one for a retry. A transport reads the whole answer
 * before it resolves (so ky's timeout covers the body too) and hands it back whole in a KyResponse.
 *
 * The transport is Node's own HTTP client on a keep-alive agent of payorder's own for each service
 * client: a batch's or a bulk lookup's sized to the requests it keeps in flight (its --concurrency).
 * Not the built-in fetch:
 *   - per request, fetch builds a Request and a Response of its own, streams both bodies through
 *     WHATWG streams and ties them to weak references that outlive V8's young generation, which was
 *     most of a batch's CPU time and memory;
 *   - its first request compiles its HTTP parser (WebAssembly) and sets up its dispatcher: a
 *     one-shot command ends about 9 ms sooner without them;
 *   - undici, which fetch is made of, writes a request on a kept-alive connection only after one more
 *     turn of the event loop (it first checks the idle connection). A batch's answers that come
 *     together are then all handled before any next request leaves, and they keep coming together:
 *     against a service that answers in 100 ms, each round of --concurrency requests took 100 ms
 *     plus the time to handle the whole round. node:http's agent sends on a free connection as soon
 *     as the request is made.
 *
 * A transport follows no redirect: it hands the redirect back, and http.ts decides whether to follow it
 * (a token request follows none; others only within their origin). It reads at most MAX_ANSWER_BYTES
 * of an answer: no answer of the service comes near it, and an endless one must not exhaust memory.
 *
 * A transport says whether a request left (`WireBody.sent`): a failure before that (a connection
 * refused, a TLS handshake that fails, a timeout while connecting) means the service never had it. An
 * idle kept-alive connection is closed before the service would close it (its Keep-Alive hint, or
 * after 4 s), so that a request is not written on a connection that is being closed.
 */
import {
  Agent,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  STATUS_CODES,
} from 'node:http';
import { request as httpsRequest, Agent as SecureAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { parsedUrl } from '../contract/urls.js';
import { KyHeaders, type KyRequest, KyResponse } from './ky-classes.js';
import type { ProxySettings } from './proxy.js';

export interface Transport {
  fetch(request: KyRequest, init: { wire: WireBody }): Promise<KyResponse>;
}

/** What a transport sends besides ky's Request: the headers, and the body as JSON text. */
export interface WireBody {
  headers: Record<string, string>;
  body?: string;
  /**
   * Set by the transport for each attempt: false when it starts, true once the request is handed to
   * an open connection (from then on the service may have it, whatever happens next).
   */
  sent?: boolean;
}

/** The most of an answer that is read: an order is a few hundred bytes. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** How long an idle connection is kept when the service does not say (Node's server keeps one 5 s). */
const IDLE_MS = 4_000;

/** An answer larger than MAX_ANSWER_BYTES: given up unread, after the request was sent. */
export class AnswerTooLarge extends Error {
  constructor() {
    super(`an answer of more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, not read to its end`);
  }
}

interface Sent {
  method: string;
  url: Readonly<URL>;
  wire: WireBody;
}

/**
 * A transport whose agents keep at most `connections` connections per origin (as many as needed
 * when not given), each kept alive, and go through `proxy` when given (proxy.ts).
 */
export function httpTransport(connections = Number.POSITIVE_INFINITY, proxy?: ProxySettings): Transport {
  const options = {
    keepAlive: true,
    maxSockets: connections,
    // Closes an idle connection; without it, the agent would not honour the service's hint.
    timeout: IDLE_MS,
    ...(proxy ? { proxyEnv: { ...proxy } } : {}),
  };
  const plain = new Agent(options);
  let secure: SecureAgent | undefined;
  const secureAgent = () => {
    secure ??= new SecureAgent(options);
    return secure;
  };

  const exchange = (
    { method, url, wire }: Sent,
    signal: AbortSignal,
    sent: () => void,
  ): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      signal.throwIfAborted();
      const headers: OutgoingHttpHeaders = { ...wire.headers };
      if (wire.body !== undefined) headers['content-length'] = Buffer.byteLength(wire.body);
      const tls = url.protocol === 'https:';
      const outgoing = (tls ? httpsRequest : httpRequest)(
        {
          method,
          protocol: url.protocol,
          hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          headers,
          // Over plain HTTP, named so that the agent does not work out a TLS server name for every request.
          ...(tls ? { agent: secureAgent() } : { agent: plain, servername: url.hostname }),
        },
        resolve,
      );
      // Followed by hand: the `signal` option ties the request to the signal through a weak reference.
      const abort = () => outgoing.destroy(signal.reason);
      const stop = () => signal.removeEventListener('abort', abort);
      signal.addEventListener('abort', abort, { once: true });
      outgoing.once('close', stop);
      outgoing.on('error', reject);
      // A new connection gets the request once it is open (over TLS, once the handshake is done): a
      // failure before then is the connection's own (refused, a TLS error), with nothing sent. A
      // connection the agent hands over open (kept alive, or freed by a request that waited for it) gets
      // it at once: it will not open again.
      const send = () => {
        sent();
        outgoing.end(wire.body);
      };
      outgoing.once('socket', (socket: Socket) => {
        if (isOpen(socket, tls)) send();
        else socket.once(tls ? 'secureConnect' : 'connect', send);
      });
    });

  return {
    async fetch(request, { wire }) {
      wire.sent = false;
      const left = () => {
        wire.sent = true;
      };
      const sent: Sent = { method: request.method, url: parsedUrl(request.url), wire };
      const incoming = await exchange(sent, request.signal, left);
      const status = incoming.statusCode ?? 0;
      if (status < 200 || status > 599) {
        incoming.destroy();
        throw new Error(`an answer with status ${status}, which HTTP does not have`);
      }
      const text = await readText(incoming);
      return new KyResponse(text, {
        status,
        statusText: incoming.statusMessage ?? STATUS_CODES[status] ?? '',
        headers: headersOf(incoming),
      });
    },
  };
}

/** Whether a connection is open, over TLS with its handshake done ("unknown" until then, null before). */
const isOpen = (socket: Socket, tls: boolean): boolean =>
  !socket.connecting && (!tls || ((socket as TLSSocket).getProtocol() ?? 'unknown') !== 'unknown');

/**
 * The whole body as UTF-8 text, decoded once it has all come (an answer is mostly one chunk); an
 * AnswerTooLarge past MAX_ANSWER_BYTES.
 */
function readText(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = () => {
      incoming.destroy();
      reject(new AnswerTooLarge());
    };
    if (Number(incoming.headers['content-length']) > MAX_ANSWER_BYTES) return tooLarge();
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) return tooLarge();
      chunks.push(chunk);
    });
    incoming.on('end', () => {
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
      // As fetch reads a text: a byte order mark is not part of it.
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    });
    incoming.on('error', reject);
  });
}

function headersOf(incoming: IncomingMessage): KyHeaders {
  const headers = new KyHeaders();
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/**
 * How payorder's requests travel once ky has them: ky's `fetch` option. One transport serves a whole
 * command, in one of two ways:
 * - a one-shot command (login, one order, a few lookups) sends through Node's own fetch, which ky
 *   needs loaded anyway (ky builds its Requests with Node's classes);
 * - a batch or a bulk lookup, whose agents keep as many connections as the requests it keeps in
 *   flight (its --concurrency), and any command that goes through a proxy, send through the undici
 *   package's agents (agent-transport.ts), loaded only then.
 * What ky gets back is a Response of Node's, made from the answer read whole.
 *
 * A transport follows no redirect: it hands the redirect back, and http.ts decides whether to follow
 * it. It reads the whole answer before it resolves, so ky's timeout covers the body too, and reads at
 * most MAX_ANSWER_BYTES of it: no answer of the service comes near it, and an endless one must not
 * exhaust memory.
 *
 * Each attempt says whether its request left (`Attempt.sent`): undici writes a request once it has
 * an open connection for it (over TLS, once the handshake is done), so a failure before then (a
 * connection refused, a name that does not resolve, a TLS error, a timeout while connecting) means
 * the service never had it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';

/** The most of an answer that is read: an order is a few hundred bytes. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** An answer larger than MAX_ANSWER_BYTES: given up unread, after the request was sent. */
export class AnswerTooLarge extends Error {
  constructor() {
    super(`an answer of more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, not read to its end`);
  }
}

/** One attempt of a request, as far as the transport knows it. */
export interface Attempt {
  /** False until the request is handed to an open connection: from then on the service may have it. */
  sent: boolean;
}

/** The fetch function ky is given for one exchange (ky's `fetch` option): it takes what fetch takes. */
export type KyFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface Transport {
  /**
   * A fetch for ky that notes on `attempt` whether each of its requests left. `body` is the body
   * http.ts gave ky, which a transport may send as it is instead of reading it back from ky's
   * Request: ky cancels that Request's body once the exchange is done, and a body already read
   * refuses with an error built for each request.
   */
  fetchFor(attempt: Attempt, body?: string): KyFetch;
}

/** The statuses whose answer has no body, which a Response cannot be made with. */
const NO_BODY = new Set([204, 205, 304]);

/**
 * An answer read whole, as a Response of Node's (ky's): its body as `text()` gives it, or, for a
 * status HTTP does not have, discarded and refused (the request was sent).
 */
export async function wholeAnswer(
  status: number,
  statusText: string,
  headers: NonNullable<ResponseInit['headers']>,
  body: { text(): Promise<string>; discard(): Promise<unknown> },
): Promise<Response> {
  if (status < 200 || status > 599) {
    await body.discard();
    throw new Error(`an answer with status ${status}, which HTTP does not have`);
  }
  return new Response(NO_BODY.has(status) ? null : await body.text(), { status, statusText, headers });
}

/**
 * The attempt each of fetch's requests belongs to. undici publishes the creation of every request it
 * dispatches and the moment it writes one to a connection (its diagnostics channels
 * `undici:request:create` and `undici:client:sendHeaders`); the creation runs in the asynchronous
 * context of the fetch that caused it, which `attempts` holds.
 */
const attempts = new AsyncLocalStorage<Attempt>();
const attemptOf = new WeakMap<object, Attempt>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  subscribe('undici:request:create', (message) => {
    const attempt = attempts.getStore();
    if (attempt) attemptOf.set((message as { request: object }).request, attempt);
  });
  subscribe('undici:client:sendHeaders', (message) => {
    const attempt = attemptOf.get((message as { request: object }).request);
    if (attempt) attempt.sent = true;
  });
}

/**
 * The ports fetch refuses to connect to ("bad ports" in the Fetch standard, section "Port
 * blocking"): a request to one of them goes through `fallback` instead.
 */
const BLOCKED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * Node's own fetch, each connection kept alive by Node's agent. An address on a port fetch refuses
 * (a sandbox started with --port 6000, say) is reached through the transport `fallback` makes.
 */
export function fetchTransport(fallback: () => Promise<Transport>): Transport {
  listen();
  let other: Promise<Transport> | undefined;
  return {
    fetchFor(attempt, body) {
      return async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        if (BLOCKED_PORTS.has(Number(url.port))) {
          other ??= fallback();
          return (await other).fetchFor(attempt, body)(input, init);
        }
        attempt.sent = false;
        return attempts.run(attempt, async () => {
          const answer = await fetch(input, { ...init, redirect: 'manual' });
          return wholeAnswer(answer.status, answer.statusText, answer.headers, {
            text: () => cappedText(answer),
            discard: async () => answer.body?.cancel(),
          });
        });
      };
    },
  };
}

/** An answer's body as text, read to its end; AnswerTooLarge past MAX_ANSWER_BYTES. */
async function cappedText(answer: Response): Promise<string> {
  if (answer.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = answer.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new AnswerTooLarge();
    }
    chunks.push(read.value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

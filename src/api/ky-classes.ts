/**
 * The Headers, Request and Response classes ky works with for payorder. ky builds its requests and
 * reads its answers with the classes it finds on globalThis, and Node's are undici's:
 *   - the first use of any of them loads undici, about 45 ms of a one-shot command's 130 (ky uses
 *     one as it loads, to see whether a Request may stream its body);
 *   - each of Node's Requests follows the signal it is given (ky's timeout, the caller's Ctrl-C)
 *     through a WeakRef, an abort listener and a FinalizationRegistry entry, and each clone adds
 *     more: in a batch, half of ky's CPU time per request, and an old generation held up until a
 *     full collection.
 *
 * payorder's requests carry no body through ky (a transport sends it beside the request), and a
 * transport reads each answer whole before ky sees it: classes that hold an address, a method,
 * headers, a signal and a text are all ky needs. ky finds them where it looks for Node's, through
 * `kyGlobal`; the real globalThis keeps Node's.
 */

import { parsedUrl } from '../contract/urls.js';

type HeadersInit = KyHeaders | Record<string, string> | Iterable<readonly [string, string]>;

/** Header names are compared in lower case; values lose the spaces around them; iterated by name. */
export class KyHeaders {
  readonly #values = new Map<string, string>();

  constructor(init?: HeadersInit | null) {
    if (init instanceof KyHeaders) for (const [name, value] of init.#values) this.#values.set(name, value);
    else if (init && Symbol.iterator in init) for (const [name, value] of init) this.append(name, value);
    else if (init) for (const [name, value] of Object.entries(init)) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const had = this.#values.get(key);
    this.#values.set(key, had === undefined ? trimmed(value) : `${had}, ${trimmed(value)}`);
  }

  set(name: string, value: string): void {
    this.#values.set(name.toLowerCase(), trimmed(value));
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }

  *entries(): IterableIterator<[string, string]> {
    yield* [...this.#values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}

/** HTTP's whitespace: tab, line feed, carriage return, space. */
const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

const trimmed = (value: unknown) => {
  const text = String(value);
  // Most values have nothing to trim: they are taken as they are (so is '', whose ends are NaN).
  if (!isSpace(text.charCodeAt(0)) && !isSpace(text.charCodeAt(text.length - 1))) return text;
  return text.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
};

interface RequestInit {
  method?: string;
  headers?: HeadersInit;
  signal?: AbortSignal | null;
  body?: unknown;
}

const STANDARD_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/** A request without a body; its clone shares its signal (one that never aborts when not given). */
export class KyRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: KyHeaders;
  readonly signal: AbortSignal;
  readonly body = null;
  readonly bodyUsed = false;

  constructor(input: string | URL | KyRequest, init: RequestInit = {}) {
    // A body goes beside the request, to the transport. These are the words ky looks for: as it loads,
    // it tries a Request with a streamed body, and takes them to mean that a Request cannot stream one.
    if (init.body != null) throw new TypeError('unsupported BodyInit type');
    const from = input instanceof KyRequest ? input : undefined;
    if (from) this.url = from.url;
    else {
      const url = typeof input === 'string' ? parsedUrl(input) : new URL(input as URL);
      if (url.username || url.password) throw new TypeError('an address with a user name or password');
      this.url = url.href;
    }
    const method = init.method ?? from?.method ?? 'GET';
    this.method = STANDARD_METHODS.has(method.toUpperCase()) ? method.toUpperCase() : method;
    this.headers = new KyHeaders(init.headers ?? from?.headers);
    this.signal = init.signal ?? from?.signal ?? new AbortController().signal;
  }

  clone(): KyRequest {
    return new KyRequest(this);
  }

  get [Symbol.toStringTag](): string {
    return 'Request';
  }
}

interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

/** An answer read whole: its text can be read any number of times (`textOf` without waiting). */
export class KyResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: KyHeaders;
  readonly type = 'default';
  readonly url = '';
  readonly redirected = false;
  readonly body = null;
  readonly bodyUsed = false;
  readonly #text: string;

  constructor(text: string | null, init: ResponseInit = {}) {
    this.#text = text ?? '';
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.headers = new KyHeaders(init.headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  text(): Promise<string> {
    return Promise.resolve(this.#text);
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#text);
  }

  clone(): KyResponse {
    return new KyResponse(this.#text, this);
  }

  /** The whole text of an answer, at once. */
  static textOf(response: KyResponse): string {
    return response.#text;
  }

  get [Symbol.toStringTag](): string {
    return 'Response';
  }
}

/**
 * globalThis as ky sees it: payorder's three classes in place of Node's, and no FormData (undici's
 * too: ky looks for it as it loads; payorder sends no forms). The build gives ky's modules this
 * object as their globalThis (.ci/ky-classes.mjs); everything else is the real globalThis's.
 */
export const kyGlobal: typeof globalThis = Object.create(globalThis, {
  Headers: { value: KyHeaders },
  Request: { value: KyRequest },
  Response: { value: KyResponse },
  FormData: { value: undefined },
});

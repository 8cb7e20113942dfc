/**
 * The sandbox's router: a route is a method and a path, plain ("/v2/api/checkout") or with
 * parameters ("/pay/:uuid/pay"), and its handler answers with an Answer that the server writes.
 * About twenty routes and no middleware, so a map for the plain paths and a short list of patterns
 * for the rest are all it takes.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/** A request as a handler sees it. */
export interface Request {
  method: string;
  /** The path and query as received, for the journal and the request log. */
  url: string;
  /** The path parameters, URL-decoded. */
  params: Record<string, string>;
  /** The query string without its "?" ('' when there is none). */
  query: string;
  headers: IncomingHttpHeaders;
  /** The body as text; undefined on GET and HEAD or when none was sent. */
  body: string | undefined;
  socket: Socket;
}

/**
 * An answer to write: `body` as JSON, or as text of `type` when one is given; no body at all when
 * `body` is undefined.
 */
export interface Answer {
  status: number;
  body?: unknown;
  type?: string;
  headers?: Record<string, string>;
}

/** What a handler returns when the exchange must get no answer at all (the hang and reset faults). */
export const NO_ANSWER = Symbol('no answer');

export type Handler = (request: Request) => Answer | typeof NO_ANSWER | Promise<Answer | typeof NO_ANSWER>;

export const json = (body: unknown, status = 200): Answer => ({ status, body });
export const html = (body: string, status = 200): Answer => ({ status, body, type: 'text/html' });
/** Each byte of a run of characters as %XX (UTF-8). */
const percentEncoded = (run: string) =>
  [...Buffer.from(run, 'utf8')]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');

/**
 * `target` as a header value can carry it: an address as the URL standard writes it (non-ASCII
 * percent-encoded, tabs and line breaks dropped), and anything else with every character outside
 * printable ASCII percent-encoded. A merchant's callback address is any text; a header is not.
 */
export function locationHeader(target: string): string {
  let written = target;
  try {
    written = new URL(target).href;
  } catch {
    // Not an absolute address: encoded as it is.
  }
  return written.replace(/[^\x21-\x7e]+/g, percentEncoded);
}

export const redirect = (location: string, status = 303): Answer => ({
  status,
  headers: { location: locationHeader(location) },
});

interface Pattern {
  method: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

/** A path parameter of the route (`:name` in its path); a handler asks only for the names its path has. */
export function pathParam(params: Record<string, string>, name: string): string {
  const value = params[name];
  if (value === undefined) throw new Error(`the route has no :${name} in its path`);
  return value;
}

export interface Match {
  handler: Handler;
  params: Record<string, string>;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class Router {
  /** Plain paths by method, then path. */
  readonly #plain = new Map<string, Map<string, Handler>>();
  readonly #patterns: Pattern[] = [];

  add(method: string, path: string, handler: Handler): void {
    const names: string[] = [];
    const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    if (names.length === 0) {
      const paths = this.#plain.get(method) ?? new Map<string, Handler>();
      this.#plain.set(method, paths.set(path, handler));
    } else this.#patterns.push({ method, regex: new RegExp(`^${source}$`), names, handler });
  }

  get(path: string, handler: Handler): void {
    this.add('GET', path, handler);
  }

  post(path: string, handler: Handler): void {
    this.add('POST', path, handler);
  }

  delete(path: string, handler: Handler): void {
    this.add('DELETE', path, handler);
  }

  /**
   * The route for a method and path (without the query), or undefined. HEAD is served by the GET
   * route. Throws URIError when a parameter is not valid percent-encoding.
   */
  find(method: string, path: string): Match | undefined {
    const found = this.#find(method, path);
    return found || method !== 'HEAD' ? found : this.#find('GET', path);
  }

  #find(method: string, path: string): Match | undefined {
    const plain = this.#plain.get(method)?.get(path);
    if (plain) return { handler: plain, params: NO_PARAMS };
    for (const pattern of this.#patterns) {
      if (pattern.method !== method) continue;
      const match = pattern.regex.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      pattern.names.forEach((name, index) => {
        // Every parameter's group takes part in a match: `([^/]+)`.
        const value = match[index + 1] ?? '';
        params[name] = value.includes('%') ? decodeURIComponent(value) : value;
      });
      return { handler: pattern.handler, params };
    }
    return undefined;
  }
}

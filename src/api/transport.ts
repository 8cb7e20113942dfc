/**
 * How payorder's requests travel once ky has them (ky's `fetch` option). ky hands each attempt to a
 * transport with the headers and the body as they go on the wire beside it: ky's own Request carries
 * neither, so ky never streams a body nor clones one for a retry. A transport reads the whole answer
 * before it resolves (so ky's timeout covers the body too) and hands it back through `answered`.
 * One-shot commands send with the built-in fetch; batches and bulk lookups with keep-alive.ts.
 */

export interface Transport {
  fetch(request: Request, init: { wire: WireBody }): Promise<Response>;
}

/** What a transport sends besides ky's Request: the headers, and the body as JSON text. */
export interface WireBody {
  headers: Record<string, string>;
  body?: string;
}

const texts = new WeakMap<Response, string>();

/** A Response for ky with the answer's text kept beside it: read once by the transport, never again. */
export function answered(status: number, statusText: string, headers: Headers, text: string): Response {
  const response = new Response(null, { status, statusText, headers });
  texts.set(response, text);
  return response;
}

/** The text of an answer a transport made with `answered`. */
export const textOf = (response: Response): string | undefined => texts.get(response);

/** The built-in fetch, with its global agent: what one-shot commands send with (it costs no start-up of its own). */
export const fetchTransport: Transport = {
  async fetch(request, { wire }) {
    const response = await fetch(request.url, {
      method: request.method,
      headers: wire.headers,
      body: wire.body,
      signal: request.signal,
    });
    return answered(response.status, response.statusText, response.headers, await response.text());
  },
};

/**
 * The node:http side of the sandbox: finds the route, reads the body as text (at most 64 KiB; the
 * routes parse it themselves, so a malformed body gets the spec's error shape), runs the handler,
 * writes its answer, and tells the request log. Unknown routes, oversized bodies and handler
 * failures get JSON bodies of one shape: statusCode, error, message (and a Node error's code).
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Answer, type Match, NO_ANSWER, type Router } from './router.js';

/**
 * The largest request body read; a larger one is refused with 413. The service's bodies are a few
 * hundred bytes; the sandbox keeps bodies in its journal and orders, so each must stay small.
 */
export const BODY_LIMIT = 65_536;

/** One line of the request log: an answered request. */
export interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The sandbox's own error bodies: statusCode, error (the status's name) and message, the shape
 * clients of the sandbox already parse; a Node error keeps its code.
 */
const answers = {
  notFound: (method: string, url: string): Answer => ({
    status: 404,
    body: { message: `Route ${method}:${url} not found`, error: 'Not Found', statusCode: 404 },
  }),
  badUrl: (url: string): Answer => ({
    status: 400,
    body: { error: 'Bad Request', message: `'${url}' is not a valid url component`, statusCode: 400 },
  }),
  forbidden: (reason: string): Answer => ({
    status: 403,
    body: { statusCode: 403, error: 'Forbidden', message: reason },
  }),
  tooLarge: (): Answer => ({
    status: 413,
    body: { statusCode: 413, error: 'Payload Too Large', message: 'Request body is too large' },
  }),
  failed: (error: unknown): Answer => {
    const { code, message } = error as NodeJS.ErrnoException;
    return {
      status: 500,
      body: {
        statusCode: 500,
        ...(typeof code === 'string' ? { code } : {}),
        error: 'Internal Server Error',
        message,
      },
    };
  },
};

/** Writes an answer; one that cannot be written (a header node:http refuses) becomes a 500. */
function write(response: ServerResponse, answer: Answer, close = false): void {
  if (response.destroyed) return;
  const { status, body, type } = answer;
  let text: string;
  try {
    text = body === undefined ? '' : type ? String(body) : JSON.stringify(body);
    const headers: Record<string, string | number> = {};
    if (body !== undefined) headers['content-type'] = type ?? JSON_TYPE;
    headers['content-length'] = Buffer.byteLength(text);
    if (answer.headers) Object.assign(headers, answer.headers);
    if (close) headers.connection = 'close';
    response.writeHead(status, headers);
  } catch (error) {
    if (status === 500 || response.headersSent) response.socket?.destroy();
    else write(response, answers.failed(error), close);
    return;
  }
  response.end(text);
}

function run(
  match: Match,
  { method, url }: { method: string; url: string },
  request: IncomingMessage,
  response: ServerResponse,
  body: string | undefined,
) {
  const mark = url.indexOf('?');
  let answer: ReturnType<Match['handler']>;
  try {
    answer = match.handler({
      method,
      url,
      params: match.params,
      query: mark < 0 ? '' : url.slice(mark + 1),
      headers: request.headers,
      body,
      socket: request.socket,
    });
  } catch (error) {
    write(response, answers.failed(error));
    return;
  }
  if (answer instanceof Promise) {
    answer.then(
      (settled) => settled !== NO_ANSWER && write(response, settled),
      (error: unknown) => write(response, answers.failed(error)),
    );
  } else if (answer !== NO_ANSWER) write(response, answer);
}

/** Why a request is refused before it is routed (request-guard.ts), or undefined. */
export type Guard = (method: string, headers: IncomingMessage['headers']) => string | undefined;

/**
 * The server's request listener for `router`: requests `guard` refuses get a 403, the rest are
 * routed; `log` hears of every answered request.
 */
export function createListener(router: Router, guard: Guard, log?: (line: RequestLine) => void) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    // Both are set on every request a server receives; only a client's own message has neither.
    const { method = '', url = '' } = request;
    if (log) {
      const started = performance.now();
      response.once('finish', () =>
        log({
          method,
          path: url,
          status: response.statusCode,
          ms: performance.now() - started,
        }),
      );
    }
    const refused = guard(method, request.headers);
    if (refused !== undefined) {
      // The body, if any, is not read: the connection cannot be reused.
      write(response, answers.forbidden(refused), true);
      return;
    }
    const mark = url.indexOf('?');
    let match: Match | undefined;
    try {
      match = router.find(method, mark < 0 ? url : url.slice(0, mark));
    } catch {
      write(response, answers.badUrl(url));
      return;
    }
    if (!match) {
      write(response, answers.notFound(method, url));
      return;
    }
    if (method === 'GET' || method === 'HEAD') {
      run(match, { method, url }, request, response, undefined);
      return;
    }
    const tooLarge = () => write(response, answers.tooLarge(), true);
    if (Number(request.headers['content-length']) > BODY_LIMIT) {
      tooLarge();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      if (size > BODY_LIMIT) return;
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
      else {
        chunks.length = 0;
        tooLarge();
      }
    });
    request.on('end', () => {
      if (size > BODY_LIMIT) return;
      const [only, ...more] = chunks;
      const body =
        only === undefined ? undefined : (more.length === 0 ? only : Buffer.concat(chunks)).toString('utf8');
      run(match, { method, url }, request, response, body);
    });
  };
}

/** Whether the request node:http could not parse began as a HEAD request. */
function isHead(error: NodeJS.ErrnoException): boolean {
  const { rawPacket } = error as { rawPacket?: unknown };
  return Buffer.isBuffer(rawPacket) && rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
}

/**
 * The answer to a request that is not HTTP (node:http's 'clientError'): a JSON 400, 408 or 431 of
 * the same shape, then the connection is closed. An answer to HEAD has no body: a client reads none, and would
 * take one for the start of another answer.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Client Timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Exceeded maximum allowed HTTP header size']
        : [400, 'Client Error'];
  // node:http knows the reason phrase of all three.
  const reason = STATUS_CODES[status] ?? message;
  const body = JSON.stringify({ error: reason, message, statusCode: status });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${isHead(error) ? '' : body}`,
    );
  socket.destroy(error);
}

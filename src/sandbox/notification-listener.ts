/**
 * The receiving end of `payorder sandbox listen`: a small HTTP server on this machine that takes the
 * sandbox's status notifications (notifier.ts: a POST of the order as JSON), hands each to the
 * command to print, and forwards it unchanged to the merchant's handler. The sandbox hears the
 * handler's status back, so its retries happen exactly as they would against the handler itself.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** Larger notifications are answered 413 and not forwarded: the sandbox's are a few hundred bytes. */
const MAX_BODY = 1_048_576;

/** The sandbox gives up on a notification after 5 s (notifier.ts); the handler gets a little less. */
const FORWARD_TIMEOUT_MS = 4_000;

/** Headers passed on to the handler as they came; the rest (host, length, connection) are the hop's own. */
const FORWARDED_HEADERS = ['content-type', 'user-agent'];

export interface Forwarding {
  url: string;
  /** The handler's status, or null when it could not be reached (then `error` says why). */
  status: number | null;
  error: string | null;
  ms: number;
}

/** One notification as it arrived, and what became of forwarding it. */
export interface ReceivedNotification {
  received_at: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The body as JSON when it is JSON, else as text. */
  body: unknown;
  forwarded: Forwarding | null;
}

export interface ListenerOptions {
  port: number;
  host: string;
  forwardTo?: string;
  now: () => Date;
  onNotification: (notification: ReceivedNotification) => void;
}

export interface Listener {
  url: string;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => resolve(size <= MAX_BODY ? Buffer.concat(chunks) : undefined));
    request.on('error', reject);
  });
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function forward(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<Forwarding> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { url, status: response.status, error: null, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const reason =
      (error as Error).name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : cause;
    return {
      url,
      status: null,
      error: reason ?? (error as Error).message,
      ms: Math.round(performance.now() - started),
    };
  }
}

/** Starts the receiver; `port: 0` picks a free port. */
export async function startListener(options: ListenerOptions): Promise<Listener> {
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    if (body === undefined) {
      response.writeHead(413).end();
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const method = request.method ?? 'POST';
    const forwarded = options.forwardTo ? await forward(options.forwardTo, method, headers, body) : null;
    options.onNotification({
      received_at: options.now().toISOString(),
      method,
      path: request.url ?? '/',
      headers,
      body: parsed(body.toString('utf8')),
      forwarded,
    });
    // The sandbox hears what the handler said, so it retries when the handler fails.
    const status = forwarded === null ? 200 : (forwarded.status ?? 502);
    response.writeHead(status >= 200 && status < 600 ? status : 502).end();
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

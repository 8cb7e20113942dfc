/**
 * Servers of a test's own on 127.0.0.1, for what the sandbox cannot do (echo a token, answer with
 * escape sequences, keep every header), and ports where nothing listens.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { onTestFinished } from 'vitest';

/** A token that is not JWT-shaped: only its known value can mask it. */
export const OPAQUE_TOKEN = 'opaque-token-1234567890';

/** A token service's 200 answer issuing OPAQUE_TOKEN, in the spec's field names as a server sends them. */
export const OPAQUE_TOKEN_ANSWER = { access_token: OPAQUE_TOKEN, expires_in: 3600, token_type: 'Bearer' };

/**
 * An HTTP server on a free port that answers with `handler`, closed when the test ends; its address.
 * `prepare` sees the server before it listens (its settings, its other events).
 */
export async function serveHttp(
  handler: RequestListener,
  prepare?: (server: Server) => void,
): Promise<string> {
  const server = createServer(handler);
  prepare?.(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        // A request the handler never answers (a hang) must not keep the server open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A port on 127.0.0.1 where nothing listens: one the system just handed out, closed again. Free for
 * a server to bind; a connection to it is refused.
 */
export async function unusedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

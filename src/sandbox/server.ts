/**
 * `payorder sandbox` as a function: one node:http server that emulates the whole service (both
 * versions, auth and checkout) on one port, plus the payment page and the /_sandbox control API.
 * Tests start it in-process on port 0 and stop it; the CLI command wraps it.
 */
import { createServer, type Server } from 'node:http';
import type { Credentials } from '../contract/token.js';
import { TEST_ACCOUNT } from './accounts.js';
import { SandboxClock } from './clock.js';
import { registerControlRoutes } from './control-routes.js';
import type { SandboxCore } from './core.js';
import { ForcedQueue } from './faults.js';
import { answerClientError, createListener, type RequestLine } from './http-listener.js';
import { Journal } from './journal.js';
import { Notifier } from './notifier.js';
import { OrderBook } from './orders.js';
import { normalName, requestGuard } from './request-guard.js';
import { Router } from './router.js';
import { registerServiceRoutes } from './service-routes.js';
import { TokenIssuer } from './tokens.js';

const DEFAULT_HOST = '127.0.0.1';

export interface SandboxOptions {
  port?: number;
  host?: string;
  accounts?: Credentials[];
  tokenTtlSeconds?: number;
  /** Delay added to every service answer. */
  latencyMs?: number;
  /** Probability (0–1) that a service request fails with the endpoint's server error. */
  failRate?: number;
  stateFile?: string;
  journalLimit?: number;
  /** How many bytes of order text the sandbox holds (default ORDER_TEXT_LIMIT); more orders get 507. */
  orderTextLimit?: number;
  notifyAttempts?: number;
  notifyBackoffMs?: number;
  /** Host names the sandbox answers to besides the loopback ones and `host` (e.g. a CI service's). */
  allowHosts?: string[];
  /** Host names besides the loopback ones that notification listeners may be on. */
  allowListenerHosts?: string[];
  /** The address the sandbox is reached at, for payment links, when it is not the one it listens on. */
  publicUrl?: string;
  /** Called once per answered request, for the CLI's request log. */
  onRequest?: (line: RequestLine) => void;
}

export interface Sandbox {
  url: string;
  port: number;
  host: string;
  core: SandboxCore;
  close(): Promise<void>;
}

export function createCore(options: SandboxOptions): SandboxCore {
  const core: SandboxCore = {
    accounts: options.accounts?.length ? options.accounts : [TEST_ACCOUNT],
    tokenTtlSeconds: options.tokenTtlSeconds ?? 86_400,
    latencyMs: options.latencyMs ?? 0,
    failRate: options.failRate ?? 0,
    orders: new OrderBook(options.stateFile, options.orderTextLimit),
    journal: new Journal(options.journalLimit ?? 2_000),
    forced: new ForcedQueue(),
    tokens: undefined as unknown as TokenIssuer,
    notifier: new Notifier({
      attempts: options.notifyAttempts ?? 5,
      backoffMs: options.notifyBackoffMs ?? 200,
      now: () => core.now(),
    }),
    listeners: new Map(),
    listenerHosts: new Set((options.allowListenerHosts ?? []).map(normalName)),
    publicUrl: options.publicUrl?.replace(/\/+$/, '') ?? '',
    clock: new SandboxClock(),
    now: () => core.clock.now(),
  };
  core.tokens = new TokenIssuer(() => core.now());
  return core;
}

/** The sandbox's HTTP server, not yet listening. */
export function buildServer(core: SandboxCore, options: SandboxOptions = {}): Server {
  const router = new Router();
  registerServiceRoutes(router, core);
  registerControlRoutes(router, core);
  const guard = requestGuard({
    bound: options.host ?? DEFAULT_HOST,
    allowed: options.allowHosts ?? [],
    publicUrl: options.publicUrl,
  });
  const server = createServer(createListener(router, guard, options.onRequest));
  server.on('clientError', answerClientError);
  // A hung request (the hang fault) waits until the client gives up, and keep-alive connections
  // outlive a client's pause between batches.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 72_000;
  return server;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops listening and cuts every connection, hung ones included. */
function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

/**
 * Where payment links point when no public address is given: the address listened on, or the
 * loopback one when that is every address (a browser cannot go to 0.0.0.0).
 */
function linkBase(host: string, port: number, url: string): string {
  if (host === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return url;
}

/** Starts a sandbox; `port: 0` picks a free port. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const core = createCore(options);
  const server = buildServer(core, options);
  const host = options.host ?? DEFAULT_HOST;
  await listen(server, options.port ?? 4010, host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 4010);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  core.publicUrl ||= linkBase(host, port, url);
  return {
    url,
    port,
    host,
    core,
    async close() {
      await close(server);
      await core.notifier.settle();
      core.orders.close();
    },
  };
}

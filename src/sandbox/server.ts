/**
 * `payorder sandbox` as a function: one Fastify server that emulates the whole service (both
 * versions, auth and checkout) on one port, plus the payment page and the /_sandbox control API.
 * Tests start it in-process on port 0 and stop it; the CLI command wraps it.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Credentials } from '../contract/token.js';
import { TEST_ACCOUNT } from './accounts.js';
import { SandboxClock } from './clock.js';
import { registerControlRoutes } from './control-routes.js';
import type { SandboxCore } from './core.js';
import { ForcedQueue } from './faults.js';
import { Journal } from './journal.js';
import { Notifier } from './notifier.js';
import { OrderBook } from './orders.js';
import { registerServiceRoutes } from './service-routes.js';
import { TokenIssuer } from './tokens.js';

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
  notifyAttempts?: number;
  notifyBackoffMs?: number;
  /** Called once per answered request, for the CLI's request log. */
  onRequest?: (line: { method: string; path: string; status: number; ms: number }) => void;
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
    orders: new OrderBook(options.stateFile),
    journal: new Journal(options.journalLimit ?? 2_000),
    forced: new ForcedQueue(),
    tokens: undefined as unknown as TokenIssuer,
    notifier: new Notifier({
      attempts: options.notifyAttempts ?? 5,
      backoffMs: options.notifyBackoffMs ?? 200,
      now: () => core.now(),
    }),
    clock: new SandboxClock(),
    now: () => core.clock.now(),
  };
  core.tokens = new TokenIssuer(() => core.now());
  return core;
}

export function buildApp(core: SandboxCore, options: SandboxOptions = {}): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 1_048_576 });
  // Bodies are parsed by the routes themselves, so a malformed body gets the spec's error shape.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  if (options.onRequest) {
    const log = options.onRequest;
    app.addHook('onResponse', async (request, reply) => {
      log({ method: request.method, path: request.url, status: reply.statusCode, ms: reply.elapsedTime });
    });
  }
  registerServiceRoutes(app, core);
  registerControlRoutes(app, core);
  return app;
}

/** Starts a sandbox; `port: 0` picks a free port. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const core = createCore(options);
  const app = buildApp(core, options);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 4010, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 4010);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    core,
    async close() {
      await app.close();
      await core.notifier.settle();
      core.orders.close();
    },
  };
}

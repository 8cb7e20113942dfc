/**
 * The control API under /_sandbox/: the journal, orders and their status, the clock, forced errors
 * and faults, and reset. It exists only in the sandbox; nothing here is part of the service.
 */
import type { FastifyInstance } from 'fastify';
import { ORDER_STATES } from '../contract/fields.js';
import { orderResponseBody } from '../contract/schemas.js';
import type { SandboxCore } from './core.js';
import { readForced } from './faults.js';
import { ORDER_NOT_FOUND } from './orders.js';
import { changeStatus } from './status-change.js';

export const CONTROL_PREFIX = '/_sandbox';

const STATUS = /^[A-Z][A-Z_]{1,31}$/;

function objectBody(raw: unknown): Record<string, unknown> | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function registerControlRoutes(app: FastifyInstance, core: SandboxCore): void {
  const badRequest = (message: string) => ({ error: message });

  app.get(CONTROL_PREFIX, async () => ({
    // Never the secrets: anything on the machine can read this, and the journal masks them too.
    accounts: core.accounts.map((a) => ({ username: a.username, client_id: a.clientId })),
    token_ttl: core.tokenTtlSeconds,
    now: core.now().toISOString(),
    orders: core.orders.size,
    memory: {
      rss_mb: Math.round(process.memoryUsage.rss() / 1_048_576),
      heap_used_mb: Math.round(process.memoryUsage().heapUsed / 1_048_576),
      heap_total_mb: Math.round(process.memoryUsage().heapTotal / 1_048_576),
    },
  }));

  app.get(`${CONTROL_PREFIX}/journal`, async (request) => {
    const query = request.query as { route?: string; version?: string };
    return { entries: core.journal.list(query) };
  });
  app.delete(`${CONTROL_PREFIX}/journal`, async () => {
    core.journal.clear();
    return { cleared: true };
  });

  app.get(`${CONTROL_PREFIX}/orders`, async () => ({
    orders: core.orders.list().map((order) => ({
      ...orderResponseBody(order),
      version: order.version,
      owner: order.owner,
      description: order.description,
    })),
  }));

  app.post(`${CONTROL_PREFIX}/orders/:uuid/status`, async (request, reply) => {
    const order = core.orders.find((request.params as { uuid: string }).uuid);
    if (!order) return reply.code(ORDER_NOT_FOUND.status).send(ORDER_NOT_FOUND.body);
    const status = objectBody(request.body)?.status;
    if (typeof status !== 'string' || !STATUS.test(status)) {
      return reply.code(400).send(badRequest('status must be an upper-case state name, e.g. PAID'));
    }
    if (status === ORDER_STATES.refunded && order.version !== 'v2') {
      return reply.code(409).send(badRequest('REFUNDED exists only in v2; this order was created on v1'));
    }
    changeStatus(core, order, status);
    return orderResponseBody(order);
  });

  app.get(`${CONTROL_PREFIX}/clock`, async () => ({
    now: core.now().toISOString(),
    offset_seconds: core.clock.offsetSeconds,
  }));
  app.post(`${CONTROL_PREFIX}/clock`, async (request, reply) => {
    const body = objectBody(request.body) ?? {};
    const moved =
      typeof body.advance === 'number'
        ? core.clock.advance(body.advance)
        : typeof body.now === 'string' && core.clock.set(body.now);
    if (!moved)
      return reply
        .code(400)
        .send(
          badRequest(
            'give {"advance": SECONDS} or {"now": "ISO-8601 time"}, within the range of dates (±275,000 years)',
          ),
        );
    return { now: core.now().toISOString(), offset_seconds: core.clock.offsetSeconds };
  });

  app.get(`${CONTROL_PREFIX}/force`, async () => ({ forced: core.forced.list() }));
  app.post(`${CONTROL_PREFIX}/force`, async (request, reply) => {
    const forced = readForced(objectBody(request.body));
    if (typeof forced === 'string') return reply.code(400).send(badRequest(forced));
    core.forced.add(forced);
    return { forced: core.forced.list() };
  });
  app.delete(`${CONTROL_PREFIX}/force`, async () => {
    core.forced.clear();
    return { forced: [] };
  });

  app.get(`${CONTROL_PREFIX}/notifications`, async () => ({ attempts: core.notifier.attempts }));

  app.post(`${CONTROL_PREFIX}/reset`, async () => {
    core.orders.clear();
    core.journal.clear();
    core.forced.clear();
    core.notifier.attempts.length = 0;
    core.clock.reset();
    return { reset: true };
  });
}

/**
 * The control API under /_sandbox/: the journal, orders and their status, the clock, forced errors
 * and faults, notification listeners, the OpenAPI document, and reset. It exists only in the
 * sandbox; nothing here is part of the service.
 */
import { randomUUID } from 'node:crypto';
import { ORDER_STATES } from '../contract/fields.js';
import { orderResponseBody } from '../contract/schemas.js';
import type { SandboxCore } from './core.js';
import { readForced } from './faults.js';
import { ORDER_NOT_FOUND, type SandboxOrder } from './orders.js';
import { isLoopbackName } from './request-guard.js';
import { json, pathParam, type Router } from './router.js';
import { changeStatus, STATE_NAME } from './status-change.js';

export const CONTROL_PREFIX = '/_sandbox';

function objectBody(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined || raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** An order as the control API shows it: its version's body, plus what only the sandbox knows. */
function controlView(order: SandboxOrder) {
  return {
    ...orderResponseBody(order),
    version: order.version,
    owner: order.owner,
    description: order.description,
    created_at: new Date(order.createdAt).toISOString(),
  };
}

/** An absolute http(s) address, or undefined. */
function httpAddress(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

const badRequest = (message: string, status = 400) => json({ error: message }, status);

export function registerControlRoutes(router: Router, core: SandboxCore): void {
  router.get(CONTROL_PREFIX, () =>
    json({
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
    }),
  );

  router.get(`${CONTROL_PREFIX}/journal`, ({ query }) => {
    const search = new URLSearchParams(query);
    const filter = { route: search.get('route') ?? undefined, version: search.get('version') ?? undefined };
    return json({ entries: core.journal.list(filter) });
  });
  router.delete(`${CONTROL_PREFIX}/journal`, () => {
    core.journal.clear();
    return json({ cleared: true });
  });
  orderRoutes(router, core);
  listenerRoutes(router, core);

  router.get(`${CONTROL_PREFIX}/openapi.json`, async () => {
    const { openApiDocument } = await import('./openapi.js');
    return json(openApiDocument(core.publicUrl));
  });
  clockAndFaultRoutes(router, core);

  router.get(`${CONTROL_PREFIX}/notifications`, () => json({ attempts: core.notifier.attempts }));

  router.post(`${CONTROL_PREFIX}/reset`, () => {
    core.orders.clear();
    core.journal.clear();
    core.forced.clear();
    core.notifier.attempts.length = 0;
    core.clock.reset();
    return json({ reset: true });
  });
}

/** The sandbox's orders, and their status set by hand (what the payment page's buttons do). */
function orderRoutes(router: Router, core: SandboxCore): void {
  router.get(`${CONTROL_PREFIX}/orders`, () =>
    json({
      orders: core.orders.list().map(controlView),
    }),
  );

  router.post(`${CONTROL_PREFIX}/orders/:uuid/status`, ({ params, body }) => {
    const order = core.orders.find(pathParam(params, 'uuid'));
    if (!order) return json(ORDER_NOT_FOUND.body, ORDER_NOT_FOUND.status);
    const { status, from } = objectBody(body) ?? {};
    if (typeof status !== 'string' || !STATE_NAME.test(status))
      return badRequest('status must be an upper-case state name, e.g. PAID');
    if (from !== undefined && (typeof from !== 'string' || !STATE_NAME.test(from)))
      return badRequest('from, when given, must be an upper-case state name, e.g. PENDING');
    if (status === ORDER_STATES.refunded && order.version !== 'v2')
      return badRequest('REFUNDED exists only in v2; this order was created on v1', 409);
    // `from` makes the change conditional, as the payment page's buttons are: a paid order cannot fail.
    if (from !== undefined && order.status !== from)
      return json({ error: `the order is ${order.status}, not ${from}`, order: controlView(order) }, 409);
    changeStatus(core, order, status);
    return json(controlView(order));
  });
}

/** Where every status notification also goes (`payorder sandbox listen`): on this machine only, unless allowed. */
function listenerRoutes(router: Router, core: SandboxCore): void {
  router.get(`${CONTROL_PREFIX}/listeners`, () =>
    json({ listeners: [...core.listeners].map(([id, url]) => ({ id, url })) }),
  );
  router.post(`${CONTROL_PREFIX}/listeners`, ({ body }) => {
    const url = httpAddress(objectBody(body)?.url);
    if (!url) return badRequest('give {"url": "http://…"}: where to send every status notification');
    // Else a page that got past the guard, or a shared CI sandbox, could aim notifications anywhere.
    const name = new URL(url).hostname.toLowerCase();
    if (!isLoopbackName(name) && !core.listenerHosts.has(name))
      return badRequest(
        `url: a listener must be on this machine (localhost, 127.0.0.1, [::1]); start the sandbox with --allow-listener-host ${name} for another host`,
        403,
      );
    const id = randomUUID();
    core.listeners.set(id, url);
    return json({ id, url }, 201);
  });
  router.delete(`${CONTROL_PREFIX}/listeners/:id`, ({ params }) =>
    core.listeners.delete(pathParam(params, 'id'))
      ? json({ removed: true })
      : badRequest('no such listener', 404),
  );
}

/** The sandbox's clock, moved by hand, and the answers forced on the next requests. */
function clockAndFaultRoutes(router: Router, core: SandboxCore): void {
  router.get(`${CONTROL_PREFIX}/clock`, () =>
    json({ now: core.now().toISOString(), offset_seconds: core.clock.offsetSeconds }),
  );
  router.post(`${CONTROL_PREFIX}/clock`, ({ body: raw }) => {
    const body = objectBody(raw) ?? {};
    const moved =
      typeof body.advance === 'number'
        ? core.clock.advance(body.advance)
        : typeof body.now === 'string' && core.clock.set(body.now);
    if (!moved)
      return badRequest(
        'give {"advance": SECONDS} or {"now": "ISO-8601 time"}, within the range of dates (±275,000 years)',
      );
    return json({ now: core.now().toISOString(), offset_seconds: core.clock.offsetSeconds });
  });

  router.get(`${CONTROL_PREFIX}/force`, () => json({ forced: core.forced.list() }));
  router.post(`${CONTROL_PREFIX}/force`, ({ body }) => {
    const forced = readForced(objectBody(body));
    if (typeof forced === 'string') return badRequest(forced);
    core.forced.add(forced);
    return json({ forced: core.forced.list() });
  });
  router.delete(`${CONTROL_PREFIX}/force`, () => {
    core.forced.clear();
    return json({ forced: [] });
  });
}

import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USER_AGENT } from '../../../src/api/http.js';
import { orderOutputSchema } from '../../../src/contract/schemas.js';
import { type ApiVersion, PATHS } from '../../../src/contract/versions.js';
import { batchCommand } from '../../helpers/batch.js';
import { BIN, type CliOptions, expectNoLeak, onTerminal, orderFlags, SHOP } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/context.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, journal, routesReached } from '../../helpers/sandbox.js';
import { OPAQUE_TOKEN, OPAQUE_TOKEN_ANSWER, serveHttp } from '../../helpers/servers.js';

const e2e = useE2E({}, { beforeSunset: true });
const ORDER = orderFlags();
const create = (...args: string[]) => e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER, ...args]);
const createWith = (options: CliOptions, ...args: string[]) =>
  e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER, ...args], options);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TSV_HEADER =
  'uuid\tid\tversion\tstatus\tamount\tcurrency\torder_number\tref_number\texternal_reference\tlinks.checkout';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A pass-through in front of the sandbox that keeps every request as it arrived, headers included:
 * the sandbox's journal keeps only the Authorization header.
 */
async function recordingProxy(target: string) {
  const received: Received[] = [];
  const url = await serveHttp(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    received.push({ method: request.method!, path: request.url!, headers: request.headers, body });
    const forwarded: Record<string, string> = {};
    for (const name of ['accept', 'authorization', 'content-type'])
      if (request.headers[name]) forwarded[name] = String(request.headers[name]);
    const answer = await fetch(target + request.url, {
      method: request.method,
      headers: forwarded,
      body: body === '' ? undefined : body,
    });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    response.end(await answer.text());
  });
  return { url, received };
}

/** Headers the HTTP transport (Node's fetch) adds on its own; payorder does not choose them. */
const TRANSPORT_HEADERS = [
  'accept-encoding',
  'accept-language',
  'connection',
  'content-length',
  'host',
  'sec-fetch-mode',
  'user-agent',
];

describe('order create', () => {
  it('v2: sends cents and no userName, prints the documented JSON when piped', async () => {
    await e2e.loginAfresh();
    const result = await create('--amount', '12.50', '--external-reference', 'INV-42');
    expect(result.exitCode, result.stderr).toBe(0);
    const order = orderOutputSchema.parse(JSON.parse(result.stdout));
    expect(order).toMatchObject({
      version: 'v2',
      amount: '12.50',
      amount_cents: '1250',
      status: 'PENDING',
      external_reference: 'INV-42',
      currency: null,
    });
    expect(order.links.checkout).toBe(`${e2e.sb.url}/pay/${order.uuid}`);
    const [sent] = await journal(e2e.sb.url, 'checkout');
    // What reached the service, in the spec's field names typed out (the wire format, checked on its own).
    expect(sent.body).toEqual({
      amount: '1250',
      description: 'Invoice 42',
      callback_success: 'https://shop.example/ok',
      callback_fail: 'https://shop.example/ko',
      external_reference: 'INV-42',
    });
  });

  it('sends a description of any length: payorder has no limit of its own (the spec shows none)', async () => {
    await e2e.loginAfresh();
    const long = 'Boots, size 42. '.repeat(125);
    const result = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      '--amount',
      '1',
      '--description',
      long,
      '--success',
      'https://shop.example/ok',
      '--fail',
      'https://shop.example/ko',
      '--field',
      'status',
    ]);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'PENDING\n' });
    expect((await journal(e2e.sb.url, 'checkout'))[0].body.description).toBe(long);
  });

  it('logged in to the sandbox only, a command without --env goes to stage, and the error says how to make the sandbox the default', async () => {
    await e2e.loginAfresh();
    const result = await e2e.run(['order', 'create', '--amount', '1', ...ORDER]);
    expect(result.exitCode, result.stderr).toBe(4);
    expect(result.stderr).toBe(
      'error: not logged in to stage\n' +
        'hint: you are logged in to sandbox: add --env sandbox, or make it the default: payorder config set default-env sandbox; ' +
        'or run payorder login --env stage, or set PAYORDER_USERNAME, PAYORDER_CLIENT_ID, PAYORDER_CLIENT_SECRET_ID\n',
    );
    expect(await journal(e2e.sb.url)).toEqual([]);
    expect((await e2e.run(['config', 'set', 'default-env', 'sandbox'])).exitCode).toBe(0);
    expect((await e2e.run(['order', 'create', '--amount', '1', ...ORDER, '--field', 'status'])).stdout).toBe(
      'PENDING\n',
    );
  });

  it('v1: sends the decimal and the login userName; same JSON shape', async () => {
    await e2e.loginAfresh();
    const result = await create('--api', 'v1', '--amount', '92233720368547758.07');
    expect(result.exitCode, result.stderr).toBe(0);
    const order = orderOutputSchema.parse(JSON.parse(result.stdout));
    expect(order).toMatchObject({
      version: 'v1',
      amount: '92233720368547758.07',
      amount_cents: '9223372036854775807',
      external_reference: null,
    });
    // The sandbox's documented choice of currency for v1 orders; order and ref numbers are its own.
    expect(order.currency).toBe('840');
    expect(order.order_number).toMatch(/^\d+$/);
    const [stored] = await e2e.orders();
    expect([order.order_number, order.ref_number]).toEqual([stored.orderNumber, stored.refNumber]);
    const [sent] = await journal(e2e.sb.url, 'checkout');
    expect(sent.body).toMatchObject({ amount: '92233720368547758.07', userName: SHOP.username });
    expect(result.stderr).toContain('API v1 is deprecated');
  });

  it.each([
    [['--amount', '12.345'], '--amount: must have at most 2 decimals'],
    [['--amount', '1,000.00'], '--amount: must use a point for decimals and no thousands separators'],
    [['--amount', '0'], '--amount: must be greater than zero'],
    [['--amount', '1e3'], '--amount: must be written out in digits (no exponent)'],
    [['--amount', '5', '--success', 'ftp://x'], '--success: must be an absolute http(s) URL'],
    [
      ['--amount', '5', '--notification-url', 'not-a-url'],
      '--notification-url: must be an absolute http(s) URL',
    ],
    [
      ['--amount', '5', '--api', 'v1', '--external-reference', 'R'],
      '--external-reference: exists only in API v2',
    ],
    [['--amount', '5', '--description', ''], '--description: is required'],
  ])('%j → exit 2, one line naming the field and the rule, nothing sent', async (args, message) => {
    await e2e.loginAfresh();
    const result = await create(...args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n').find((l) => l.startsWith('error:'))).toContain(message);
    expect(result.stdout).toBe('');
    expect(await journal(e2e.sb.url)).toHaveLength(0);
  });

  it.each<ApiVersion>(['v1', 'v2'])(
    '--dry-run on %s shows exactly the request that creating the same order sends, token masked',
    async (version) => {
      await e2e.loginAfresh();
      const proxy = await recordingProxy(e2e.sb.url);
      const env = { PAYORDER_CHECKOUT_URL: proxy.url };
      const dry = await createWith({ env }, '--amount', '7', '--api', version, '--dry-run');
      expect(dry.exitCode, dry.stderr).toBe(0);
      expect(proxy.received).toHaveLength(0);
      expect(await journal(e2e.sb.url)).toHaveLength(0);
      const shown = JSON.parse(dry.stdout);
      expect(shown).toEqual({
        method: 'POST',
        url: proxy.url + PATHS.checkout(version),
        headers: {
          accept: 'application/json',
          'user-agent': USER_AGENT,
          authorization: 'Bearer ***',
          'content-type': 'application/json',
        },
        body: {
          ...(version === 'v1' ? { amount: '7.00', userName: SHOP.username } : { amount: '700' }),
          description: 'Invoice 42',
          callback_success: 'https://shop.example/ok',
          callback_fail: 'https://shop.example/ko',
        },
      });

      const real = await createWith({ env }, '--amount', '7', '--api', version);
      expect(real.exitCode, real.stderr).toBe(0);
      const [reached] = await journal(e2e.sb.url, 'checkout');
      expect({
        method: reached.method,
        url: proxy.url + reached.path,
        authorization: reached.authorization,
        body: reached.body,
      }).toEqual({
        method: shown.method,
        url: shown.url,
        authorization: shown.headers.authorization,
        body: shown.body,
      });
      const [wire] = proxy.received;
      expect(JSON.parse(wire!.body)).toEqual(shown.body);
      // Every header the dry run shows went out with that value (the token itself is masked there)…
      expect(wire!.headers.authorization).toMatch(/^Bearer eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
      const { authorization: _, ...shownHeaders } = shown.headers;
      expect(
        Object.fromEntries(Object.keys(shownHeaders).map((name) => [name, wire!.headers[name]])),
      ).toEqual(shownHeaders);
      // …and nothing went out that it does not show, besides what the transport adds by itself.
      const unshown = Object.keys(wire!.headers).filter((name) => !(name in shown.headers));
      expect(TRANSPORT_HEADERS).toEqual(expect.arrayContaining(unshown));
    },
  );

  it('--dry-run honours -o json and -o ndjson, shows text on a terminal, and refuses -o tsv, --field, --raw', async () => {
    await e2e.loginAfresh();
    const request = {
      method: 'POST',
      url: e2e.sb.url + PATHS.checkout('v2'),
      headers: {
        accept: 'application/json',
        'user-agent': USER_AGENT,
        authorization: 'Bearer ***',
        'content-type': 'application/json',
      },
      body: {
        amount: '700',
        description: 'Invoice 42',
        callback_success: 'https://shop.example/ok',
        callback_fail: 'https://shop.example/ko',
      },
    };
    const json = await create('--amount', '7', '--dry-run', '-o', 'json');
    expect(json.stdout).toBe(`${JSON.stringify(request, null, 2)}\n`);
    const ndjson = await create('--amount', '7', '--dry-run', '-o', 'ndjson');
    expect(ndjson.stdout).toBe(`${JSON.stringify(request)}\n`);

    const args = ['order', 'create', '--env', 'sandbox', ...ORDER, '--amount', '7', '--dry-run'];
    const onScreen = await runInProcess(args, { env: e2e.env(), stdoutIsTTY: true, stderrIsTTY: true });
    expectNoLeak(onScreen);
    expect(onScreen.exitCode, onScreen.stderr).toBe(0);
    expect(onScreen.stdout).toBe(
      [
        `POST ${e2e.sb.url}${PATHS.checkout('v2')}`,
        'accept: application/json',
        `user-agent: ${USER_AGENT}`,
        'authorization: Bearer ***',
        'content-type: application/json',
        '',
        JSON.stringify(request.body, null, 2),
        '',
      ].join('\n'),
    );

    for (const orderOnly of [['-o', 'tsv'], ['--field', 'uuid'], ['--raw']]) {
      const refused = await create('--amount', '7', '--dry-run', ...orderOnly);
      expect(refused.exitCode, orderOnly.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(
        'error: --dry-run shows the request; --field, --raw and -o tsv apply to orders',
      );
    }
    expect(await journal(e2e.sb.url)).toHaveLength(0);
  });

  it('--debug traces the order exchange with the Authorization header masked', async () => {
    await e2e.loginAfresh();
    const result = await create('--amount', '1', '--debug');
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`[debug] → POST ${e2e.sb.url}${PATHS.checkout('v2')}`);
    expect(result.stderr).toContain('[debug] → authorization: Bearer ***');
    expect(result.stderr).toContain('[debug] ← 200');
  });

  it('warns that v2 may ignore notification_url, and sends it', async () => {
    await e2e.loginAfresh();
    const result = await create('--amount', '1', '--notification-url', 'https://shop.example/hook');
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('warning: the spec does not show whether v2 accepts notification_url');
    expect((await journal(e2e.sb.url, 'checkout'))[0].body.notification_url).toBe(
      'https://shop.example/hook',
    );
  });
});

describe('output modes', () => {
  it('--field, -o ndjson, -o tsv (with and without headers), --raw', async () => {
    await e2e.loginAfresh();
    const field = await create('--amount', '1', '--field', 'links.checkout');
    expect(field.stdout).toMatch(new RegExp(`^${e2e.sb.url}/pay/[0-9a-f-]{36}\\n$`));
    const ndjson = await create('--amount', '1', '-o', 'ndjson');
    expect(ndjson.stdout.trim().split('\n')).toHaveLength(1);
    orderOutputSchema.parse(JSON.parse(ndjson.stdout));
    const tsv = await create('--amount', '1', '-o', 'tsv');
    const [header, row] = tsv.stdout.trim().split('\n');
    expect(header).toBe(TSV_HEADER);
    expect(row!.split('\t')[4]).toBe('1.00');
    const bare = await create('--amount', '1', '-o', 'tsv', '--no-headers');
    const [bareRow, ...rest] = bare.stdout.split('\n');
    expect(rest).toEqual(['']);
    expect(bareRow!.split('\t').slice(2, 5)).toEqual(['v2', 'PENDING', '1.00']);
    const raw = await create('--amount', '1', '--raw');
    // v2's own body, verbatim: amount in cents, the link under the name v2 gives it.
    const body = JSON.parse(raw.stdout);
    expect(raw.stdout).toBe(`${JSON.stringify(body)}\n`);
    expect(body).toMatchObject({ amount: '100', links: { checkout_link: `${e2e.sb.url}/pay/${body.uuid}` } });
    expect(body.uuid).toMatch(UUID);
  });

  it('a piped create honours the stored default-output; -o still wins', async () => {
    await e2e.loginAfresh();
    expect((await e2e.run(['config', 'set', 'default-output', 'tsv'])).exitCode).toBe(0);
    const piped = await create('--amount', '3');
    expect(piped.exitCode, piped.stderr).toBe(0);
    const [header, row, ...rest] = piped.stdout.split('\n');
    expect(header).toBe(TSV_HEADER);
    expect(rest).toEqual(['']);
    const [order] = await e2e.orders();
    expect(row!.split('\t')).toEqual([
      order.uuid,
      order.id,
      'v2',
      'PENDING',
      '3.00',
      '',
      '',
      '',
      '',
      `${e2e.sb.url}/pay/${order.uuid}`,
    ]);
    const asked = await create('--amount', '3', '-o', 'json');
    expect(orderOutputSchema.parse(JSON.parse(asked.stdout)).amount).toBe('3.00');
  });

  it('a table for a person on a terminal, the link on its own line, no colors with NO_COLOR', async () => {
    await e2e.loginAfresh();
    const env = e2e.env({ NO_COLOR: '1' });
    const command = `"${process.execPath}" "${BIN}" order create --env sandbox --amount 12.5 ${ORDER.map((a) => `'${a}'`).join(' ')}`;
    const result = await onTerminal(command, env);
    const screen = result.stdout;
    expect(result.exitCode).toBe(0);
    expect(screen).toMatch(/status\s+PENDING/);
    expect(screen).toMatch(/amount\s+12\.50/);
    expect(screen).toMatch(new RegExp(`payment link\\n${e2e.sb.url}/pay/[0-9a-f-]{36}$`, 'm'));
    expect(screen).not.toContain('\u001b[');
  });
});

describe('service errors (spec §7.2)', () => {
  // A refused token (401, or the explicit-deny 403) is renewed once and the order sent once more:
  // the service did not act on it. So that one is forced twice, and reaches the service twice.
  it.each([
    ['1001', 1, 'the service says a mandatory field is missing (1001)', 1],
    ['1003', 1, 'the service refused the amount format (1003)', 1],
    ['1004', 1, 'the service knows no user with the stored username on sandbox (1004)', 1],
    ['1002', 4, 'the stored username does not match the credentials of the token on sandbox (1002)', 1],
    ['unauthorized', 4, 'the service did not accept the access token on sandbox (401 Unauthorized)', 2],
    [
      '999',
      5,
      'outcome unknown: the service failed (999) while creating the order; it may or may not exist',
      1,
    ],
  ])('%s → exit %i with a clear line', async (id, exit, message, times) => {
    await e2e.loginAfresh();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', error: id, times });
    const result = await create('--amount', '1');
    expect(result.exitCode).toBe(exit);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stdout).toBe('');
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(times);
  });

  it('an HTML page from a proxy: status and excerpt, outcome unknown, not retried', async () => {
    await e2e.loginAfresh();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'html' });
    const result = await create('--amount', '1');
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain(
      'outcome unknown: unexpected answer 502 to the order creation (text/html): <html><head><title>502 Bad Gateway',
    );
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
  });

  it.each([
    ['reset', 'outcome unknown: the request reached'],
    ['malformed', 'outcome unknown: the service answered 200 but the body is not an order'],
  ])('%s after the order was made: exit 5, never sent twice', async (fault, message) => {
    await e2e.loginAfresh();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault });
    const result = await create('--amount', '1');
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain(message);
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
    expect(await e2e.orders()).toHaveLength(1);
  });

  it('a hang times out as outcome unknown (PAYORDER_TIMEOUT), sent once', async () => {
    await e2e.loginAfresh();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'hang' });
    const result = await createWith({ env: { PAYORDER_TIMEOUT: '0.3' } }, '--amount', '1');
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('no answer within 0.3 s');
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
  });

  it('429 and 503 are retried honoring Retry-After, then succeed', async () => {
    await e2e.loginAfresh();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', {
      route: 'checkout',
      fault: 'rate-limit',
      retry_after: 1,
    });
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'unavailable' });
    const result = await create('--amount', '1');
    expect(result.exitCode, result.stderr).toBe(0);
    const entries = await journal(e2e.sb.url, 'checkout');
    expect(entries.map((e) => e.status)).toEqual([429, 503, 200]);
    // The wait is measured where it happens, between the sandbox's journal entries: the wall time of
    // the whole command (once including a process start-up) said nothing about it. Retry-After: 1
    // means the retry must not come before a second; the journal keeps milliseconds and a timer may
    // fire a few of them early, hence the margin. A client that ignores Retry-After and uses its
    // own backoff (0.3 s, then 0.6 s) is far below it.
    const [refused, retried] = entries.map((e) => Date.parse(e.time));
    expect(retried! - refused!).toBeGreaterThanOrEqual(990);
    expect(await e2e.orders()).toHaveLength(1);
  });
});

describe('a token the order service refuses (401 Unauthorized)', () => {
  it('is renewed once and the order sent once more: exit 0, one order', async () => {
    await e2e.loginAfresh();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', error: 'unauthorized' });
    const result = await create('--amount', '1', '--json');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(orderOutputSchema.parse(JSON.parse(result.stdout)).amount).toBe('1.00');
    expect(await routesReached(e2e.sb.url)).toEqual(['checkout 401', 'token 200', 'checkout 200']);
    expect(await e2e.orders()).toHaveLength(1);
  });

  it('refused again after the renewal: exit 4 with the hint to log in; never a third attempt', async () => {
    await e2e.loginAfresh();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', error: 'unauthorized', times: 5 });
    const result = await create('--amount', '1');
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: the service did not accept the access token on sandbox (401 Unauthorized)\n' +
        'hint: log in again: payorder login --env sandbox\n',
    );
    expect(await routesReached(e2e.sb.url)).toEqual(['checkout 401', 'token 200', 'checkout 401']);
    expect(await e2e.orders()).toHaveLength(0);
  });
});

/**
 * A token and order service of the test's own: it issues an opaque token, then answers every order
 * request with a 502 text page that echoes the Authorization header and the token.
 */
async function echoingService() {
  const paths: string[] = [];
  const url = await serveHttp(async (request, response) => {
    for await (const _ of request);
    paths.push(`${request.method} ${request.url}`);
    if (request.url === PATHS.token('v2')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(OPAQUE_TOKEN_ANSWER));
      return;
    }
    response.writeHead(502, { 'content-type': 'text/plain' });
    response.end(
      `proxy error: upstream rejected "${request.headers.authorization}"\ntoken=${OPAQUE_TOKEN}\n`,
    );
  });
  return { url, paths, env: { PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url } };
}

describe('a service that echoes the token', () => {
  it.each([[[]], [['--debug']], [['--json']], [['--debug', '--json']]])(
    'a 502 body with the opaque token: stderr never shows it (%j)',
    async (flags) => {
      await e2e.loginAfresh();
      const service = await echoingService();
      const result = await createWith({ env: service.env }, '--amount', '1', ...flags);
      expect(result.exitCode).toBe(5);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain(OPAQUE_TOKEN);
      expect(result.stderr).not.toContain(OPAQUE_TOKEN.slice(0, 12));
      // The error: one line (JSON with --json, after any trace), the echoed token masked in its excerpt.
      const line = result.stderr.split('\n').find((l) => /^(error: |\{"error")/.test(l))!;
      const message = flags.includes('--json') ? JSON.parse(line).error.message : line;
      expect(message).toBe(
        `${flags.includes('--json') ? '' : 'error: '}outcome unknown: unexpected answer 502 to the order creation (text/plain): proxy error: upstream rejected "Bearer ***" token=***`,
      );
      if (flags.includes('--debug')) {
        expect(result.stderr).toContain('[debug] ← 200');
        expect(result.stderr).toContain('"access_token":"***"');
        expect(result.stderr).toContain('[debug] → authorization: Bearer ***');
        expect(result.stderr).toContain('[debug] ← 502');
      }
      // The order went out once, with the token the service issued.
      expect(service.paths).toEqual([`POST ${PATHS.token('v2')}`, `POST ${PATHS.checkout('v2')}`]);
      expect(await journal(e2e.sb.url)).toEqual([]);
    },
  );
});

describe('--field and the output flags', () => {
  it("--field takes the API's names: links.checkout_link on v2, links.checkoutLink and orderNumber on v1", async () => {
    await e2e.loginAfresh();
    const v2 = await create('--amount', '1', '--field', 'links.checkout_link');
    expect(v2.exitCode, v2.stderr).toBe(0);
    const [first] = await e2e.orders();
    expect(v2.stdout).toBe(`${e2e.sb.url}/pay/${first.uuid}\n`);

    const link = await create('--amount', '2', '--api', 'v1', '--field', 'links.checkoutLink');
    expect(link.exitCode, link.stderr).toBe(0);
    const number = await create('--amount', '3', '--api', 'v1', '--field', 'orderNumber');
    expect(number.exitCode, number.stderr).toBe(0);
    const reference = await create('--amount', '4', '--api', 'v1', '--field', 'refNumber');
    const [, second, third, fourth] = await e2e.orders();
    expect(link.stdout).toBe(`${e2e.sb.url}/pay/${second.uuid}\n`);
    expect(number.stdout).toBe(`${third.orderNumber}\n`);
    expect(number.stdout).toMatch(/^\d+\n$/);
    expect(reference.stdout).toBe(`${fourth.refNumber}\n`);
  });

  it.each([
    [['--field', 'staus'], '--field: no field "staus" in an order; did you mean status?'],
    [
      ['--field', 'links.checkout_lnk'],
      '--field: no field "links.checkout_lnk" in an order; did you mean links.checkout?',
    ],
    [['--field', 'orderNumbr'], '--field: no field "orderNumbr" in an order; did you mean order_number?'],
    [['--raw', '--field', 'links'], '--raw prints one value, and --field links is an object'],
  ])('%j → exit 2, nothing sent', async (flags, message) => {
    await e2e.loginAfresh();
    const result = await create('--amount', '1', ...flags);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toContain(`error: ${message}`);
    expect(await journal(e2e.sb.url)).toEqual([]);
  });

  it.each(['table', 'tsv', 'ndjson'])(
    '--json -o %s → exit 2 (as a JSON error), nothing sent',
    async (format) => {
      await e2e.loginAfresh();
      const result = await create('--amount', '1', '--json', '-o', format);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(JSON.parse(result.stderr).error).toMatchObject({
        kind: 'usage',
        message: `--json and -o ${format} ask for two formats; give one`,
        field: '--output',
      });
      expect(await journal(e2e.sb.url)).toEqual([]);
    },
  );

  it('--field staus lists the fields in its hint', async () => {
    await e2e.loginAfresh();
    const result = await create('--amount', '1', '--field', 'staus');
    expect(result.stderr).toContain('hint: the fields are version, id, uuid, type, status, amount,');
  });
});

describe('callback links are sent exactly as given, or refused', () => {
  it.each([
    ['--success', ' https://x/ok', 'must be a URL without spaces or control characters, got " https://x/ok"'],
    [
      '--success',
      'https://x/o\nk',
      'must be a URL without spaces or control characters, got "https://x/o\\nk"',
    ],
    [
      '--fail',
      'http:s.example',
      'must be an absolute http(s) URL like https://host/path, got "http:s.example"',
    ],
    ['--fail', 'https://x/ok\t', 'must be a URL without spaces or control characters, got "https://x/ok\\t"'],
    [
      '--notification-url',
      'https://x/\u001b[2J',
      'must be a URL without spaces or control characters, got "https://x/\\u001b[2J"',
    ],
  ])('%s %j → exit 2 naming the flag and the rule, nothing sent', async (flag, value, rule) => {
    await e2e.loginAfresh();
    const result = await create('--amount', '1', flag, value);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const [line, ...rest] = result.stderr.split('\n');
    expect(line).toBe(`error: ${flag}: ${rule}`);
    // One line: the value cannot break it, nor reach the terminal raw.
    expect(rest.filter((l) => l !== '' && !l.startsWith('hint:'))).toEqual([]);
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(await journal(e2e.sb.url)).toEqual([]);
  });
});

describe('--journal', () => {
  const CSV = 'amount,description,success,fail\n1,Tea,https://s.example/ok,https://s.example/ko\n';

  it.each([
    ['a relative path', () => 'no/such/folder/j'],
    ['an absolute path', () => join(e2e.dir, 'no', 'such', 'folder', 'j')],
    ['a path under a file', () => join(e2e.dir, 'x.csv', 'j')],
  ])('in a folder that does not exist (%s) → exit 2 naming --journal, nothing sent', async (_, path) => {
    await e2e.loginAfresh();
    writeFileSync(join(e2e.dir, 'x.csv'), CSV);
    const result = await e2e.run(batchCommand(join(e2e.dir, 'x.csv'), '--journal', path()));
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: --journal: the folder .+ does not exist\n/);
    expect(result.stderr).not.toContain('unexpected failure');
    expect(await journal(e2e.sb.url)).toEqual([]);
  });

  // A --journal naming a folder is a usage error, not an "unexpected failure: EISDIR".
  it('--journal naming a folder → exit 2 naming --journal, not "unexpected failure"', async () => {
    await e2e.loginAfresh();
    writeFileSync(join(e2e.dir, 'x.csv'), CSV);
    mkdirSync(join(e2e.dir, 'journals'));
    const result = await e2e.run(
      batchCommand(join(e2e.dir, 'x.csv'), '--journal', join(e2e.dir, 'journals')),
    );
    expect(result.stderr).not.toContain('unexpected failure');
    expect(result.stderr).toMatch(/^error: --journal: /);
    expect(result.exitCode).toBe(2);
    expect(await journal(e2e.sb.url)).toEqual([]);
  });
});

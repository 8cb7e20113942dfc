import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orderOutputSchema } from '../../../src/contract/schemas.js';
import { type ApiVersion, PATHS } from '../../../src/contract/versions.js';
import { MAX_LINE_BYTES } from '../../../src/orders/input-lines.js';
import { SHOP } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/context.js';
import { SHOP_ENV, useE2E } from '../../helpers/e2e.js';
import { call, createOrder, journal, routesReached, tokenFor } from '../../helpers/sandbox.js';
import { OPAQUE_TOKEN_ANSWER, serveHttp } from '../../helpers/servers.js';

const e2e = useE2E({}, { beforeSunset: true });

/** Logs SHOP in and creates `count` orders of 1.05, 2.05, … of SHOP's; the journal is then emptied. */
async function setup(count: number, version: ApiVersion = 'v2') {
  await e2e.login();
  const token = await tokenFor(e2e.sb.url, 'v2', SHOP);
  const orders = [];
  for (let i = 0; i < count; i++) {
    const amount =
      version === 'v1'
        ? { userName: SHOP.username, amount: `${i + 1}.05` }
        : { amount: `${(i + 1) * 100 + 5}` };
    orders.push(await createOrder(e2e.sb.url, token, version, amount));
  }
  await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
  return orders;
}

describe('order get', () => {
  it(`one uuid: the documented JSON object, by GET ${PATHS.lookup('v2')}`, async () => {
    const [order] = await setup(1);
    const result = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(orderOutputSchema.parse(JSON.parse(result.stdout))).toMatchObject({
      uuid: order.uuid,
      amount: '1.05',
      status: 'PENDING',
    });
    expect((await journal(e2e.sb.url, 'lookup'))[0].path).toBe(PATHS.lookup('v2', order.uuid));
  });

  it('v1 by uuid, by id, or by the id resource path; status changes show', async () => {
    const [order] = await setup(1, 'v1');
    await call(e2e.sb.url, 'POST', `/pay/${order.uuid}/pay`);
    const shortId = order.id.split('/').pop();
    for (const key of [order.uuid, shortId, order.id]) {
      const result = await e2e.run(['order', 'get', key, '--env', 'sandbox', '--api', 'v1', '--json']);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        uuid: order.uuid,
        status: 'PAID',
        version: 'v1',
        amount: '1.05',
      });
    }
    expect((await journal(e2e.sb.url, 'lookup')).map((e) => e.path)).toEqual([
      PATHS.lookup('v1', order.uuid),
      PATHS.lookup('v1', shortId),
      PATHS.lookup('v1', shortId),
    ]);
  });

  it('a uuid pasted in capitals or with spaces and a line end around it is the same order, sent in lower case', async () => {
    const [order] = await setup(1);
    for (const pasted of [order.uuid.toUpperCase(), `  ${order.uuid}\t\n`]) {
      const result = await e2e.run(['order', 'get', pasted, '--env', 'sandbox', '--field', 'uuid']);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${order.uuid}\n`);
    }
    expect((await journal(e2e.sb.url, 'lookup')).map((e) => e.path)).toEqual([
      PATHS.lookup('v2', order.uuid),
      PATHS.lookup('v2', order.uuid),
    ]);
  });

  it('an unknown order is a clear "not found", exit 1', async () => {
    await setup(0);
    const result = await e2e.run([
      'order',
      'get',
      '00000000-0000-4000-8000-000000000000',
      '--env',
      'sandbox',
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      'error: order 00000000-0000-4000-8000-000000000000 not found on sandbox (v2)',
    );
  });

  it('several ids and --input: an array in input order, a row for every id; failures on stderr too; exit 1', async () => {
    const orders = await setup(3);
    const file = join(e2e.dir, 'ids.txt');
    writeFileSync(file, `${orders[2].uuid}\n\n# a comment\nmissing-one\n${orders[1].uuid}\n`);
    const result = await e2e.run([
      'order',
      'get',
      orders[0].uuid,
      '--input',
      file,
      '--env',
      'sandbox',
      '--json',
    ]);
    expect(result.exitCode).toBe(1);
    const rows = JSON.parse(result.stdout);
    expect(rows.map((o: any) => o.uuid ?? o.input)).toEqual([
      orders[0].uuid,
      orders[2].uuid,
      'missing-one',
      orders[1].uuid,
    ]);
    expect(rows[2]).toMatchObject({ input: 'missing-one', outcome: 'not_found', order: null });
    expect(result.stderr).toContain('order missing-one not found');
    expect(result.stderr).toContain('1 lookup failed');
    const ndjson = await e2e.run(
      ['order', 'get', '--input', '-', '--env', 'sandbox', '-o', 'ndjson', '--field', 'amount'],
      { input: orders.map((o) => o.uuid).join('\n') },
    );
    expect(ndjson.stdout).toBe('1.05\n2.05\n3.05\n');
  });

  it('config default-output applies when no format is asked for', async () => {
    const [order] = await setup(1);
    expect((await e2e.run(['config', 'set', 'default-output', 'tsv'])).exitCode).toBe(0);
    const result = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox']);
    expect(result.stdout.split('\n')[0]).toBe(
      'uuid\tid\tversion\tstatus\tamount\tcurrency\torder_number\tref_number\texternal_reference\tlinks.checkout\tinput\toutcome\terror',
    );
    expect(
      JSON.parse((await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox', '--json'])).stdout).uuid,
    ).toBe(order.uuid);
  });

  it("--input reads the uuid column of payorder's own -o tsv output (a batch's results): the help's example works", async () => {
    await e2e.login();
    const csv = join(e2e.dir, 'orders.csv');
    writeFileSync(
      csv,
      'amount,description,success,fail\n1.50,Tea,https://s.example/ok,https://s.example/ko\n' +
        '2.50,Cake,https://s.example/ok,https://s.example/ko\n0,Nothing,https://s.example/ok,https://s.example/ko\n',
    );
    const created = await e2e.run(['order', 'create', '--input', csv, '--env', 'sandbox', '-o', 'tsv']);
    expect(created.exitCode).toBe(1); // the third line failed: its row has no uuid
    writeFileSync(join(e2e.dir, 'orders.tsv'), created.stdout);
    // In the file's order (the batch sends its lines concurrently: the sandbox may create them in another).
    const [header = '', ...rows] = created.stdout.trim().split('\n');
    const column = header.split('\t').indexOf('uuid');
    const uuids = rows.map((row) => row.split('\t')[column]).filter((uuid) => uuid);
    expect(uuids).toHaveLength(2);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    for (const [args, input] of [
      [['--input', join(e2e.dir, 'orders.tsv')], undefined],
      [['--input', '-'], created.stdout],
    ] as const) {
      const result = await e2e.run(
        ['order', 'get', ...args, '--env', 'sandbox', '-o', 'tsv', '--no-headers'],
        {
          input,
        },
      );
      expect(result.exitCode, result.stderr).toBe(0);
      expect(
        result.stdout
          .trim()
          .split('\n')
          .map((row) => row.split('\t')[0]),
      ).toEqual(uuids);
    }
    expect(await routesReached(e2e.sb.url)).toEqual(Array(4).fill('lookup 200'));
  });

  it('an --input with no line end (/dev/zero) is refused at the line limit, nothing sent', async () => {
    await setup(0);
    const result = await e2e.run(['order', 'get', '--env', 'sandbox', '--input', '/dev/zero']);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '[]\n',
      stderr: `error: --input: line 1 of /dev/zero is longer than ${MAX_LINE_BYTES} bytes\n`,
    });
    expect(await journal(e2e.sb.url, 'lookup')).toHaveLength(0);
  });

  it('needs an id', async () => {
    const result = await e2e.run(['order', 'get', '--env', 'sandbox']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('give at least one order id');
  });

  it('a 500 on lookup is exit 1, retried on 503', async () => {
    const [order] = await setup(1);
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'lookup', error: '999' });
    const failed = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox']);
    expect(failed.exitCode).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ input: order.uuid, outcome: 'failed', order: null });
    expect(failed.stderr).toContain('error: the service failed (999)\n');
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'lookup', fault: 'unavailable' });
    const retried = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox']);
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(JSON.parse(retried.stdout).uuid).toBe(order.uuid);
    // The 500 is not retried (the service failed), the 503 is (it did not act).
    expect((await journal(e2e.sb.url, 'lookup')).map((e) => e.status)).toEqual([500, 503, 200]);
  });
});

describe('a token the order service refuses (401 Unauthorized)', () => {
  it('is renewed once and the lookup repeated once: exit 0', async () => {
    const [order] = await setup(1);
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'lookup', error: 'unauthorized' });
    const result = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).uuid).toBe(order.uuid);
    expect(await routesReached(e2e.sb.url)).toEqual(['lookup 401', 'token 200', 'lookup 200']);
  });

  it('refused again after the renewal: exit 4 with the hint to log in, no third lookup', async () => {
    const [order] = await setup(1);
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'lookup', error: 'unauthorized', times: 5 });
    const result = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox']);
    expect(result.exitCode).toBe(4);
    expect(JSON.parse(result.stdout).error.kind).toBe('auth');
    expect(result.stderr).toBe(
      'error: the service did not accept the access token on sandbox (401 Unauthorized)\n' +
        'hint: log in again: payorder login --env sandbox\n',
    );
    expect(await routesReached(e2e.sb.url)).toEqual(['lookup 401', 'token 200', 'lookup 401']);
  });
});

describe('--field on order get', () => {
  it("takes the API's name links.checkout_link", async () => {
    const [order] = await setup(1);
    const result = await e2e.run([
      'order',
      'get',
      order.uuid,
      '--env',
      'sandbox',
      '--field',
      'links.checkout_link',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${e2e.sb.url}/pay/${order.uuid}\n`);
  });

  it('a typo → exit 2 with "did you mean status", nothing sent', async () => {
    const [order] = await setup(1);
    const result = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox', '--field', 'staus']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      'error: --field: no field "staus" in an order; did you mean status?',
    );
    expect(await journal(e2e.sb.url)).toEqual([]);
  });
});

describe('order ids that would point the lookup elsewhere', () => {
  it.each(['.', '..', 'a/../b', PATHS.lookup('v1', '..'), './', 'abc/./def', ''])(
    'the argument %j → exit 2 "is not an order id", nothing sent',
    async (id) => {
      const [order] = await setup(1);
      // Every id is checked before any is looked up: a good one first changes nothing.
      const result = await e2e.run(['order', 'get', order.uuid, id, '--env', 'sandbox']);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`error: ${JSON.stringify(id)} is not an order id\n`);
      expect(result.stderr).toContain('hint: give the uuid of the order');
      expect(await journal(e2e.sb.url)).toEqual([]);
    },
  );

  it('in an --input file: those lines are failed rows, the others are looked up, exit 2', async () => {
    const orders = await setup(2);
    const file = join(e2e.dir, 'ids.txt');
    writeFileSync(file, `${orders[0].uuid}\n.\n..\na/../b\n${orders[1].uuid}\n`);
    const result = await e2e.run(['order', 'get', '--input', file, '--env', 'sandbox', '-o', 'ndjson']);
    expect(result.exitCode).toBe(2);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .map((row) => row.uuid ?? `${row.input} ${row.outcome}`),
    ).toEqual([orders[0].uuid, '. failed', '.. failed', 'a/../b failed', orders[1].uuid]);
    for (const id of ['.', '..', 'a/../b'])
      expect(result.stderr).toContain(`error: ${JSON.stringify(id)} is not an order id\n`);
    expect(result.stderr).toContain('3 lookups failed');
    // The lookups run side by side: the order they reach the sandbox in is not fixed.
    expect((await journal(e2e.sb.url, 'lookup')).map((e: any) => e.path).sort()).toEqual(
      [PATHS.lookup('v2', orders[0].uuid), PATHS.lookup('v2', orders[1].uuid)].sort(),
    );
  });

  it.each(['%2e%2e', 'x?y=1', 'x#frag', 'a b'])(
    '%j is sent percent-encoded as one path segment (a plain "not found")',
    async (id) => {
      await setup(0);
      const result = await e2e.run(['order', 'get', id, '--env', 'sandbox']);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('not found on sandbox (v2)');
      expect((await journal(e2e.sb.url, 'lookup')).map((e: any) => e.path)).toEqual([PATHS.lookup('v2', id)]);
    },
  );
});

/** Sets the window title to "x", rings the bell, then clears the screen. */
const HOSTILE = '\u001b]0;x\u0007\u001b[2J';
const HOSTILE_SHOWN = '\\u001b]0;x\\u0007\\u001b[2J';
/** Any control character but the line feed (and what payorder's own colors need: none, with NO_COLOR). */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const onTerminal = (args: string[], env: Record<string, string> = {}) =>
  runInProcess(args, {
    env: e2e.env({ NO_COLOR: '1', ...env }),
    stdoutIsTTY: true,
    stderrIsTTY: true,
    columns: 200,
  });

/**
 * A token and order service of the test's own whose orders carry escape sequences where the
 * sandbox would not put them (the status, the payment link), and whose "missing" order is a 502
 * HTML page with them in its title.
 */
async function hostileService() {
  const url = await serveHttp(async (request, response) => {
    for await (const _ of request);
    if (request.url === PATHS.token('v2')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(OPAQUE_TOKEN_ANSWER));
      return;
    }
    const uuid = request.url!.split('/').pop()!;
    if (uuid === 'missing') {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(`<html><head><title>${HOSTILE}Bad Gateway</title></head><body>\u009b2J</body></html>`);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: PATHS.lookup('v2', uuid),
        type: 'Order',
        uuid,
        amount: '1250',
        status: `PAID${HOSTILE}`,
        external_reference: `REF${HOSTILE}`,
        links: {
          checkout_link: `https://pay.example/${uuid}${HOSTILE}`,
          success: 'https://s.example/ok',
          failed: 'https://s.example/ko',
        },
      }),
    );
  });
  return { PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url, ...SHOP_ENV };
}

describe('text from the service on a terminal', () => {
  it('the one-order table shows an escape sequence in the external reference as visible escapes', async () => {
    await setup(0);
    const created = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      '--amount',
      '12.50',
      '--description',
      `Tea${HOSTILE}`,
      '--success',
      'https://s.example/ok',
      '--fail',
      'https://s.example/ko',
      '--external-reference',
      `WEB-1${HOSTILE}`,
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    const { uuid } = JSON.parse(created.stdout);
    const shown = await onTerminal(['order', 'get', uuid, '--env', 'sandbox']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).not.toMatch(RAW_CONTROL);
    expect(shown.stdout).toMatch(
      new RegExp(`external reference\\s+WEB-1${HOSTILE_SHOWN.replace(/[\\[\]]/g, '\\$&')}\\n`),
    );
    // Colored, the only escape sequences are payorder's own colors (CSI … m).
    const colored = await onTerminal(['order', 'get', uuid, '--env', 'sandbox'], {
      FORCE_COLOR: '1',
      NO_COLOR: '',
    });
    expect(colored.stdout.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(RAW_CONTROL);
    expect(colored.stdout).toContain(`WEB-1${HOSTILE_SHOWN}`);
    // JSON keeps the exact value, as valid JSON.
    const json = await onTerminal(['order', 'get', uuid, '--env', 'sandbox', '-o', 'json']);
    expect(JSON.parse(json.stdout).external_reference).toBe(`WEB-1${HOSTILE}`);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
  });

  it('the many-orders table, -o tsv, --field and --raw escape them too; JSON keeps the exact values', async () => {
    const env = await hostileService();
    const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    const table = await onTerminal(['order', 'get', ...ids, '--env', 'sandbox'], env);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).not.toMatch(RAW_CONTROL);
    expect(table.stdout).toContain(`PAID${HOSTILE_SHOWN}`);
    expect(table.stdout).toContain(ids[1]);
    for (const args of [['-o', 'tsv'], ['--field', 'external_reference'], ['--raw'], ['-o', 'table']]) {
      const shown = await onTerminal(['order', 'get', ...ids, '--env', 'sandbox', ...args], env);
      expect(shown.exitCode, args.join(' ')).toBe(0);
      // TSV separates its columns with tabs; nothing else may be a control character.
      expect(shown.stdout.replace(/\t/g, ' '), args.join(' ')).not.toMatch(RAW_CONTROL);
      expect(shown.stdout, args.join(' ')).toContain(HOSTILE_SHOWN);
    }
    for (const format of ['json', 'ndjson']) {
      const json = await onTerminal(['order', 'get', ...ids, '--env', 'sandbox', '-o', format], env);
      expect(json.stdout).not.toMatch(RAW_CONTROL);
      const orders =
        format === 'json'
          ? JSON.parse(json.stdout)
          : json.stdout
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l));
      expect(orders.map((o: any) => [o.status, o.external_reference, o.links.checkout])).toEqual(
        ids.map((id) => [`PAID${HOSTILE}`, `REF${HOSTILE}`, `https://pay.example/${id}${HOSTILE}`]),
      );
    }
  });

  it('an error excerpt from an HTML page with control characters shows none of them raw', async () => {
    const env = await hostileService();
    const result = await onTerminal(['order', 'get', 'missing', '--env', 'sandbox'], env);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stderr).toContain(
      `error: unexpected answer 502 from the order service (text/html): <html><head><title>${HOSTILE_SHOWN}Bad Gateway</title></head><body>\\u009b2J</body></html>`,
    );
  });

  // The --debug trace escapes control characters like every other message: a server cannot retitle
  // the window or clear the screen through it.
  it('--debug: the traced answer body shows no raw control characters either', async () => {
    const env = await hostileService();
    const result = await onTerminal(['order', 'get', 'missing', '--env', 'sandbox', '--debug'], env);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('[debug] ← 502');
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });
});

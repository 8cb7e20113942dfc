/**
 * The OpenAPI document says exactly what the sandbox does, as a contract tester (Dredd, Prism) reads
 * it: every real answer — orders, errors, refusals, forced faults — matches the response the document
 * gives for its path, method and status (body, content type, required headers); shapes the sandbox
 * never sends are refused; and Redocly's linter, strict, finds nothing in it.
 */

import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import Ajv from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import {
  call,
  createOrder,
  orderBody,
  type Reply,
  tokenBody,
  tokenFor,
  useSandbox,
} from '../helpers/sandbox.js';

const sb = useSandbox({}, { beforeSunset: true });
const REDOCLY = join(import.meta.dirname, '../../node_modules/@redocly/cli/bin/cli.js');

/** The served document, and a check of a real answer against what it documents. */
async function documented() {
  const doc = (await call(sb.url, 'GET', '/_sandbox/openapi.json')).body;
  const ajv = new Ajv.default({ strict: false, allErrors: true });
  // CommonJS packages: under NodeNext their export sits on .default.
  addFormats.default(ajv);
  /** Whether `value` is valid against `schema`, whose $refs point into the document's components. */
  const valid = (schema: object, value: unknown) => {
    const ok = ajv.validate({ ...schema, components: doc.components }, value);
    return ok ? true : ajv.errorsText(ajv.errors);
  };
  const schemaOf = (name: string) => doc.components.schemas[name];
  /** Fails unless the document lists `reply` as an answer of `method` `path` (a template). */
  function check(path: string, method: string, reply: Pick<Reply, 'status' | 'headers' | 'text'>) {
    const response = doc.paths[path]?.[method]?.responses?.[String(reply.status)];
    expect(response, `${method} ${path} ${reply.status} is documented`).toBeDefined();
    const type = (reply.headers.get('content-type') ?? '').split(';')[0]!;
    const media = response.content?.[type];
    expect(media, `${method} ${path} ${reply.status} as ${type}`).toBeDefined();
    if (type === 'application/json')
      expect(valid(media.schema, JSON.parse(reply.text)), `${method} ${path} ${reply.status}`).toBe(true);
    for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
      const value = reply.headers.get(name);
      if (header.required) expect(value, `${name} on ${reply.status}`).not.toBeNull();
      if (value !== null) expect(valid(header.schema, Number(value))).toBe(true);
    }
  }
  return { doc, valid, schemaOf, check };
}

const PATHS = {
  v1: { token: '/1/auth/token', checkout: '/1/checkout', lookup: '/1/order/{id}', lookupAt: '/1/order/' },
  v2: {
    token: '/v2/api/auth/token',
    checkout: '/v2/api/checkout',
    lookup: '/v2/api/orders/{uuid}',
    lookupAt: '/v2/api/orders/',
  },
} as const;

describe('the document and the sandbox’s real answers', () => {
  it.for(['v1', 'v2'] as const)(
    '%s: tokens, orders, lookups in every state, and the errors',
    async (version) => {
      const { check } = await documented();
      const paths = PATHS[version];
      /** Sends a request to `url` and checks the answer against the operation at `template`. */
      const exchange = async (template: string, url: string, body?: unknown, token?: string) =>
        check(
          template,
          body === undefined ? 'get' : 'post',
          await call(sb.url, body === undefined ? 'GET' : 'POST', url, body, token),
        );
      const token = await tokenFor(sb.url, version);
      await exchange(paths.token, paths.token, tokenBody(version));
      await exchange(paths.token, paths.token, tokenBody(version, { grant_type: 'x' }));
      await exchange(paths.token, paths.token, tokenBody(version, { client_id: 'nope' }));
      const created = await call(sb.url, 'POST', paths.checkout, orderBody(version), token);
      check(paths.checkout, 'post', created);
      const key = version === 'v1' ? created.body.id.split('/').pop() : created.body.uuid;
      const states = version === 'v1' ? ['PAID', 'ON_HOLD'] : ['PAID', 'REFUNDED', 'ON_HOLD'];
      for (const status of [undefined, ...states]) {
        if (status) await call(sb.url, 'POST', `/_sandbox/orders/${created.body.uuid}/status`, { status });
        await exchange(paths.lookup, paths.lookupAt + key, undefined, token);
      }
      // v1 finds an order by its uuid too.
      await exchange(paths.lookup, paths.lookupAt + created.body.uuid, undefined, token);
      // With the optional fields of each version, and the errors of each operation.
      const extra =
        version === 'v1' ? { notification_url: 'http://127.0.0.1:9/n' } : { external_reference: 'R-1' };
      await exchange(paths.checkout, paths.checkout, orderBody(version, extra), token);
      await exchange(paths.checkout, paths.checkout, orderBody(version, { amount: '1.234' }), token);
      await exchange(paths.checkout, paths.checkout, orderBody(version));
      await exchange(paths.lookup, `${paths.lookupAt}0000`, undefined, token);
      await exchange(paths.lookup, `${paths.lookupAt}%zz`, undefined, token);
      await exchange(paths.lookup, `${paths.lookupAt}0000`);
    },
  );

  it('the faults a test can force: 429 with Retry-After, 502 as HTML, 503, on every operation', async () => {
    const { check } = await documented();
    const token = await tokenFor(sb.url, 'v2');
    const faults = [
      { fault: 'rate-limit', retry_after: 3 },
      { fault: 'html' },
      { fault: 'unavailable' },
      { fault: 'unavailable', retry_after: 5 },
    ];
    for (const fault of faults)
      for (const version of ['v1', 'v2'] as const) {
        const paths = PATHS[version];
        await call(sb.url, 'POST', '/_sandbox/force', { route: '*', ...fault, times: 3 });
        check(paths.token, 'post', await call(sb.url, 'POST', paths.token, tokenBody(version)));
        check(paths.checkout, 'post', await call(sb.url, 'POST', paths.checkout, orderBody(version), token));
        check(paths.lookup, 'get', await call(sb.url, 'GET', `${paths.lookupAt}0000`, undefined, token));
      }
  });

  it('v1 after its sunset on the sandbox clock: 410 on every v1 operation', async () => {
    const { check } = await documented();
    const token = await tokenFor(sb.url, 'v1');
    await call(sb.url, 'POST', '/_sandbox/clock', { now: '2027-01-01T00:00:00Z' });
    const paths = PATHS.v1;
    const replies = [
      [paths.token, 'post', await call(sb.url, 'POST', paths.token, tokenBody('v1'))],
      [paths.checkout, 'post', await call(sb.url, 'POST', paths.checkout, orderBody('v1'), token)],
      [paths.lookup, 'get', await call(sb.url, 'GET', `${paths.lookupAt}0000`, undefined, token)],
    ] as const;
    for (const [path, method, reply] of replies) {
      expect(reply.status).toBe(410);
      check(path, method, reply);
    }
  });

  it('the sandbox’s refusals: a foreign Origin, a body over the limit, headers over the limit', async () => {
    const { check } = await documented();
    const foreign = await fetch(`${sb.url}/v2/api/checkout`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    });
    check('/v2/api/checkout', 'post', {
      status: foreign.status,
      headers: foreign.headers,
      text: await foreign.text(),
    });
    check('/1/auth/token', 'post', await call(sb.url, 'POST', '/1/auth/token', 'x'.repeat(70_000)));
    const { hostname, port } = new URL(sb.url);
    const tooLong = await new Promise<Pick<Reply, 'status' | 'headers' | 'text'>>((resolve, reject) => {
      request(
        {
          host: hostname,
          port,
          method: 'GET',
          path: '/v2/api/orders/0000',
          headers: { 'x-big': 'x'.repeat(20_000) },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              headers: new Headers(response.headers as Record<string, string>),
              text,
            }),
          );
        },
      )
        .on('error', reject)
        .end();
    });
    expect(tooLong.status).toBe(431);
    check('/v2/api/orders/{uuid}', 'get', tooLong);
  });
});

describe('what the sandbox never sends nor takes, the document refuses', () => {
  it('orders: the payment link under another key or missing, a status that is no state name, null fields', async () => {
    const { valid, schemaOf } = await documented();
    const v1 = await createOrder(sb.url, await tokenFor(sb.url, 'v1'), 'v1');
    const v2 = await createOrder(sb.url, await tokenFor(sb.url, 'v2'), 'v2');
    expect(valid(schemaOf('OrderV1'), v1)).toBe(true);
    expect(valid(schemaOf('OrderV2'), v2)).toBe(true);
    const { checkoutLink, ...noLink } = v1.links;
    const wrong: [string, unknown][] = [
      ['OrderV1', { ...v1, links: noLink }],
      ['OrderV1', { ...v1, links: { ...noLink, checkout: checkoutLink } }],
      ['OrderV1', { ...v1, links: { ...v1.links, checkout: checkoutLink } }],
      ['OrderV1', { ...v1, status: 'pending' }],
      ['OrderV1', { ...v1, status: 'REFUNDED' }],
      ['OrderV1', { ...v1, orderNumber: null }],
      ['OrderV1', { ...v1, links: { ...v1.links, success: null } }],
      ['OrderV2', { ...v2, status: 'any text' }],
      ['OrderV2', (({ external_reference: _, ...rest }) => rest)(v2)],
      ['OrderV2', { ...v2, currency: '840' }],
    ];
    for (const [name, value] of wrong)
      expect(valid(schemaOf(name), value), JSON.stringify(value)).not.toBe(true);
  });

  it('requests: a required text of white space only, which the sandbox refuses as missing', async () => {
    const { valid, schemaOf } = await documented();
    const token = await tokenFor(sb.url, 'v2');
    for (const [field, value] of [
      ['description', '   '],
      ['callback_success', '\t\n'],
    ] as const) {
      const body = orderBody('v2', { [field]: value });
      expect(valid(schemaOf('OrderRequestV2'), body), field).not.toBe(true);
      expect((await call(sb.url, 'POST', '/v2/api/checkout', body, token)).body.code).toBe('1001');
    }
    const blankUser = tokenBody('v1', { user_name: ' ' });
    expect(valid(schemaOf('TokenRequestV1'), blankUser)).not.toBe(true);
    expect((await call(sb.url, 'POST', '/1/auth/token', blankUser)).body.code).toBe('3001');
    expect(valid(schemaOf('OrderRequestV1'), orderBody('v1', { userName: ' x ' }))).toBe(true);
  });

  it('every operation says its security (none for a token) and each path parameter has an example', async () => {
    const { doc } = await documented();
    for (const [path, item] of Object.entries<any>(doc.paths))
      for (const operation of Object.values<any>(item)) {
        expect(operation.security, path).toEqual(path.endsWith('/auth/token') ? [] : [{ bearer: [] }]);
        for (const parameter of operation.parameters ?? [])
          expect(parameter.example ?? parameter.examples, `${path} ${parameter.name}`).toBeDefined();
      }
  });
});

describe('Redocly CLI', () => {
  it('lints the served document with its strict recommended rules: no error, no warning', async () => {
    const file = join(tempDir(), 'openapi.json');
    writeFileSync(file, (await call(sb.url, 'GET', '/_sandbox/openapi.json')).text);
    // Run by this Node (the toolchain's under npm test), whatever node is first on PATH.
    const lint = await execa(
      process.execPath,
      [REDOCLY, 'lint', file, '--extends', 'recommended-strict', '--format', 'stylish'],
      {
        reject: false,
        // Redocly sends usage data and looks for a newer release unless told not to: a test stays on this machine.
        env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    expect(lint.exitCode, `${lint.stdout}\n${lint.stderr}`).toBe(0);
    expect(lint.stderr).toContain('Your API description is valid');
    expect(`${lint.stdout}${lint.stderr}`).not.toMatch(/\b(error|warning)\b/);
  });
});

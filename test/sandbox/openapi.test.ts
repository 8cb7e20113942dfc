/**
 * The OpenAPI document the sandbox serves: valid OpenAPI 3.1 (checked by a validator of its own),
 * with the paths as the sandbox serves them, the bodies of both versions and the whole error catalog,
 * and the same document `payorder sandbox --openapi` prints.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { CATALOG, type CatalogEntry } from '../../src/contract/catalog.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';
import { call, createOrder, tokenBody, tokenFor, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({}, { beforeSunset: true });

const served = async () => {
  const reply = await call(sb.url, 'GET', '/_sandbox/openapi.json');
  expect(reply.status).toBe(200);
  return reply.body;
};

describe('GET /_sandbox/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(await served());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has the six paths as the sandbox serves them, the sandbox as its server, v1 deprecated', async () => {
    const doc = await served();
    expect(doc.servers).toEqual([{ url: sb.url, description: 'payorder sandbox' }]);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/1/auth/token',
        '/v2/api/auth/token',
        '/1/checkout',
        '/v2/api/checkout',
        '/1/order/{id}',
        '/v2/api/orders/{uuid}',
      ].sort(),
    );
    expect(doc.paths['/1/checkout'].post.deprecated).toBe(true);
    expect(doc.paths['/v2/api/checkout'].post.deprecated).toBeUndefined();
    expect(doc.paths['/v2/api/orders/{uuid}'].get.parameters[0]).toMatchObject({ name: 'uuid', in: 'path' });
  });

  it('every catalog row is an example of its endpoint’s answers, with its exact code and text', async () => {
    const doc = await served();
    const examples = (path: string, method: string) =>
      Object.entries(doc.paths[path][method].responses).flatMap(([status, response]: [string, any]) =>
        Object.values(response.content?.['application/json']?.examples ?? {}).map((example: any) => ({
          status: Number(status),
          ...example.value,
        })),
      );
    for (const entry of CATALOG as readonly CatalogEntry[]) {
      const text = entry.endpoint === 'token' ? 'description' : 'message';
      const expected = {
        status: entry.status,
        ...(entry.code ? { code: entry.code } : {}),
        [text]: entry.text,
      };
      const where = entry.endpoint === 'token' ? ['/1/auth/token', '/v2/api/auth/token'] : ['/1/checkout'];
      for (const path of where)
        expect(examples(path, 'post'), `${entry.id} at ${path}`).toContainEqual(expected);
    }
    // v2 has no userName: the two userName rows are v1's only.
    const v2Codes = examples('/v2/api/checkout', 'post').map((example) => example.code);
    expect(v2Codes).not.toContain('1004');
    expect(v2Codes).not.toContain('1002');
    expect(doc.components.schemas.OrderError.properties.code.enum).toEqual([
      '1001',
      '1003',
      '1004',
      '1002',
      '999',
    ]);
  });

  it('lists the sandbox’s own refusals: 403 everywhere, 413 where a body is read, 507 on checkout', async () => {
    const doc = await served();
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);
    for (const version of ['1', 'v2/api']) {
      const token = `/${version}/auth/token`;
      const checkout = `/${version}/checkout`;
      expect(statuses(token, 'post')).toEqual(expect.arrayContaining(['403', '413']));
      expect(statuses(checkout, 'post')).toEqual(expect.arrayContaining(['403', '413', '507']));
      expect(statuses(token, 'post')).not.toContain('507');
    }
    for (const lookup of ['/1/order/{id}', '/v2/api/orders/{uuid}']) {
      expect(statuses(lookup, 'get')).toContain('403');
      expect(statuses(lookup, 'get')).not.toContain('413');
    }
    const refusal = doc.paths['/v2/api/checkout'].post.responses['413'].content['application/json'];
    expect(refusal.schema).toEqual({ $ref: '#/components/schemas/SandboxRefusal' });
    const ajv = new Ajv.default({ strict: false });
    for (const [name, schema] of Object.entries(doc.components.schemas))
      ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    const tooLarge = await call(sb.url, 'POST', '/v2/api/checkout', 'x'.repeat(70_000));
    expect(tooLarge.status).toBe(413);
    expect(ajv.validate('#/components/schemas/SandboxRefusal', tooLarge.body)).toBe(true);
  });

  it('its schemas accept what the sandbox sends and receives, and refuse a v1 body on v2', async () => {
    const doc = await served();
    const schemas = doc.components.schemas;
    const ajv = new Ajv.default({ strict: false });
    for (const [name, schema] of Object.entries(schemas))
      ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    const valid = (name: string, value: unknown) => ajv.validate(`#/components/schemas/${name}`, value);
    expect(valid('TokenRequestV1', tokenBody('v1'))).toBe(true);
    expect(valid('TokenRequestV2', tokenBody('v2'))).toBe(true);
    const v1 = await createOrder(sb.url, await tokenFor(sb.url, 'v1'), 'v1');
    const v2 = await createOrder(sb.url, await tokenFor(sb.url, 'v2'), 'v2');
    expect(valid('OrderV1', v1)).toBe(true);
    expect(valid('OrderV2', v2)).toBe(true);
    expect(
      valid('OrderRequestV2', {
        amount: '1250',
        description: 'Tea',
        callback_success: 'https://s.example/ok',
        callback_fail: 'https://s.example/ko',
      }),
    ).toBe(true);
    expect(
      valid('OrderRequestV2', {
        amount: '12.50',
        description: 'Tea',
        callback_success: 'https://s.example/ok',
        callback_fail: 'https://s.example/ko',
      }),
    ).toBe(false);
    expect(
      valid('OrderRequestV1', {
        amount: '12.50',
        description: 'Tea',
        userName: 'u',
        callback_success: 'https://s.example/ok',
        callback_fail: 'https://s.example/ko',
      }),
    ).toBe(true);
    expect(
      valid('OrderRequestV1', {
        amount: '12.505',
        description: 'Tea',
        userName: 'u',
        callback_success: 'https://s.example/ok',
        callback_fail: 'https://s.example/ko',
      }),
    ).toBe(false);
  });
});

describe('payorder sandbox --openapi', () => {
  it('prints the same document, with the address it would listen on as its server, and starts nothing', async () => {
    const result = await runInProcess(['sandbox', '--openapi', '--port', '4321'], {
      env: { HOME: tempDir() },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const printed = JSON.parse(result.stdout);
    expect(printed.servers).toEqual([{ url: 'http://127.0.0.1:4321', description: 'payorder sandbox' }]);
    expect({ ...printed, servers: [] }).toEqual({ ...(await served()), servers: [] });
    await expect(fetch('http://127.0.0.1:4321/_sandbox')).rejects.toThrow();
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orderOutputSchema } from '../../../src/contract/schemas.js';
import { SECRET } from '../../helpers/cli.js';
import { loginArgs, useE2E } from '../../helpers/e2e.js';
import { call, journal, orderBody } from '../../helpers/sandbox.js';

const e2e = useE2E();

async function setup(count: number, version: 'v1' | 'v2' = 'v2') {
  expect((await e2e.run(loginArgs(), { input: SECRET })).exitCode).toBe(0);
  const { access_token } = (
    await call(e2e.sb.url, 'POST', '/v2/api/auth/token', {
      username: 'shop-owner',
      client_id: 'shop-client-7',
      client_secret_id: SECRET,
      grant_type: 'client_credentials',
    })
  ).body;
  const orders = [];
  for (let i = 0; i < count; i++) {
    const body =
      version === 'v1'
        ? orderBody('v1', { userName: 'shop-owner', amount: `${i + 1}.05` })
        : orderBody('v2', { amount: `${(i + 1) * 100 + 5}` });
    orders.push(
      (
        await call(
          e2e.sb.url,
          'POST',
          version === 'v1' ? '/1/checkout' : '/v2/api/checkout',
          body,
          access_token,
        )
      ).body,
    );
  }
  await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
  return orders;
}

describe('order get', () => {
  it('one uuid: the documented JSON object, by GET /v2/api/orders/:uuid', async () => {
    const [order] = await setup(1);
    const result = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(orderOutputSchema.parse(JSON.parse(result.stdout))).toMatchObject({
      uuid: order.uuid,
      amount: '1.05',
      status: 'PENDING',
    });
    expect((await journal(e2e.sb.url, 'lookup'))[0].path).toBe(`/v2/api/orders/${order.uuid}`);
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
      `/1/order/${order.uuid}`,
      `/1/order/${shortId}`,
      `/1/order/${shortId}`,
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

  it('several ids and --input: an array in input order; failures on stderr; exit 1 if any failed', async () => {
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
    expect(JSON.parse(result.stdout).map((o: any) => o.uuid)).toEqual([
      orders[0].uuid,
      orders[2].uuid,
      orders[1].uuid,
    ]);
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
      'uuid\tid\tversion\tstatus\tamount\tcurrency\torder_number\tref_number\texternal_reference\tlinks.checkout',
    );
    expect(
      JSON.parse((await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox', '--json'])).stdout).uuid,
    ).toBe(order.uuid);
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
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain('error: the service failed (999)\n');
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'lookup', fault: 'unavailable' });
    const retried = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox']);
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(JSON.parse(retried.stdout).uuid).toBe(order.uuid);
    // The 500 is not retried (the service failed), the 503 is (it did not act).
    expect((await journal(e2e.sb.url, 'lookup')).map((e) => e.status)).toEqual([500, 503, 200]);
  });
});

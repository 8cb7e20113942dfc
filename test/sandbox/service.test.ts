/**
 * The sandbox's service routes against the spec (§7): the status and body of every answer. The
 * field names, codes and texts are typed out here, not taken from src/contract, so that these tests
 * check the spec's wire format independently of the code that implements it.
 */
import { describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/versions.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { call, createOrder, orderBody, tokenBody, tokenFor, useSandbox } from '../helpers/sandbox.js';

/** A second account, for what belongs to one account only. */
const OTHER = { username: 'other-shop', clientId: 'other-client', clientSecretId: 'other-secret' };
const sb = useSandbox({ accounts: [TEST_ACCOUNT, OTHER] }, { beforeSunset: true });

describe.each(['v1', 'v2'] as const)('token endpoint %s (spec §7.1)', (version) => {
  const path = PATHS.token(version);

  it('issues a JWT with expires_in and token_type', async () => {
    const reply = await call(sb.url, 'POST', path, tokenBody(version));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ expires_in: 86400, token_type: 'Bearer' });
    const [header, payload] = reply.body.access_token
      .split('.')
      .slice(0, 2)
      .map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload.exp - payload.iat).toBe(86400);
    expect(payload.sub).toBe(TEST_ACCOUNT.username);
  });

  const otherUserField =
    version === 'v1'
      ? { user_name: undefined, username: TEST_ACCOUNT.username }
      : { username: undefined, user_name: TEST_ACCOUNT.username };
  it.each([
    [
      'missing client_id',
      { client_id: undefined },
      400,
      { code: '3001', description: 'One or more required fields are empty' },
    ],
    [
      'empty secret',
      { client_secret_id: '' },
      400,
      { code: '3001', description: 'One or more required fields are empty' },
    ],
    [
      "the other version's user field",
      otherUserField,
      400,
      { code: '3001', description: 'One or more required fields are empty' },
    ],
    [
      'unsupported grant',
      { grant_type: 'password' },
      400,
      { code: '3002', description: 'Unsupported grant type' },
    ],
    [
      'unknown user',
      { [version === 'v1' ? 'user_name' : 'username']: 'nobody' },
      401,
      { code: '3003', description: 'User account not found' },
    ],
    [
      'unknown client id',
      { client_id: 'nope' },
      401,
      { code: '3005', description: 'The provided client id does not correspond to any active user' },
    ],
    [
      'wrong secret',
      { client_secret_id: 'wrong' },
      401,
      { code: '3006', description: 'Error authenticating user. Invalid credentials' },
    ],
  ])('%s → exact status and body', async (_, overrides, status, body) => {
    const reply = await call(sb.url, 'POST', path, tokenBody(version, overrides));
    expect(reply.status).toBe(status);
    expect(reply.body).toEqual(body);
  });

  it('a malformed JSON body is 3001, not a crash', async () => {
    const reply = await call(sb.url, 'POST', path, '{"username": ');
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('3001');
  });

  it('server failure is a code-less 500', async () => {
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'token', error: 'token-500' });
    const reply = await call(sb.url, 'POST', path, tokenBody(version));
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ description: 'Something bad happened. Please try again.' });
  });
});

describe.each(['v1', 'v2'] as const)('checkout %s (spec §7.2)', (version) => {
  const path = PATHS.checkout(version);

  it('creates a PENDING order with the version-specific fields', async () => {
    const token = await tokenFor(sb.url, version);
    const reply = await call(
      sb.url,
      'POST',
      path,
      orderBody(version, version === 'v2' ? { external_reference: 'INV-7' } : {}),
      token,
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      type: 'Order',
      status: 'PENDING',
      links: { success: 'https://shop.example/ok', failed: 'https://shop.example/ko' },
    });
    if (version === 'v1') {
      expect(reply.text).toContain('"amount":12.50');
      // The numbers are the sandbox's own: the order's number in sequence, and a reference after it.
      expect(reply.body).toMatchObject({
        orderNumber: expect.stringMatching(/^\d+$/),
        currency: expect.stringMatching(/^\d{3}$/),
        refNumber: expect.stringMatching(new RegExp(`^REF${reply.body.orderNumber}[0-9A-F]{4}$`)),
      });
      expect(reply.body.links.checkoutLink).toBe(`${sb.url}/pay/${reply.body.uuid}`);
      expect(reply.body).not.toHaveProperty('external_reference');
    } else {
      expect(reply.body.amount).toBe('1250');
      expect(reply.body.external_reference).toBe('INV-7');
      expect(reply.body.links.checkout_link).toBe(`${sb.url}/pay/${reply.body.uuid}`);
      for (const gone of ['orderNumber', 'currency', 'refNumber'])
        expect(reply.body).not.toHaveProperty(gone);
    }
  });

  it('401 Unauthorized without a token or with a forged one', async () => {
    for (const token of [undefined, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl']) {
      const reply = await call(sb.url, 'POST', path, orderBody(version), token);
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ message: 'Unauthorized' });
    }
  });

  it('403 explicit deny once the token expired (sandbox clock)', async () => {
    const token = await tokenFor(sb.url, version);
    await call(sb.url, 'POST', '/_sandbox/clock', { advance: 86_401 });
    const reply = await call(sb.url, 'POST', path, orderBody(version), token);
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({
      message: 'User is not authorized to access this resource with an explicit deny',
    });
  });

  it('1001 for a missing field, 1003 for a bad amount', async () => {
    const token = await tokenFor(sb.url, version);
    const missing = await call(sb.url, 'POST', path, orderBody(version, { callback_fail: undefined }), token);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      code: '1001',
      message: 'Invalid request error. One or more mandatory fields are missing.',
    });
    const bad = await call(
      sb.url,
      'POST',
      path,
      orderBody(version, { amount: version === 'v1' ? '12,50' : '12.50' }),
      token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      code: '1003',
      message: 'Invalid amount format. Amount must have only numbers and a single point.',
    });
    const malformed = await call(sb.url, 'POST', path, '{oops', token);
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('1001');
  });

  it('999 on server failure', async () => {
    const token = await tokenFor(sb.url, version);
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'checkout', version, error: '999' });
    const reply = await call(sb.url, 'POST', path, orderBody(version), token);
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ code: '999', message: 'Something bad happened. Please try again.' });
  });
});

describe('v1 userName (1004, 1002)', () => {
  it('1004 for an unknown user, 1002 for a user that is not the token’s', async () => {
    const token = await tokenFor(sb.url, 'v1');
    const path = PATHS.checkout('v1');
    const unknown = await call(sb.url, 'POST', path, orderBody('v1', { userName: 'ghost' }), token);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      code: '1004',
      message: 'Invalid username. Cannot find a valid user for the provided value.',
    });
    const other = await call(sb.url, 'POST', path, orderBody('v1', { userName: OTHER.username }), token);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({
      code: '1002',
      message: 'Invalid credentials. The corresponding username does not match with these credentials.',
    });
  });
});

describe('lookup', () => {
  it('v1 by uuid or the id’s last segment; v2 by uuid only; each in its version’s shape', async () => {
    const token = await tokenFor(sb.url, 'v1');
    const created = await createOrder(sb.url, token, 'v1');
    const shortId = created.id.split('/').pop();
    for (const key of [created.uuid, shortId]) {
      const reply = await call(sb.url, 'GET', PATHS.lookup('v1', key), undefined, token);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        uuid: created.uuid,
        links: { checkoutLink: created.links.checkoutLink },
      });
    }
    const v2Order = await createOrder(sb.url, token);
    const v2 = await call(sb.url, 'GET', PATHS.lookup('v2', v2Order.uuid), undefined, token);
    expect(v2.body).toMatchObject({ uuid: v2Order.uuid, amount: '1250', links: v2Order.links });
    const v2ShortId = v2Order.uuid.replaceAll('-', '').slice(0, 16);
    expect((await call(sb.url, 'GET', PATHS.lookup('v2', v2ShortId), undefined, token)).status).toBe(404);
  });

  it('an order belongs to the version that created it: the other version answers 404', async () => {
    const token = await tokenFor(sb.url);
    const v1 = await createOrder(sb.url, token, 'v1');
    const v2 = await createOrder(sb.url, token, 'v2');
    const v2ShortId = v2.uuid.replaceAll('-', '').slice(0, 16);
    for (const path of [
      PATHS.lookup('v1', v2.uuid),
      PATHS.lookup('v1', v2ShortId),
      PATHS.lookup('v2', v1.uuid),
      PATHS.lookup('v1', v2.id),
    ]) {
      const reply = await call(sb.url, 'GET', path, undefined, token);
      expect([path, reply.status, reply.body]).toEqual([path, 404, { message: 'Order not found' }]);
    }
    // Each is still found where it was created.
    expect((await call(sb.url, 'GET', PATHS.lookup('v1', v1.uuid), undefined, token)).body.uuid).toBe(
      v1.uuid,
    );
    expect((await call(sb.url, 'GET', PATHS.lookup('v2', v2.uuid), undefined, token)).body.uuid).toBe(
      v2.uuid,
    );
  });

  it('orders belong to the account that created them', async () => {
    const mine = await tokenFor(sb.url);
    const created = await createOrder(sb.url, mine);
    const theirs = await tokenFor(sb.url, 'v2', OTHER);
    const reply = await call(sb.url, 'GET', PATHS.lookup('v2', created.uuid), undefined, theirs);
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ message: 'Order not found' });
  });

  it('requires a token', async () => {
    const reply = await call(sb.url, 'GET', PATHS.lookup('v2', 'x'));
    expect(reply.status).toBe(401);
  });
});

// The spec switches v1 off after its sunset day and shows no status for it: the sandbox answers 410
// Gone, with the endpoint's error field saying so, by its own clock (POST /_sandbox/clock), so that
// a merchant can rehearse the day.
describe('the v1 sunset on the sandbox clock', () => {
  const GONE = 'API v1 was switched off on 2026-12-31; use API v2';
  const setClock = (now: string) => call(sb.url, 'POST', '/_sandbox/clock', { now });

  it('on its last day v1 still answers; from the next day on every v1 route is 410, v2 goes on', async () => {
    await setClock('2026-12-31T23:59:00Z');
    const token = await tokenFor(sb.url, 'v1');
    const order = await createOrder(sb.url, token, 'v1');
    expect(order.id).toEqual(expect.any(String));

    await setClock('2027-01-01T00:00:00Z');
    expect(await call(sb.url, 'POST', PATHS.token('v1'), tokenBody('v1'))).toMatchObject({
      status: 410,
      body: { description: GONE },
    });
    expect(await call(sb.url, 'POST', PATHS.checkout('v1'), orderBody('v1'), token)).toMatchObject({
      status: 410,
      body: { message: GONE },
    });
    expect(await call(sb.url, 'GET', PATHS.lookup('v1', order.id), undefined, token)).toMatchObject({
      status: 410,
      body: { message: GONE },
    });
    const v2 = await tokenFor(sb.url, 'v2');
    expect((await call(sb.url, 'POST', PATHS.checkout('v2'), orderBody('v2'), v2)).status).toBe(200);
    const statuses = (await call(sb.url, 'GET', '/_sandbox/journal?version=v1')).body.entries.map(
      (entry: { status: number }) => entry.status,
    );
    expect(statuses.slice(-3)).toEqual([410, 410, 410]);
  });

  it('a forced error or fault on v1 does not bring it back after the sunset', async () => {
    await setClock('2027-03-01T12:00:00Z');
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'token', error: '3006' });
    expect((await call(sb.url, 'POST', PATHS.token('v1'), tokenBody('v1'))).status).toBe(410);
  });
});

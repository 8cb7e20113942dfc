import { describe, expect, it } from 'vitest';
import { CATALOG, errorBody, matchCatalog } from '../../src/contract/catalog.js';
import {
  orderRequestBody,
  orderResponseBody,
  parseJsonExact,
  readOrder,
  readOrderRequest,
} from '../../src/contract/schemas.js';
import { readTokenRequest, tokenRequestBody } from '../../src/contract/token.js';
import { daysUntilSunset, PATHS } from '../../src/contract/versions.js';

const credentials = { username: 'shop', clientId: 'cid', clientSecretId: 'sec' };
const draft = { amountCents: 1250n, description: 'Tea', successUrl: 'https://s/ok', failUrl: 'https://s/ko' };

describe('token request', () => {
  it('names the user field per version', () => {
    expect(tokenRequestBody('v1', credentials)).toEqual({
      user_name: 'shop',
      client_id: 'cid',
      client_secret_id: 'sec',
      grant_type: 'client_credentials',
    });
    expect(tokenRequestBody('v2', credentials)).toEqual({
      username: 'shop',
      client_id: 'cid',
      client_secret_id: 'sec',
      grant_type: 'client_credentials',
    });
  });

  it("treats the other version's user field as missing", () => {
    expect(readTokenRequest('v2', tokenRequestBody('v1', credentials))).toBeUndefined();
    expect(readTokenRequest('v1', tokenRequestBody('v2', credentials))).toBeUndefined();
    expect(
      readTokenRequest('v2', { ...tokenRequestBody('v2', credentials), client_id: '  ' }),
    ).toBeUndefined();
    expect(readTokenRequest('v2', tokenRequestBody('v2', credentials))).toMatchObject(credentials);
  });
});

describe('order request', () => {
  it('v1 sends a decimal and userName, v2 cents and never userName', () => {
    expect(orderRequestBody('v1', draft, 'shop')).toEqual({
      amount: '12.50',
      description: 'Tea',
      userName: 'shop',
      callback_success: 'https://s/ok',
      callback_fail: 'https://s/ko',
    });
    const v2 = orderRequestBody('v2', { ...draft, externalReference: 'INV-1' }, 'shop');
    expect(v2).toEqual({
      amount: '1250',
      description: 'Tea',
      callback_success: 'https://s/ok',
      callback_fail: 'https://s/ko',
      external_reference: 'INV-1',
    });
    expect(v2).not.toHaveProperty('userName');
  });

  it('reads what it writes, and spots a bad amount or a missing field', () => {
    expect(readOrderRequest('v2', orderRequestBody('v2', draft))).toEqual({ draft });
    expect(readOrderRequest('v1', orderRequestBody('v1', draft, 'shop'))).toEqual({
      draft,
      userName: 'shop',
    });
    expect(readOrderRequest('v2', { ...orderRequestBody('v2', draft), amount: '12.50' })).toEqual({
      problem: 'amount',
    });
    expect(readOrderRequest('v1', { ...orderRequestBody('v1', draft, 'x'), amount: '1,50' })).toEqual({
      problem: 'amount',
    });
    expect(readOrderRequest('v1', { ...orderRequestBody('v1', draft, 'x'), amount: 12.5 })).toEqual({
      problem: 'amount',
    });
    const { description: _, ...missing } = orderRequestBody('v2', draft);
    expect(readOrderRequest('v2', missing)).toEqual({ problem: 'missing' });
  });
});

describe('order shape', () => {
  const stored = {
    version: 'v1' as const,
    id: '/1/order/abc',
    uuid: 'u-1',
    status: 'PENDING',
    amountCents: 9223372036854775807n,
    currency: '840',
    orderNumber: '100001',
    refNumber: 'REF1',
    checkoutUrl: 'http://x/pay/u-1',
    successUrl: 'https://s/ok',
    failUrl: 'https://s/ko',
  };

  it('v1 amounts are JSON numbers read back exactly', () => {
    const text = JSON.stringify(orderResponseBody(stored));
    expect(text).toContain('"amount":92233720368547758.07');
    expect(text).toContain('"checkoutLink"');
    const order = readOrder('v1', parseJsonExact(text));
    expect(order?.amount).toBe('92233720368547758.07');
    expect(order?.links.checkout).toBe('http://x/pay/u-1');
    expect(order?.external_reference).toBeNull();
  });

  it('an amount number at any depth keeps its digits; other numbers and string amounts stay as parsed', () => {
    const text = '{"count":2,"orders":[{"amount":"1999"},{"inner":{"amount":92233720368547758.07}}]}';
    expect(parseJsonExact(text)).toEqual({
      count: 2,
      orders: [{ amount: '1999' }, { inner: { amount: '92233720368547758.07' } }],
    });
    expect(parseJsonExact('{"amount":"1999","n":0.1}')).toEqual({ amount: '1999', n: 0.1 });
  });

  it('v2 and v1 give the same keys', () => {
    const v2 = readOrder(
      'v2',
      parseJsonExact(JSON.stringify(orderResponseBody({ ...stored, version: 'v2', externalReference: 'R' }))),
    );
    const v1 = readOrder('v1', parseJsonExact(JSON.stringify(orderResponseBody(stored))));
    expect(Object.keys(v2!).sort()).toEqual(Object.keys(v1!).sort());
    expect(v2).toMatchObject({
      amount: '92233720368547758.07',
      amount_cents: '9223372036854775807',
      currency: null,
      external_reference: 'R',
    });
  });

  it("reads the reference sample's links.checkout on v1", () => {
    const body = {
      ...JSON.parse(JSON.stringify(orderResponseBody(stored))),
      links: { checkout: 'http://c' },
    };
    expect(readOrder('v1', body)?.links.checkout).toBe('http://c');
  });
});

describe('catalog', () => {
  it('has every row of spec §7 with its exact text', () => {
    expect(CATALOG).toHaveLength(13);
    expect(errorBody(CATALOG.find((e) => e.id === '3006')!)).toEqual({
      code: '3006',
      description: 'Error authenticating user. Invalid credentials',
    });
    expect(errorBody(CATALOG.find((e) => e.id === 'token-500')!)).toEqual({
      description: 'Something bad happened. Please try again.',
    });
    expect(errorBody(CATALOG.find((e) => e.id === 'unauthorized')!)).toEqual({ message: 'Unauthorized' });
  });

  it('matches answers by code, and the code-less ones by status and text', () => {
    for (const entry of CATALOG)
      expect(matchCatalog(entry.endpoint, entry.status, errorBody(entry))?.id).toBe(entry.id);
    expect(matchCatalog('order', 403, { message: 'nope' })).toBeUndefined();
  });
});

describe('versions', () => {
  // The paths as the spec writes them (§4), typed out: the other tests take them from PATHS.
  it('builds paths per version', () => {
    expect(PATHS.token('v1')).toBe('/1/auth/token');
    expect(PATHS.checkout('v2')).toBe('/v2/api/checkout');
    expect(PATHS.lookup('v1', 'abc')).toBe('/1/order/abc');
    expect(PATHS.lookup('v2', 'a b')).toBe('/v2/api/orders/a%20b');
    expect(PATHS.lookup('v2')).toBe('/v2/api/orders/:uuid');
  });

  it('counts days to the sunset by the given clock', () => {
    expect(daysUntilSunset(new Date('2026-11-22T10:00:00Z'))).toBe(39);
    expect(daysUntilSunset(new Date('2026-12-31T23:59:00Z'))).toBe(0);
    expect(daysUntilSunset(new Date('2027-01-01T00:00:00Z'))).toBe(-1);
  });
});

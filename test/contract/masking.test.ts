import { describe, expect, it } from 'vitest';
import { MASK, maskAuthorization, maskBody, maskText } from '../../src/contract/masking.js';
import { PATHS } from '../../src/contract/versions.js';
import { SECRET } from '../helpers/cli.js';

// Shaped like a real token (header.payload.signature, base64url); never a valid one.
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzaG9wLWNsaWVudC03In0.c2lnbmF0dXJlLV9fLXBhcnQ';

// The secret field names are spelled here as the spec spells them (§2.1, §2.2), not taken from
// the contract's constants: the test is the independent check that those constants name the
// fields the service really sends.
describe('maskBody', () => {
  it('masks the client secret of a token request, in both versions, and keeps the rest', () => {
    const v1 = {
      user_name: 'shop',
      client_id: 'cid',
      client_secret_id: 's3cret',
      grant_type: 'client_credentials',
    };
    const v2 = {
      username: 'shop',
      client_id: 'cid',
      client_secret_id: 's3cret',
      grant_type: 'client_credentials',
    };
    expect(maskBody(v1)).toEqual({ ...v1, client_secret_id: MASK });
    expect(maskBody(v2)).toEqual({ ...v2, client_secret_id: MASK });
  });

  it('masks the access token of a token response and keeps its lifetime and type', () => {
    expect(maskBody({ access_token: JWT, expires_in: 86400, token_type: 'Bearer' })).toEqual({
      access_token: MASK,
      expires_in: 86400,
      token_type: 'Bearer',
    });
  });

  it('masks secret fields at any depth, inside objects and arrays', () => {
    const body = {
      entries: [
        { request: { body: { client_secret_id: 's3cret', client_id: 'cid' } } },
        { response: { body: { access_token: JWT } } },
      ],
      tokens: [[{ access_token: JWT }]],
    };
    expect(maskBody(body)).toEqual({
      entries: [
        { request: { body: { client_secret_id: MASK, client_id: 'cid' } } },
        { response: { body: { access_token: MASK } } },
      ],
      tokens: [[{ access_token: MASK }]],
    });
  });

  it('masks a secret field whatever its value is', () => {
    expect(maskBody({ client_secret_id: 12345, access_token: { nested: 'x' } })).toEqual({
      client_secret_id: MASK,
      access_token: MASK,
    });
    expect(maskBody({ access_token: null })).toEqual({ access_token: MASK });
  });

  it('returns a copy and leaves the original body untouched', () => {
    const body = { client_secret_id: 's3cret', nested: { access_token: JWT } };
    const masked = maskBody(body);
    expect(masked).not.toBe(body);
    expect(body).toEqual({ client_secret_id: 's3cret', nested: { access_token: JWT } });
  });

  it.each([['text'], [42], [true], [null], [undefined]])(
    'returns %j, which is not an object, as it is',
    (value) => {
      expect(maskBody(value)).toBe(value);
    },
  );

  it('keeps bodies without secrets equal', () => {
    const order = { amount: '1250', description: 'Tea', links: { checkout_link: 'https://pay.example/c/1' } };
    expect(maskBody(order)).toEqual(order);
    expect(maskBody([1, 'two', { three: 3 }])).toEqual([1, 'two', { three: 3 }]);
  });
});

describe('maskAuthorization', () => {
  it.each([
    [`Bearer ${JWT}`, `Bearer ${MASK}`],
    ['Basic c2hvcDpzM2NyZXQ=', `Basic ${MASK}`],
    ['Bearer  two-spaces', `Bearer ${MASK}`],
    [JWT, MASK],
    ['Bearer', MASK],
    [` Bearer ${JWT}`, MASK],
    ['', MASK],
  ])('shows %j as %j', (value, shown) => {
    expect(maskAuthorization(value)).toBe(shown);
  });

  it('leaves an absent header absent', () => {
    expect(maskAuthorization(undefined)).toBe(undefined);
  });
});

describe('maskText', () => {
  it('masks every token in free text', () => {
    const text = `→ authorization: Bearer ${JWT}\n← {"access_token":"${JWT}","token_type":"Bearer"}`;
    expect(maskText(text)).toBe(
      `→ authorization: Bearer ${MASK}\n← {"access_token":"${MASK}","token_type":"Bearer"}`,
    );
  });

  it('masks every occurrence of each given secret, read literally', () => {
    const secrets = [SECRET, 'a.b*c+(d)'];
    expect(maskText(`sent ${SECRET} twice: ${SECRET}; and a.b*c+(d), not aXbbc`, secrets)).toBe(
      `sent ${MASK} twice: ${MASK}; and ${MASK}, not aXbbc`,
    );
  });

  it('leaves secrets shorter than 4 characters alone, which would mask ordinary words', () => {
    expect(maskText('the cat sat', ['cat', 'at'])).toBe('the cat sat');
    expect(maskText('the cats sat', ['cats'])).toBe(`the ${MASK} sat`);
  });

  it('keeps text without tokens or secrets as it is', () => {
    const text = `POST ${PATHS.checkout('v2')} {"amount":"1250","description":"eyJ is not a token"}`;
    expect(maskText(text, [SECRET])).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_EXPIRES_IN, readTokenResponse } from '../../src/contract/token.js';

const ANSWER = { access_token: 'eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl', expires_in: 86_400, token_type: 'Bearer' };

describe('readTokenResponse', () => {
  it('reads the reference answer', () => {
    expect(readTokenResponse(ANSWER)).toEqual({
      ok: true,
      token: { accessToken: ANSWER.access_token, expiresIn: 86_400, tokenType: 'Bearer' },
    });
  });

  it('accepts a lifetime of one year, and an opaque token of visible ASCII', () => {
    const reading = readTokenResponse({
      ...ANSWER,
      access_token: 'a~!#$%&*+/=?^_`{|}',
      expires_in: MAX_EXPIRES_IN,
    });
    expect(reading.ok).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ['a list', [ANSWER], 'body'],
    ['null', null, 'body'],
    ['a text', 'token', 'body'],
    ['no access_token', { ...ANSWER, access_token: undefined }, 'access_token'],
    ['a number as access_token', { ...ANSWER, access_token: 42 }, 'access_token'],
    ['a tab in access_token', { ...ANSWER, access_token: 'a\tb' }, 'access_token'],
    ['non-ASCII in access_token', { ...ANSWER, access_token: 'tökén' }, 'access_token'],
    ['a DEL in access_token', { ...ANSWER, access_token: 'a\u007f' }, 'access_token'],
    ['no expires_in', { ...ANSWER, expires_in: undefined }, 'expires_in'],
    ['a negative expires_in', { ...ANSWER, expires_in: -5 }, 'expires_in'],
    ['an infinite expires_in', { ...ANSWER, expires_in: Number.POSITIVE_INFINITY }, 'expires_in'],
    ['no token_type', { ...ANSWER, token_type: undefined }, 'token_type'],
    ['every field wrong: the first is named', { access_token: 1, expires_in: 'x' }, 'access_token'],
  ])('%s: refused naming the field', (_, body, field) => {
    const reading = readTokenResponse(body);
    expect(reading).toEqual({ ok: false, field, rule: expect.stringMatching(/^must /) });
  });
});

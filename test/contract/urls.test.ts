/**
 * The address rules: every callback link and base address is an absolute http(s) URL written out in
 * full, sent exactly as given; a base address has no credentials, no version prefix and no endpoint.
 */
import { describe, expect, it } from 'vitest';
import { checkBaseUrl, checkHttpUrl, parsedUrl } from '../../src/contract/urls.js';
import { refusal } from '../helpers/refusal.js';

describe('parsedUrl', () => {
  it('parses a text once and gives the same URL the next times; a text that is no URL throws every time', () => {
    const url = parsedUrl('https://pay.example/v2/api/checkout');
    expect(url.href).toBe('https://pay.example/v2/api/checkout');
    expect(parsedUrl('https://pay.example/v2/api/checkout')).toBe(url);
    expect(parsedUrl('HTTPS://Pay.Example/v2/api/checkout').href).toBe(url.href);
    for (let i = 0; i < 2; i++) expect(() => parsedUrl('not a url')).toThrow(TypeError);
  });

  it('keeps a bounded number of them: after a hundred other texts, the first is parsed again', () => {
    const first = parsedUrl('https://shop.example/ok/first');
    const texts = Array.from({ length: 100 }, (_, i) => `https://shop.example/ok/${i}`);
    for (const text of [...texts, ...texts]) expect(parsedUrl(text).pathname).toBe(text.slice(20));
    const again = parsedUrl('https://shop.example/ok/first');
    expect(again).not.toBe(first);
    expect(again.href).toBe(first.href);
  });
});

describe('checkHttpUrl', () => {
  it.each([
    'https://shop.example/thanks',
    'http://127.0.0.1:4010/ok?order=1&x=%20',
    'HTTPS://shop.example/ok',
    'https://[::1]/ok',
    'https://shop.example',
  ])('%s is kept exactly as given', (value) => {
    expect(checkHttpUrl('--success', value)).toBe(value);
  });

  it.each([
    [' https://x/ok', 'must be a URL without spaces or control characters, got " https://x/ok"'],
    ['https://x/ok ', 'must be a URL without spaces or control characters, got "https://x/ok "'],
    ['https://x/o\nk', 'must be a URL without spaces or control characters, got "https://x/o\\nk"'],
    ['https://x/a\tb', 'must be a URL without spaces or control characters, got "https://x/a\\tb"'],
    ['https://x/\u001b[2J', 'must be a URL without spaces or control characters, got "https://x/\\u001b[2J"'],
    ['https://x/\u0085', 'must be a URL without spaces or control characters'],
    ['https://x/\u00a0', 'must be a URL without spaces or control characters'],
    ['http:s.example', 'must be an absolute http(s) URL like https://host/path, got "http:s.example"'],
    ['http:/s.example', 'must be an absolute http(s) URL like https://host/path, got "http:/s.example"'],
    ['https:///x', 'must be an absolute http(s) URL like https://host/path'],
    ['https:\\\\x/ok', 'must be an absolute http(s) URL like https://host/path'],
    ['//x/ok', 'must be an absolute http(s) URL, got "//x/ok"'],
    ['not-a-url', 'must be an absolute http(s) URL, got "not-a-url"'],
    ['', 'must be an absolute http(s) URL, got ""'],
    ['ftp://x', 'must be an absolute http(s) URL, got a ftp URL'],
    ['javascript:alert(1)', 'must be an absolute http(s) URL, got a javascript URL'],
    ['https://x:99999/', 'must be an absolute http(s) URL'],
  ])('%j is refused: a usage error naming the field and the rule, on one line', (value, rule) => {
    const error = refusal(() => checkHttpUrl('--success', value));
    expect([error.kind, error.exitCode, error.details.field]).toEqual(['usage', 2, '--success']);
    expect(error.message).toContain(`--success: ${rule}`);
    // JSON-quoted: a line break or an escape sequence in the value cannot break the line.
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('checkBaseUrl', () => {
  it.each([
    ['https://auth.stage.example.com', 'https://auth.stage.example.com'],
    ['https://auth.stage.example.com/', 'https://auth.stage.example.com'],
    ['https://auth.stage.example.com//', 'https://auth.stage.example.com'],
    ['https://gateway.example/payments/', 'https://gateway.example/payments'],
    ['https://auth.example/10', 'https://auth.example/10'],
    ['https://auth.example/v2/apix', 'https://auth.example/v2/apix'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
  ])('%s is kept as %s (without trailing slashes)', (value, kept) => {
    expect(checkBaseUrl('stage.v2.auth-url', value)).toBe(kept);
  });

  // The prefixes as the spec writes them (§4), typed out: this is the rule's own test.
  it.each([
    ['https://auth.example/v2/api', '/v2/api'],
    ['https://auth.example/v2/api/', '/v2/api'],
    ['https://auth.example/v2/api/auth/token', '/v2/api'],
    ['https://auth.example/v2/api?x=1', '/v2/api'],
    ['https://auth.example/1', '/1'],
    ['https://auth.example/1/auth/token', '/1'],
    ['https://auth.example/gateway/1/checkout', '/1'],
  ])('%s already holds the version prefix %s: refused, naming the rule', (value, prefix) => {
    const error = refusal(() => checkBaseUrl('stage.v2.auth-url', value));
    expect([error.kind, error.exitCode, error.details.field]).toEqual(['usage', 2, 'stage.v2.auth-url']);
    expect(error.message).toBe(
      `stage.v2.auth-url: give the base address without "${prefix}" or a path after it; payorder appends ${prefix}/… itself (got ${JSON.stringify(value)})`,
    );
  });

  it.each([
    'https://auth.example/auth/token',
    'https://checkout.example/checkout',
    'https://checkout.example/orders',
    'https://checkout.example/order/',
  ])('%s is an endpoint, not a base: refused', (value) => {
    expect(refusal(() => checkBaseUrl('PAYORDER_CHECKOUT_URL', value)).message).toBe(
      `PAYORDER_CHECKOUT_URL: give the base address, not an endpoint; payorder appends the path itself (got ${JSON.stringify(value)})`,
    );
  });

  // The endpoint rule looks at the end of the path only: a base whose path merely contains such a word is one.
  it.each([
    'https://gw.example/checkout-eu',
    'https://gw.example/checkout/eu',
    'https://gw.example/orders-api',
    'https://gw.example/my-auth/token-service',
  ])('%s is a base address, kept', (value) => {
    expect(checkBaseUrl('PAYORDER_CHECKOUT_URL', value)).toBe(value);
  });

  it.each([
    'https://user:pw-9f2c@auth.example',
    'https://user@auth.example',
    'https://:pw-9f2c@auth.example/base',
  ])('%s carries credentials: refused without repeating them', (value) => {
    const error = refusal(() => checkBaseUrl('--auth-url', value));
    expect(error.message).toBe(
      '--auth-url: must not contain a user name or password; payorder sends credentials itself',
    );
    expect(error.message).not.toContain('pw-9f2c');
    expect(error.details.hint ?? '').not.toContain('pw-9f2c');
  });

  // An address with a password that also breaks another rule (a space, an invalid port) is refused
  // by the first check that sees it; its message must not repeat the password either.
  it('a refused base address with a password never repeats the password', () => {
    for (const value of ['https://user:pw-9f2c@auth.example/ ', 'https://user:pw-9f2c@auth.example:99999'])
      expect(refusal(() => checkBaseUrl('--auth-url', value)).message).not.toContain('pw-9f2c');
  });

  // payorder appends the path to a base address: with a query ("?x=1") the path would land in the
  // query and the credentials go to the host's root; with a fragment it would never be sent.
  it.each(['https://auth.example?x=1', 'https://auth.example/base#f'])(
    '%s has a query or a fragment, which the path would be appended to: refused',
    (value) => {
      expect(refusal(() => checkBaseUrl('stage.v2.auth-url', value)).kind).toBe('usage');
    },
  );
});

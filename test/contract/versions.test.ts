import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  type ApiVersion,
  daysUntilSunset,
  joinUrl,
  PATHS,
  PREFIX,
  V1_SUNSET,
} from '../../src/contract/versions.js';

const DAY = 86_400_000;
/** Midnight UTC at the start of the sunset day, the last day v1 answers. */
const sunset = Date.parse(`${V1_SUNSET}T00:00:00Z`);
const at = (ms: number) => new Date(ms);

describe('versions', () => {
  it('has v1 and v2, with v1 ending on the last day of 2026 (spec §9)', () => {
    expect(API_VERSIONS).toEqual(['v1', 'v2']);
    expect(V1_SUNSET).toBe('2026-12-31');
  });

  // Typed out as the spec writes them: the other tests take the prefixes from PREFIX.
  it('carries the version in the address prefix (spec §9)', () => {
    expect(PREFIX).toEqual({ v1: '/1', v2: '/v2/api' });
  });
});

describe('PATHS', () => {
  it.each(API_VERSIONS)('puts the %s prefix before the token and checkout paths (spec §4)', (version) => {
    expect(PATHS.token(version)).toBe(`${PREFIX[version]}/auth/token`);
    expect(PATHS.checkout(version)).toBe(`${PREFIX[version]}/checkout`);
  });

  it.each<[ApiVersion, string]>([
    ['v1', '/order/:id'],
    ['v2', '/orders/:uuid'],
  ])('gives the %s lookup route pattern %s when no id is given (spec §4.3)', (version, route) => {
    expect(PATHS.lookup(version)).toBe(`${PREFIX[version]}${route}`);
  });

  it('puts the id into the lookup path', () => {
    expect(PATHS.lookup('v1', '1234')).toBe(`${PREFIX.v1}/order/1234`);
    expect(PATHS.lookup('v2', '7f1c2b1e-8a59-4c1f-9d3e-2b7f0c8e4a11')).toBe(
      `${PREFIX.v2}/orders/7f1c2b1e-8a59-4c1f-9d3e-2b7f0c8e4a11`,
    );
  });

  it.each([
    ['../../auth/token', '..%2F..%2Fauth%2Ftoken'],
    ['a b?c=d#e', 'a%20b%3Fc%3Dd%23e'],
    ['$&', '%24%26'],
    ["$'x", "%24'x"],
    ['ünï', '%C3%BCn%C3%AF'],
  ])('encodes the id %j so it stays one path segment', (id, segment) => {
    expect(PATHS.lookup('v2', id)).toBe(`${PREFIX.v2}/orders/${segment}`);
  });
});

describe('joinUrl', () => {
  it.each([
    ['https://pay.example', 'https://pay.example/1/checkout'],
    ['https://pay.example/', 'https://pay.example/1/checkout'],
    ['https://pay.example/gateway///', 'https://pay.example/gateway/1/checkout'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/1/checkout'],
  ])('joins %s and a path with exactly one slash', (base, url) => {
    expect(joinUrl(base, PATHS.checkout('v1'))).toBe(url);
  });
});

describe('daysUntilSunset', () => {
  it.each([
    ['a year before', sunset - 365 * DAY, 365],
    ['the day before, at midnight', sunset - DAY, 1],
    ['the day before, one millisecond before midnight', sunset - 1, 1],
    ['the sunset day, at midnight', sunset, 0],
    ['the sunset day, at noon', sunset + DAY / 2, 0],
    ['the sunset day, one millisecond before the end', sunset + DAY - 1, 0],
    ['the day after, at midnight', sunset + DAY, -1],
    ['thirty days after', sunset + 30 * DAY + 5, -30],
  ])('counts %s as %i', (_, ms, days) => {
    expect(daysUntilSunset(at(ms))).toBe(days);
  });

  it('counts across a leap year', () => {
    // 2024 is a leap year: from 2023-12-31 to 2026-12-31 is 366 + 365 + 365 days.
    expect(daysUntilSunset(new Date('2023-12-31T08:00:00Z'))).toBe(1096);
  });

  it('counts by the UTC date, whatever offset the clock was written with', () => {
    // 23:30 in New York on the sunset day is already the next day in UTC.
    expect(daysUntilSunset(new Date('2026-12-31T23:30:00-05:00'))).toBe(-1);
    // 00:30 in Tokyo on the sunset day is still the day before in UTC.
    expect(daysUntilSunset(new Date('2026-12-31T00:30:00+09:00'))).toBe(1);
  });
});

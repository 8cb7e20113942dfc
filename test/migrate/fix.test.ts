import { describe, expect, it } from 'vitest';
import { convertItem, fixHar, fixNdjson } from '../../src/migrate/fix.js';

const order = (amount: string) => ({
  amount,
  description: 'Tea',
  userName: 'u',
  callback_success: 'https://s.example/ok',
  callback_fail: 'https://s.example/ko',
});

describe('--fix conversions', () => {
  it('a v1 amount without a decimal point is converted, with a note asking to confirm it is not cents already', () => {
    expect(convertItem(order('4500'))).toEqual({
      value: {
        amount: '450000',
        description: 'Tea',
        callback_success: 'https://s.example/ok',
        callback_fail: 'https://s.example/ko',
      },
      notes: ['amount "4500" → "450000": confirm "4500" is whole units (v1), not already cents'],
    });
    expect(convertItem(order('45.00'))).toMatchObject({ value: { amount: '4500' }, notes: [] });
  });

  it('a v1 lookup by id is not turned into /orders/<v1 id>: v2 needs the uuid', () => {
    const conversion = convertItem({ method: 'GET', url: 'https://pay.example.com/1/order/9a8b' });
    expect(conversion).toEqual({
      failed:
        'v2 looks an order up by its uuid (GET /v2/api/orders/:uuid); "9a8b" is a v1 id, so there is no v2 request to write: use the order\'s uuid',
    });
  });

  it('NDJSON keeps every line in its place: blank, broken and unconvertible lines stay as they were', () => {
    const lines = [
      { label: 'line 1', value: order('1.50'), text: JSON.stringify(order('1.50')), parsed: true },
      { label: 'line 2', value: undefined, text: '', parsed: true },
      { label: 'line 3', value: undefined, text: '{"amount": ', parsed: false },
      { label: 'line 4', value: order('1,00'), text: '{"amount": "1,00"}', parsed: true },
    ];
    const fixed = fixNdjson('o.ndjson', lines);
    expect(fixed.text.split('\n')).toEqual([
      expect.stringContaining('"amount":"150"'),
      '',
      '{"amount": ',
      '{"amount": "1,00"}',
      '',
    ]);
    expect(fixed.unconverted).toBe(2);
    expect(fixed.notes).toEqual([
      'o.ndjson line 3: kept as it was: it is not valid JSON (see its finding)',
      'o.ndjson line 4: kept as it was: it cannot be converted (see its findings)',
    ]);
  });

  it("a HAR: only the service's v1 token and order requests are rewritten", () => {
    const entry = (method: string, url: string, body?: unknown) => ({
      request: {
        method,
        url,
        headers: [],
        ...(body ? { postData: { mimeType: 'application/json', text: JSON.stringify(body) } } : {}),
      },
      response: { status: 200, content: {} },
    });
    const har = {
      log: {
        entries: [
          entry('POST', 'https://a.example.com/1/auth/token', {
            user_name: 'u',
            client_id: 'c',
            client_secret_id: 's',
            grant_type: 'client_credentials',
          }),
          entry('POST', 'https://track.example.com/collect', order('1.50')),
          entry('POST', 'https://p.example.com/1/checkout', order('1.50')),
          entry('POST', 'https://p.example.com/v2/api/checkout', { ...order('150'), userName: undefined }),
        ],
      },
    };
    const fixed = JSON.parse(fixHar('x.har', har).text).log.entries;
    expect(fixed.map((e: any) => e.request.url)).toEqual([
      'https://a.example.com/v2/api/auth/token',
      'https://track.example.com/collect',
      'https://p.example.com/v2/api/checkout',
      'https://p.example.com/v2/api/checkout',
    ]);
    expect(fixed[1]).toEqual(har.log.entries[1]);
    expect(JSON.parse(fixed[2].request.postData.text)).not.toHaveProperty('userName');
  });
});

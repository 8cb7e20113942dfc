import { describe, expect, it } from 'vitest';
import { checkPostman, isPostmanCollection } from '../../src/migrate/postman.js';
import { fixPostman } from '../../src/migrate/postman-fix.js';

/** The 1-based line of the first line holding `needle`. */
const lineOf = (text: string, needle: string) =>
  text.split('\n').findIndex((line) => line.includes(needle)) + 1;

const v21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

const collection = {
  info: { _postman_id: 'c-1', name: 'PayOrder', schema: v21 },
  variable: [
    { key: 'auth_url', value: 'https://auth.example.com' },
    { key: 'checkout_url', value: 'https://pay.example.com/1' },
    { key: 'order_id', value: '' },
  ],
  event: [
    {
      listen: 'test',
      script: { exec: ["pm.test('open', () => pm.expect(json.status).to.eql('PENDING'));"] },
    },
  ],
  item: [
    {
      name: 'Auth',
      item: [
        {
          name: 'Get token',
          request: {
            method: 'POST',
            body: {
              mode: 'raw',
              raw: '{\n  "user_name": "{{user}}",\n  "client_id": "{{client_id}}",\n  "client_secret_id": "{{secret}}",\n  "grant_type": "client_credentials"\n}',
            },
            url: { raw: '{{auth_url}}/1/auth/token', host: ['{{auth_url}}'], path: ['1', 'auth', 'token'] },
          },
        },
      ],
    },
    {
      name: 'Create order',
      event: [
        { listen: 'prerequest', script: { exec: ["pm.variables.set('amount', total.toFixed(2));"] } },
        {
          listen: 'test',
          script: {
            exec: [
              'const json = pm.response.json();',
              "pm.collectionVariables.set('pay_url', json.links.checkoutLink);",
              "pm.collectionVariables.set('order_id', json.orderNumber);",
            ],
          },
        },
      ],
      request: {
        method: 'POST',
        body: {
          mode: 'raw',
          raw: '{"amount": {{amount}}, "description": "Tea", "userName": "{{user}}", "callback_success": "https://s.example/ok", "callback_fail": "https://s.example/ko"}',
        },
        url: '{{checkout_url}}/checkout',
      },
    },
    {
      name: 'Get order',
      request: { method: 'GET', url: { raw: '{{checkout_url}}/order/{{order_id}}' } },
    },
    {
      name: 'v2 order (ready)',
      request: {
        method: 'POST',
        body: {
          mode: 'raw',
          raw: '{"amount": "{{cents}}", "description": "Tea", "callback_success": "https://s.example/ok", "callback_fail": "https://s.example/ko"}',
        },
        url: 'https://pay.v2.example.com/v2/api/checkout',
      },
    },
  ],
};

describe('Postman collections', () => {
  it('tells a collection (v2.0 or v2.1) from other JSON', () => {
    expect(isPostmanCollection(collection)).toBe(true);
    expect(
      isPostmanCollection({ ...collection, info: { name: 'x', schema: v21.replace('v2.1.0', 'v2.0.0') } }),
    ).toBe(true);
    expect(isPostmanCollection({ info: { name: 'x' }, item: [] })).toBe(false);
    expect(isPostmanCollection([{ item: [] }])).toBe(false);
  });

  it('requests, raw bodies with {{variables}}, variables, nested folders and scripts: rule, request, JSON pointer and line', () => {
    const text = JSON.stringify(collection, null, 2);
    const findings = checkPostman(collection, text, 'shop.postman_collection.json');
    const shown = findings.map(
      (f) => `${f.rule} ${f.location.item ?? '-'} ${f.location.pointer} ${f.location.line}`,
    );
    expect(shown).toEqual([
      `PO101 - /variable/1/value ${lineOf(text, 'https://pay.example.com/1')}`,
      `PO101 "Auth / Get token" /item/0/item/0/request/url/raw ${lineOf(text, '"raw": "{{auth_url}}/1/auth/token"')}`,
      `PO102 "Auth / Get token" /item/0/item/0/request/body/raw/user_name ${lineOf(text, 'user_name')}`,
      `PO104 "Create order" /item/1/event/0/script/exec/0 ${lineOf(text, 'toFixed(2)')}`,
      `PO105 "Create order" /item/1/event/1/script/exec/1 ${lineOf(text, 'checkoutLink')}`,
      `PO110 "Create order" /item/1/event/1/script/exec/2 ${lineOf(text, 'json.orderNumber')}`,
      // The v1 base comes from {{checkout_url}}: reported at the variable and where it is used.
      `PO101 "Create order" /item/1/request/url ${lineOf(text, '"url": "{{checkout_url}}/checkout"')}`,
      `PO103 "Create order" /item/1/request/body/raw/userName ${lineOf(text, 'userName')}`,
      // {{amount}} is filled in by the script: neither valid nor invalid, but v1-shaped.
      `PO104 "Create order" /item/1/request/body/raw/amount ${lineOf(text, 'userName')}`,
      `PO101 "Get order" /item/2/request/url/raw ${lineOf(text, '{{checkout_url}}/order/{{order_id}}')}`,
      `PO106 "Get order" /item/2/request/url/raw ${lineOf(text, '{{checkout_url}}/order/{{order_id}}')}`,
      `PO107 - /event/0/script/exec/0 ${lineOf(text, "to.eql('PENDING')")}`,
    ]);
    const byRule = (rule: string) => findings.find((f) => f.rule === rule)!;
    expect(byRule('PO105').message).toBe(
      '"Create order": the script reads the payment link from links.checkoutLink / links.checkout',
    );
    expect(byRule('PO105').location.column).toBe(
      text.split('\n')[lineOf(text, 'checkoutLink') - 1]!.indexOf('checkoutLink') + 1,
    );
    expect(
      findings.find((f) => f.rule === 'PO104' && f.location.pointer?.endsWith('/amount'))!.severity,
    ).toBe('warning');
  });

  it('a v2 collection is ready', () => {
    const ready = {
      info: { name: 'v2', schema: v21 },
      variable: [{ key: 'checkout_url', value: 'https://pay.v2.example.com/v2/api' }],
      item: [
        {
          name: 'Create order',
          event: [
            { listen: 'test', script: { exec: ["pm.expect(json.links.checkout_link).to.be.a('string');"] } },
          ],
          request: {
            method: 'POST',
            body: {
              mode: 'raw',
              raw: '{"amount": "{{cents}}", "description": "Tea", "callback_success": "https://s/ok", "callback_fail": "https://s/ko"}',
            },
            url: '{{checkout_url}}/checkout',
          },
        },
        { name: 'Get order', request: { method: 'GET', url: '{{checkout_url}}/orders/{{order_uuid}}' } },
      ],
    };
    expect(checkPostman(ready, JSON.stringify(ready, null, 2), 'v2.json')).toEqual([]);
  });
});

describe('Postman collections, --fix: the v2 collection', () => {
  const fixedOf = async (value: Record<string, unknown>) => {
    const out = await fixPostman('shop.postman_collection.json', value);
    return { ...out, value: JSON.parse(out.text) };
  };

  it('variables, URLs and their path segments, bodies and scripts converted; the v2 request and the comment-free rest untouched; the result has no error left', async () => {
    const { value, notes, unconverted } = await fixedOf(collection);
    expect(unconverted).toBe(0);
    expect(value.variable[1]).toEqual({ key: 'checkout_url', value: 'https://pay.example.com/v2/api' });
    expect(value.variable[0]).toEqual(collection.variable[0]);
    const token = value.item[0].item[0].request;
    expect(token.url).toEqual({
      raw: '{{auth_url}}/v2/api/auth/token',
      host: ['{{auth_url}}'],
      path: ['v2', 'api', 'auth', 'token'],
    });
    expect(JSON.parse(token.body.raw)).toEqual({
      username: '{{user}}',
      client_id: '{{client_id}}',
      client_secret_id: '{{secret}}',
      grant_type: 'client_credentials',
    });
    expect(token.body.raw).toContain('\n  "username"');
    const create = value.item[1];
    expect(JSON.parse(create.request.body.raw)).toEqual({
      amount: '{{amount}}',
      description: 'Tea',
      callback_success: 'https://s.example/ok',
      callback_fail: 'https://s.example/ko',
    });
    expect(create.request.url).toBe('{{checkout_url}}/checkout');
    expect(create.event[0].script.exec[0]).toBe(
      "pm.variables.set('amount', String(Math.round(total * 100)));",
    );
    expect(create.event[1].script.exec).toEqual([
      'const json = pm.response.json();',
      "pm.collectionVariables.set('pay_url', json.links.checkout_link);",
      "pm.collectionVariables.set('order_id', json.uuid);",
    ]);
    expect(value.item[2].request.url.raw).toBe(
      '{{checkout_url}}/v2/api/orders/{{order_id}}'.replace('/v2/api', ''),
    );
    expect(value.item[3]).toEqual(collection.item[3]);
    expect(notes).toContain(
      'shop.postman_collection.json: variable checkout_url now ends in /v2/api; its address keeps its v1 domain, replace it with your v2 one',
    );
    const again = checkPostman(value, JSON.stringify(value, null, 2), 'shop.postman_collection.v2.json');
    expect(again.filter((f) => f.severity === 'error').map((f) => f.rule)).toEqual([]);
  });

  it("the script's amount gives the cents of what toFixed(2) printed, for amounts a float holds inexactly", async () => {
    const { value } = await fixedOf(collection);
    const script = value.item[1].event[0].script.exec[0] as string;
    const set = new Function(
      'total',
      `let amount; const pm = { variables: { set: (_, v) => { amount = v; } } }; ${script} return amount;`,
    );
    expect([set(149.9), set(0.07), set(12), set(1.15), set(0.29), set(1234567.89)]).toEqual([
      '14990',
      '7',
      '1200',
      '115',
      '29',
      '123456789',
    ]);
  });

  it('near miss: a lookup by a v1 id written out, or by a variable no script sets from the answer, is left as it was and counted', async () => {
    const lookups = {
      info: { name: 'lookups', schema: v21 },
      variable: [{ key: 'checkout_url', value: 'https://pay.example.com/1' }],
      event: [{ listen: 'test', script: { exec: ["pm.collectionVariables.set('ref', json.description);"] } }],
      item: [
        { name: 'By id', request: { method: 'GET', url: 'https://pay.example.com/1/order/123' } },
        { name: 'By ref', request: { method: 'GET', url: '{{checkout_url}}/order/{{ref}}' } },
        { name: 'Shop page', request: { method: 'GET', url: 'https://shop.example/order/123' } },
      ],
    };
    const { value, unconverted, notes } = await fixedOf(lookups);
    expect(unconverted).toBe(2);
    expect(value.item).toEqual(lookups.item);
    expect(value.event).toEqual(lookups.event);
    expect(notes.filter((note) => note.includes('kept as it was'))).toHaveLength(2);
  });

  it('urlencoded bodies: user_name renamed, a disabled pair kept, userName left out; an amount written out becomes cents', async () => {
    const bodies = {
      info: { name: 'bodies', schema: v21 },
      item: [
        {
          name: 'Token',
          request: {
            method: 'POST',
            url: 'https://auth.example.com/1/auth/token',
            body: {
              mode: 'urlencoded',
              urlencoded: [
                { key: 'user_name', value: '{{user}}' },
                { key: 'client_secret_id', value: '{{secret}}' },
                { key: 'grant_type', value: 'client_credentials', disabled: true },
              ],
            },
          },
        },
        {
          name: 'Order',
          request: {
            method: 'POST',
            url: 'https://pay.example.com/1/checkout',
            body: {
              mode: 'raw',
              raw: '{"amount": "149.90", "description": "Tea", "userName": "{{user}}", "callback_success": "https://s/ok", "callback_fail": "https://s/ko", "shipping": {"amount": "4.50"}}',
            },
          },
        },
      ],
    };
    const { value } = await fixedOf(bodies);
    expect(value.item[0].request.url).toBe('https://auth.example.com/v2/api/auth/token');
    expect(value.item[0].request.body.urlencoded).toEqual([
      { key: 'username', value: '{{user}}' },
      { key: 'client_secret_id', value: '{{secret}}' },
      { key: 'grant_type', value: 'client_credentials', disabled: true },
    ]);
    expect(JSON.parse(value.item[1].request.body.raw)).toEqual({
      amount: '14990',
      description: 'Tea',
      callback_success: 'https://s/ok',
      callback_fail: 'https://s/ko',
      shipping: { amount: '4.50' },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { checkPostman, isPostmanCollection } from '../../src/migrate/postman.js';

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

/**
 * The rules of src/migrate/syntax/checks.ts through migrate-check's entry point: PO102, PO103 and
 * PO108 on a body's keys (by the kind of body: token, order, or unknown), keys set after the body
 * was made, JSON written inside strings and shell scripts (jq filters), and PO107 on status handling.
 */
import { describe, expect, it } from 'vitest';
import { checkSource } from '../../src/migrate/source.js';

/** Findings as "LINE:COLUMN SEVERITY RULE → replacement". */
const check = async (file: string, lines: string[]) =>
  (await checkSource(lines.join('\n'), file)).map(
    (f) =>
      `${f.location.line}:${f.location.column} ${f.severity} ${f.rule}${f.replacement ? ` → ${f.replacement}` : ''}`,
  );

describe('a body’s v1 keys, by the kind of body', () => {
  it('user_name in a token body, userName and notification_url in an order body; user_name in an order body is only info', async () => {
    expect(
      await check('pay.js', [
        'const t = { user_name: u, client_secret_id: s, grant_type: "client_credentials" };',
        'const o = { userName: u, notification_url: n, callback_success: s };',
        'const p = { user_name: u, userName: v, notification_url: n };',
      ]),
    ).toEqual([
      '1:13 error PO102 → const t = { username: u, client_secret_id: s, grant_type: "client_credentials" };',
      '2:13 error PO103',
      '2:26 warning PO108',
      '3:13 info PO102 → const p = { username: u, userName: v, notification_url: n };',
      '3:27 error PO103',
      '3:40 warning PO108',
    ]);
  });

  it('a key set on a body after it was made takes the kind of the call the body goes to; an unknown body’s key is info; a plain field is not a key', async () => {
    expect(
      await check('pay.py', [
        'import requests',
        'data = {}',
        'data["user_name"] = u',
        'requests.post(AUTH + "/1/auth/token", data=data)',
        'body = {"amount": 100}',
        'body["userName"] = u',
        'body["notification_url"] = n',
        'requests.post(CHECKOUT + "/checkout", json=body)',
        'other = {}',
        'other["userName"] = u',
        'other.userName = u',
        'other["currency"] = c',
      ]),
    ).toEqual([
      '3:7 error PO102 → data["username"] = u',
      '4:23 error PO101 → requests.post(AUTH + "/v2/api/auth/token", data=data)',
      '6:7 error PO103',
      '7:7 warning PO108',
      '10:8 info PO103',
    ]);
  });
});

describe('JSON inside strings, and shell scripts', () => {
  it('a curl body and jq filters: the amount, the keys, the link and the order number', async () => {
    expect(
      await check('pay.sh', [
        '#!/bin/sh',
        'curl -s -X POST "$CHECKOUT_URL/v2/api/checkout" -d \'{"amount": "149.90", "userName": "u", "callback_success": "x"}\'',
        'curl -d \'{"user_name": "u", "client_id": "c"}\' "$AUTH/1/auth/token"',
        'echo "$r" | jq -r .links.checkoutLink',
        'echo "$r" | jq -r .links.checkout',
        'echo "$r" | jq -r .orderNumber',
        'echo "$r" | jq -r ".links.checkout_link"',
        'echo "$r" | jq \'{userName: $u}\'',
      ]),
    ).toEqual([
      '2:65 error PO104',
      '2:75 error PO103',
      '3:12 error PO102 → curl -d \'{"username": "u", "client_id": "c"}\' "$AUTH/v2/api/auth/token"',
      '3:54 error PO101 → curl -d \'{"username": "u", "client_id": "c"}\' "$AUTH/v2/api/auth/token"',
      '4:26 error PO105 → echo "$r" | jq -r .links.checkout_link',
      '5:26 error PO105 → echo "$r" | jq -r .links.checkout_link',
      '6:20 warning PO110',
      '8:18 info PO103',
    ]);
  });

  it('JSON in a string of a file nothing ties to the service: info, with its message', async () => {
    const findings = await checkSource(
      ['// checkout', 'const s = \'{"amount": "149.90", "user_name": "u"}\';'].join('\n'),
      'fixture.js',
    );
    expect(findings.map((f) => `${f.location.line}:${f.location.column} ${f.severity} ${f.rule}`)).toEqual([
      '2:24 info PO104',
      '2:34 info PO102',
    ]);
    expect(findings[0]).toMatchObject({
      message: 'a decimal amount (v1 format)',
      fix: 'send whole cents as an integer string ("149.90" → "14990"), computed with integer arithmetic',
    });
  });

  it('JSON built by concatenation takes its kind from the keys of the whole statement; an amount beside a callback is an error', async () => {
    expect(
      await check('Pay.java', [
        'String body = "{\\"user_name\\":\\"" + user + "\\",\\"client_id\\":\\"" + id + "\\"}";',
        'String s = "{\\"amount\\": \\"1.50\\", \\"callback_success\\": \\"x\\"}";',
        'String t = "{\\"amount\\": \\"1.50\\"}";',
      ]),
    ).toEqual([
      '1:19 error PO102 → String body = "{\\"username\\":\\"" + user + "\\",\\"client_id\\":\\"" + id + "\\"}";',
      '2:28 error PO104',
      '3:28 info PO104',
    ]);
  });

  it('a shell script’s checkoutLink read by grep or a helper; a member or a longer name is not it; the reference number is info in a file without marks', async () => {
    expect(
      await check('read.sh', [
        '#!/bin/sh',
        'link=$(echo "$r" | grep -o \'"checkoutLink":"[^"]*"\')',
        'json_get checkoutLink',
        'echo "$r" | jq .refNumber',
        'echo "$r" | jq .links.checkoutLinkX',
        'x.checkoutLink',
      ]),
    ).toEqual([
      '2:30 error PO105 → link=$(echo "$r" | grep -o \'"checkout_link":"[^"]*"\')',
      '3:10 error PO105 → json_get checkout_link',
      '4:17 info PO110',
    ]);
  });

  it('a key set on a variable takes the kind of the service call the variable is later sent with', async () => {
    expect(
      await check('token.py', [
        'import requests',
        'payload = {}',
        'payload["user_name"] = u',
        'send(payload)',
        'requests.post(AUTH + "/v2/api/auth/token", data=payload)',
      ]),
    ).toEqual(['3:10 error PO102 → payload["username"] = u']);
  });
});

describe('PO107: PENDING handled, REFUNDED never', () => {
  it.each([
    [
      'info where nothing ties the file to the service',
      ['// checkout', 'if (status === "PENDING") wait();'],
      ['2:16 info PO107'],
    ],
    [
      'a warning beside PAID or FAILED (a list of the service’s states)',
      ['// checkout', 'if (status === "PENDING") wait(); else if (status === "PAID") ok();'],
      ['2:16 warning PO107'],
    ],
    [
      'a warning beside FAILED alone',
      ['// checkout', 'if (s === "PENDING") a(); if (s === "FAILED") b();'],
      ['2:11 warning PO107'],
    ],
    [
      'nothing once REFUNDED is handled',
      [
        'fetch(`${C}/v2/api/checkout`);',
        'if (status === "PENDING") wait();',
        'if (status === "REFUNDED") back();',
      ],
      [],
    ],
    [
      'a warning on a member in a file that talks to the service',
      ['fetch(`${C}/v2/api/checkout`);', 'if (status === Status.PENDING) wait();'],
      ['2:23 warning PO107'],
    ],
    [
      'an enum constant, reported once at the first mention',
      ['fetch(`${C}/v2/api/checkout`);', 'enum S { PENDING, FAILED }', 'switch (s) { case PENDING: break; }'],
      ['2:10 warning PO107'],
    ],
    [
      'nothing for another spelling or a longer name',
      ['// checkout', 'if (status === "FAILED") x(); if (s === "pending") y(); const PENDING_X = 1;'],
      [],
    ],
  ])('%s', async (_, lines, expected) => {
    expect(await check('states.ts', lines)).toEqual(expected);
  });
});

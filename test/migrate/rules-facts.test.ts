/**
 * What one file's tree says (src/migrate/syntax/facts.ts), seen through the findings it decides:
 * which names a value is followed through (PHP's `$`, a `$` inside a JavaScript name), which object a
 * read is rooted at (a member, a call on the answer, a JSON parser's argument, an `await`, a cast), answers
 * passed along a chain of variables in the order they are written, names written bare (PENDING), and
 * a name split into words to tell whether it speaks of the service (`HTTPCheckoutBase`).
 */
import { describe, expect, it } from 'vitest';
import { checkSource } from '../../src/migrate/source.js';
import { words } from '../../src/migrate/syntax/facts.js';

/** Findings as "LINE:COLUMN SEVERITY RULE", with ", through NAME" where one was followed. */
const check = async (file: string, lines: string[]) =>
  (await checkSource(lines.join('\n'), file)).map(
    (f) =>
      `${f.location.line}:${f.location.column} ${f.severity} ${f.rule}${/, through \S+/.exec(f.message)?.[0] ?? ''}`,
  );

describe('the names a value is followed through', () => {
  it('PHP: a variable is followed from its assignment to its use, without its $', async () => {
    expect(
      await check('pay.php', [
        '<?php',
        '$url = "https://auth.example.com/1/auth/token";',
        '$http->post($url, $body);',
      ]),
    ).toEqual(['2:33 error PO101', '3:13 error PO101, through url']);
  });

  it('JavaScript: a $ inside a name is part of it (an answer named answer$ is the answer; other$ is not)', async () => {
    expect(
      await check('pay.js', [
        'const answer$ = await (await fetch(`${BASE}/v2/api/checkout`, { method: "POST" })).json();',
        'go(answer$.checkoutLink);',
        'go(other$.checkoutLink);',
      ]),
    ).toEqual(['2:12 error PO105', '3:11 info PO105']);
  });
});

describe('the object a read is rooted at', () => {
  it('JavaScript: a member of the answer, a call on it, JSON.parse of it; JSON.parse of another text is not the answer', async () => {
    expect(
      await check('pay.js', [
        'const response = await fetch(`${BASE}/v2/api/checkout`, { method: "POST" });',
        'go(response.order.checkoutLink);',
        'go(response.json().checkoutLink);',
        'go(JSON.parse(response).checkoutLink);',
        'go(JSON.parse(text).checkoutLink);',
        'go(cart.order.checkoutLink);',
      ]),
    ).toEqual([
      '2:19 error PO105',
      '3:20 error PO105',
      '4:25 error PO105',
      '5:21 info PO105',
      '6:15 info PO105',
    ]);
  });

  it('TypeScript: the answer cast to a type (as, satisfies, <T>) is still the answer; another object cast is not', async () => {
    expect(
      await check('pay.ts', [
        'const answer = await (await fetch(`${BASE}/v2/api/checkout`, { method: "POST" })).json();',
        'go((answer as Order).checkoutLink);',
        'go((answer satisfies Order).checkoutLink);',
        'go((<Order>answer).checkoutLink);',
        'go((answer as api.Order).checkoutLink);',
        'go((cart as Order).checkoutLink);',
      ]),
    ).toEqual([
      '2:22 error PO105',
      '3:29 error PO105',
      '4:20 error PO105',
      '5:26 error PO105',
      '6:20 info PO105',
    ]);
  });

  it('Python: an awaited answer in parentheses is the answer; another awaited object is not', async () => {
    expect(
      await check('pay.py', [
        'async def pay(session, body):',
        '    response = await session.post(f"{BASE}/v2/api/checkout", json=body)',
        '    go((await response.json())["checkoutLink"])',
        '    go((await other.json())["checkoutLink"])',
      ]),
    ).toEqual(['3:33 error PO105', '4:30 info PO105']);
  });

  it('a variable whose name starts or ends with "json" is a variable, not a JSON parser', async () => {
    expect(
      await check('pay.js', [
        'const answerJson = await (await fetch(`${BASE}/v2/api/checkout`, { method: "POST" })).json();',
        'const jsonAnswer = answerJson;',
        'go(answerJson.find((o) => o.uuid === id).checkoutLink);',
        'go(jsonAnswer.find((o) => o.uuid === id).checkoutLink);',
      ]),
    ).toEqual(['3:42 error PO105', '4:42 error PO105']);
  });
});

describe('statements in the order they are written', () => {
  it('an answer passed down four variables is still the answer', async () => {
    expect(
      await check('pay.js', [
        'const response = await fetch(`${BASE}/v2/api/checkout`, { method: "POST" });',
        'const answer = await response.json();',
        'const data = answer.data;',
        'const result = data.result;',
        'const order = result.order;',
        'go(order.checkoutLink);',
      ]),
    ).toEqual(['6:10 error PO105']);
  });
});

describe('names written bare', () => {
  it('states named as constants count as handled states: PENDING without REFUNDED is reported, with it not', async () => {
    expect(
      await check('status.js', [
        '// checkout',
        'switch (status) { case PENDING: wait(); break; case PAID: done(); }',
      ]),
    ).toEqual(['2:24 warning PO107']);
    expect(
      await check('status.js', [
        '// checkout',
        'switch (status) { case PENDING: wait(); break; case REFUNDED: back(); }',
      ]),
    ).toEqual([]);
  });

  it('a body variable named where it is sent: a key set on it later is judged by that call', async () => {
    expect(
      await check('pay.py', [
        'data = dict()',
        'data["notification_url"] = url',
        'requests.post(f"{BASE}/1/checkout", json=data)',
      ]),
    ).toEqual(['2:7 warning PO108', '3:23 error PO101']);
  });
});

describe('a name split into words, to tell whether it speaks of the service', () => {
  it('a capitalized acronym before a word is split from it: HTTPCheckoutBase names the checkout, HTTPSBase does not', async () => {
    expect(
      await check('config.js', [
        'const HTTPCheckoutBase = "https://example.com/1";',
        'const HTTPSBase = "https://example.com/1";',
      ]),
    ).toEqual(['1:46 error PO101', '2:39 info PO101']);
  });

  it('camelCase, acronyms, digits and separators become lower-case words', () => {
    expect(
      ['checkoutURL', 'AUTH_HOST', 'PayOrderClient', 'HTTPCheckoutBase', 'api2Base', 'pay-order.url'].map(
        words,
      ),
    ).toEqual([
      'checkout url',
      'auth host',
      'pay order client',
      'http checkout base',
      'api2 base',
      'pay order url',
    ]);
  });
});

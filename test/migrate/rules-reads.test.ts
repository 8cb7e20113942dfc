/**
 * PO105 and PO110 on reads of the service's answer (src/migrate/syntax/reads.ts), through
 * migrate-check's entry point: the link read any way a language reads JSON, how sure each read is
 * (the answer of a service call, the links object, or an object nothing ties to the service), and
 * the suggested line.
 */
import { describe, expect, it } from 'vitest';
import { checkSource } from '../../src/migrate/source.js';

/** Findings as "LINE:COLUMN SEVERITY RULE → replacement". */
const check = async (file: string, lines: string[]) =>
  (await checkSource(lines.join('\n'), file)).map(
    (f) =>
      `${f.location.line}:${f.location.column} ${f.severity} ${f.rule}${f.replacement ? ` → ${f.replacement}` : ''}`,
  );

const FETCH = 'const order = await (await fetch(`${CHECKOUT}/v2/api/checkout`, { method: "POST" })).json();';

describe('PO105: the v1 link read from the answer', () => {
  it('JavaScript: links.checkoutLink and links.checkout are errors with the v2 name; another object’s checkoutLink is info', async () => {
    expect(
      await check('pay.js', [
        FETCH,
        'go(order.links.checkoutLink);',
        'go(order.links.checkout);',
        'go(settings.checkoutLink);',
        'go(order.links.success);',
      ]),
    ).toEqual([
      '2:16 error PO105 → go(order.links.checkout_link);',
      '3:16 error PO105 → go(order.links.checkout_link);',
      '4:13 info PO105 → go(settings.checkout_link);',
    ]);
  });

  it('read from the links object, the link is an error even where nothing else ties the file to the service', async () => {
    expect(
      await check('page.js', [
        '// checkout',
        'go(settings.checkoutLink);',
        'go(x.links.checkoutLink);',
        'go(x.links.checkout);',
        'go(x.urls.checkout);',
      ]),
    ).toEqual([
      '2:13 info PO105 → go(settings.checkout_link);',
      '3:12 error PO105 → go(x.links.checkout_link);',
      '4:12 error PO105 → go(x.links.checkout_link);',
    ]);
  });

  it('PHP: $answer["links"]["checkout"] and ["checkoutLink"]; another array’s checkout and the success link are not', async () => {
    expect(
      await check('pay.php', [
        '<?php',
        '$answer = json_decode($http->post($base . "/checkout", $body)->getBody(), true);',
        'header("Location: " . $answer["links"]["checkout"]);',
        'echo $answer["links"]["checkoutLink"];',
        'echo $answer["links"]["success"];',
        'echo $cfg["urls"]["checkout"];',
      ]),
    ).toEqual([
      '3:41 error PO105 → header("Location: " . $answer["links"]["checkout_link"]);',
      '4:24 error PO105 → echo $answer["links"]["checkout_link"];',
    ]);
  });

  it('Ruby: dig("links", "checkout"), dig("links", "checkoutLink"); dig under another key or with a variable is not', async () => {
    expect(
      await check('pay.rb', [
        'res = Net::HTTP.post(URI("#{BASE}/checkout"), body)',
        'data = JSON.parse(res.body)',
        'redirect data.dig("links", "checkout")',
        'redirect data.dig("links", "checkoutLink")',
        'redirect data.dig("urls", "checkout")',
        'redirect data.dig("links", name)',
      ]),
    ).toEqual([
      '3:29 error PO105 → redirect data.dig("links", "checkout_link")',
      '4:29 error PO105 → redirect data.dig("links", "checkout_link")',
    ]);
  });

  it('Java: a quoted key read through getJSONObject("links").getString(…); a typed field read is left to the model check', async () => {
    expect(
      await check('Pay.java', [
        'class P { void p() {',
        '  var res = http.post(CHECKOUT + "/checkout");',
        '  var json = new JSONObject(res.body());',
        '  String link = json.getJSONObject("links").getString("checkoutLink");',
        '  String l2 = json.getJSONObject("links").getString("checkout");',
        '  String l3 = order.checkoutLink;',
        '} }',
      ]),
    ).toEqual([
      '4:56 error PO105 → String link = json.getJSONObject("links").getString("checkout_link");',
      '5:54 error PO105 → String l2 = json.getJSONObject("links").getString("checkout_link");',
    ]);
  });

  it('Python: r["links"]["checkoutLink"] and r.get("links").get("checkout")', async () => {
    expect(
      await check('pay.py', [
        'import requests',
        'r = requests.post(CHECKOUT + "/checkout", json=body).json()',
        'go(r["links"]["checkoutLink"])',
        'go(r.get("links").get("checkout"))',
      ]),
    ).toEqual([
      '3:16 error PO105 → go(r["links"]["checkout_link"])',
      '4:24 error PO105 → go(r.get("links").get("checkout_link"))',
    ]);
  });

  it('destructured from the links object however it is reached; another key is not', async () => {
    expect(
      await check('pay.js', [
        FETCH,
        'const { checkoutLink } = order.get("links");',
        'const { checkoutLink: u } = order.links;',
        'const { success } = order.links;',
        'const { checkoutLink: v } = order["links"];',
        'const { checkoutLink: w } = order.get("urls");',
      ]),
    ).toEqual([
      '2:9 error PO105 → const { checkout_link: checkoutLink } = order.get("links");',
      '3:9 error PO105 → const { checkout_link: u } = order.links;',
      '5:9 error PO105 → const { checkout_link: v } = order["links"];',
    ]);
  });
});

describe('PO110: v1-only fields read from the answer', () => {
  it('orderNumber, refNumber and currency of the answer are warnings; a likely answer’s too; another object’s are info or nothing', async () => {
    expect(
      await check('pay.js', [
        FETCH,
        'log(order.orderNumber, order.refNumber, order.currency);',
        'log(settings.orderNumber, cart.currency);',
        'log(result.orderNumber);',
      ]),
    ).toEqual([
      '2:11 warning PO110',
      '2:30 warning PO110',
      '2:47 warning PO110',
      '3:14 info PO110',
      '4:12 warning PO110',
    ]);
  });

  it('without the service in the file, an answer-like name is info', async () => {
    expect(await check('page.js', ['// checkout', 'log(result.orderNumber, cart.currency);'])).toEqual([
      '2:12 info PO110',
    ]);
  });

  it('read by key: PHP, Ruby fetch, Java getString, Python', async () => {
    expect(
      await check('pay.php', [
        '<?php',
        '$answer = json_decode($http->post($base . "/checkout", $body)->getBody(), true);',
        'echo $answer["orderNumber"];',
      ]),
    ).toEqual(['3:15 warning PO110']);
    expect(
      await check('pay.rb', [
        'res = Net::HTTP.post(URI("#{BASE}/checkout"), body)',
        'data = JSON.parse(res.body)',
        'puts data.fetch("orderNumber")',
      ]),
    ).toEqual(['3:18 warning PO110']);
    expect(
      await check('pay.py', [
        'import requests',
        'r = requests.post(CHECKOUT + "/checkout", json=body).json()',
        'go(r["orderNumber"], r["currency"])',
      ]),
    ).toEqual(['3:7 warning PO110', '3:25 warning PO110']);
  });
});

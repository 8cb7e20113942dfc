/**
 * PO104, the amount rule, through migrate-check's entry point: which decimal idioms it reports, where
 * the value has to go for it to matter (an order body's amount, not any field, not any toFixed), and
 * how sure it is (error where the file talks to the service, info where it cannot tell).
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/migrate/rules.js';
import { checkSource } from '../../src/migrate/source.js';

/** PO104 findings as "LINE:COLUMN SEVERITY", with "(if …)" where the message hedges. */
const amounts = async (file: string, lines: string[]) =>
  (await checkSource(lines.join('\n'), file))
    .filter((f: Finding) => f.rule === 'PO104')
    .map(
      (f) =>
        `${f.location.line}:${f.location.column} ${f.severity}${f.message.includes('(if this amount is sent') ? ' (if sent)' : ''}`,
    );

const SEND_JS = 'fetch(`${CHECKOUT}/v2/api/checkout`, { method: "POST", body: JSON.stringify(body) });';

describe('PO104: decimal literals written as the amount', () => {
  it('an order body’s amount written as a decimal is an error, whatever the case of its key; whole or three-decimal values are not', async () => {
    expect(
      await amounts('pay.js', [
        'const body = { Amount: "149.90", description: "Tea" };',
        'const whole = { amount: "149", description: "Tea" };',
        'const finer = { amount: "149.901", description: "Tea" };',
        'const other = { total: "149.90", description: "Tea" };',
        SEND_JS,
      ]),
    ).toEqual(['1:24 error']);
  });

  it('a decimal amount in a map nothing ties to the service is info, and says so', async () => {
    expect(
      await amounts('labels.js', [
        '// shown on the checkout page',
        'const label = { amount: "149.90" };',
        'const other = { amount: "149.901", total: "1.50", Amount: "2.5" };',
      ]),
    ).toEqual(['2:25 info (if sent)', '3:59 info (if sent)']);
    const [finding] = await checkSource('// checkout\nconst label = { amount: "149.90" };', 'labels.js');
    expect(finding!.message).toBe(
      'a decimal amount (v1 format) (if this amount is sent to the payment order service)',
    );
    expect(finding!.fix).toContain('whole cents');
  });

  it('an error says what is wrong and how to fix it, without the hedge', async () => {
    const [finding] = await checkSource(
      ['const body = { amount: "149.90", callback_success: ok };'].join('\n'),
      'pay.js',
    );
    expect(finding).toMatchObject({
      rule: 'PO104',
      severity: 'error',
      message: 'a decimal amount (v1 format)',
      fix: 'send whole cents as an integer string ("149.90" → "14990"), computed with integer arithmetic',
    });
  });
});

describe('PO104: two-decimal formatting, by idiom', () => {
  it('JavaScript: toFixed(2) as the amount, not toFixed of another precision nor another field', async () => {
    expect(
      await amounts('pay.js', [
        SEND_JS,
        'const body = { amount: total.toFixed(2), price: total.toFixed(2), description: "d" };',
        'const b2 = { amount: total.toFixed(3), description: "d" };',
        'const b3 = { amount: total.toFixed(), description: "d" };',
      ]),
    ).toEqual(['2:30 error']);
  });

  it('JavaScript without the service: the amount’s toFixed(2) is info, a price’s is nothing', async () => {
    expect(
      await amounts('cart.js', [
        '// checkout',
        'const body = { amount: total.toFixed(2) };',
        'const amount = total.toFixed(2);',
        'const price = total.toFixed(2);',
      ]),
    ).toEqual(['2:30 info (if sent)', '3:22 info (if sent)']);
  });

  it('PHP: number_format($x, 2) as the amount; number_format($x) and other fields are not', async () => {
    expect(
      await amounts('pay.php', [
        '<?php',
        '$res = $http->post($base . "/checkout", ["json" => ["amount" => number_format($total, 2), "description" => "x", "tax" => number_format($t, 2)]]);',
        '$b = ["amount" => number_format($total), "description" => "x", "callback_success" => $s];',
        '$c = ["amount" => number_format(2, $total), "description" => "x", "callback_success" => $s];',
      ]),
    ).toEqual(['2:65 error']);
  });

  it('Python: %.2f, {:.2f}, f-strings, round(x, 2) and quantize(0.01); %d, round(x * 100, 2) and quantize(1) are not', async () => {
    expect(
      await amounts('pay.py', [
        'import requests',
        'body = {"amount": "%.2f" % total, "description": "x", "callback_success": s}',
        'b2 = {"amount": "{:.2f}".format(total), "description": "x", "callback_success": s}',
        'b3 = {"amount": f"{total:.2f}", "description": "x", "callback_success": s}',
        'b4 = {"amount": "%d" % cents, "description": "x", "callback_success": s}',
        'b5 = {"amount": str(round(total, 2)), "description": "x", "callback_success": s}',
        'b6 = {"amount": str(round(total * 100, 2)), "description": "x", "callback_success": s}',
        'b7 = {"amount": str(Decimal(total).quantize(Decimal("0.01"))), "description": "x", "callback_success": s}',
        'b8 = {"amount": str(Decimal(total).quantize(Decimal("1"))), "description": "x", "callback_success": s}',
        'b9 = {"amount": str(round(100 * total, 2)), "description": "x", "callback_success": s}',
        'b10 = {"amount": str(round(total, 0)), "description": "x", "callback_success": s}',
        'requests.post(CHECKOUT + "/checkout", json=body)',
      ]),
    ).toEqual(['2:19 error', '3:17 error', '4:17 error', '6:21 error', '8:36 error']);
  });

  it('Java: setScale(2), valueOf(cents, 2), movePointLeft(2), String.format("%.2f") put as the amount; scale 0 and other keys are not', async () => {
    expect(
      await amounts('Pay.java', [
        'class P { void p() {',
        '  var res = http.post(CHECKOUT + "/checkout");',
        '  body.put("amount", total.setScale(2).toPlainString());',
        '  body.put("amount", total.setScale(0).toPlainString());',
        '  body.put("price", total.setScale(2).toPlainString());',
        '  body.put("amount", BigDecimal.valueOf(cents, 2).toPlainString());',
        '  body.put("amount", BigDecimal.valueOf(cents).toPlainString());',
        '  body.put("amount", cents.movePointLeft(2).toPlainString());',
        '  body.put("amount", String.format("%.2f", total));',
        '  body.put("amount", cents.movePointLeft(3).toPlainString());',
        '  body.get("amount", total.setScale(2));',
        '} }',
      ]),
    ).toEqual(['3:28 error', '6:33 error', '8:28 error', '9:36 error']);
  });

  it('Java without the service: a key set on a body is info', async () => {
    expect(
      await amounts('Cart.java', [
        'class Cart { void p() {',
        '  // checkout',
        '  body.put("amount", total.setScale(2).toPlainString());',
        '} }',
      ]),
    ).toEqual(['3:28 info (if sent)']);
  });

  it('Go: strconv.FormatFloat with two decimals, not with -1', async () => {
    expect(
      await amounts('pay.go', [
        'package main',
        'func f() {',
        '  http.Post(base+"/checkout", "application/json", nil)',
        '  body := map[string]string{"amount": strconv.FormatFloat(total, \'f\', 2, 64), "description": "x"}',
        '  b2 := map[string]string{"amount": strconv.FormatFloat(total, \'f\', -1, 64), "description": "x"}',
        '}',
      ]),
    ).toEqual(['4:47 error']);
  });

  it("Go: a float64 amount field of an order struct, sent as a JSON number; not an int64 one, nor another struct's float", async () => {
    const struct = (amount: string) => [
      'package main',
      'type CreateOrder struct {',
      `  Amount ${amount} \`json:"amount"\``,
      '  Description string `json:"description"`',
      '  CallbackSuccess string `json:"callback_success"`',
      '}',
      'type Shipping struct {',
      '  Amount float64 `json:"amount"`',
      '  Carrier string `json:"carrier"`',
      '}',
      'func f() { http.Post(base+"/checkout", "application/json", nil) }',
    ];
    expect(await amounts('pay.go', struct('float64'))).toEqual(['3:25 error']);
    expect(await amounts('pay.go', struct('int64'))).toEqual([]);
  });

  it('Go: shopspring/decimal StringFixed(2), not StringFixed(0)', async () => {
    expect(
      await amounts('pay.go', [
        'package main',
        'func f() {',
        '  http.Post(base+"/checkout", "application/json", nil)',
        '  body := map[string]string{"amount": total.StringFixed(2), "description": "x"}',
        '  b2 := map[string]string{"amount": cents.StringFixed(0), "description": "x"}',
        '}',
      ]),
    ).toEqual(['4:45 error']);
  });

  it('C#: ToString("F2"), ToString("0.00") and Math.Round(x, 2); ToString("D") is not', async () => {
    expect(
      await amounts('Pay.cs', [
        'class P { void p() {',
        '  var r = client.PostAsync(Base + "/checkout", null);',
        '  var body = new Dictionary<string,string> { ["amount"] = total.ToString("F2"), ["description"] = "x" };',
        '  var b2 = new Dictionary<string,string> { ["amount"] = total.ToString("0.00"), ["description"] = "x" };',
        '  var b3 = new Dictionary<string,string> { ["amount"] = total.ToString("D"), ["description"] = "x" };',
        '  var b4 = new Dictionary<string,string> { ["amount"] = Math.Round(total, 2).ToString(), ["description"] = "x" };',
        '} }',
      ]),
    ).toEqual(['3:65 error', '4:63 error', '6:62 error']);
  });

  it('Ruby: round(2) on the value; round without a precision is not', async () => {
    expect(
      await amounts('pay.rb', [
        'res = Net::HTTP.post(URI("#{BASE}/checkout"), body.to_json)',
        'body = { amount: total.round(2).to_s("F"), description: "x", callback_success: s }',
        'b2 = { amount: total.round.to_s, description: "x", callback_success: s }',
        'b3 = { amount: total.round(3).to_s, description: "x", callback_success: s }',
      ]),
    ).toEqual(['2:24 error']);
  });
});

describe('PO104: where a formatted value goes decides', () => {
  it('a named argument called amount: error in a call to the service, info elsewhere; another name is nothing', async () => {
    expect(
      await amounts('pay.py', [
        'import requests',
        'requests.post(CHECKOUT + "/checkout", json=dict(amount="%.2f" % total, description="x"))',
        'requests.post(CHECKOUT + "/checkout", json=dict(price="%.2f" % total, description="x"))',
        'log(amount="%.2f" % total)',
      ]),
    ).toEqual(['2:56 error', '4:12 info (if sent)']);
  });

  it('an order type’s constructor and setAmount take the amount: error with the service, info without; other setters and types are nothing', async () => {
    const lines = (evidence: string) => [
      'class P { void p() {',
      evidence,
      '  var o = new OrderRequest(String.format("%.2f", total), "Tea");',
      '  var q = new Invoice(String.format("%.2f", total), "Tea");',
      '  req.setAmount(String.format("%.2f", total));',
      '  req.setPrice(String.format("%.2f", total));',
      '} }',
    ];
    expect(await amounts('Pay.java', lines('  var res = http.post(CHECKOUT + "/checkout");'))).toEqual([
      '3:42 error',
      '5:31 error',
    ]);
    expect(await amounts('Pay.java', lines('  // checkout'))).toEqual([
      '3:42 info (if sent)',
      '5:31 info (if sent)',
    ]);
  });

  it('a variable named for the amount: error once it is an order body’s amount, info otherwise; another name is nothing', async () => {
    expect(
      await amounts('pay.js', [
        '// checkout',
        'let amount;',
        'amount = total.toFixed(2);',
        'const order = { amount: amount, description: "x", callback_success: s };',
        'const price = total.toFixed(2);',
      ]),
    ).toEqual(['3:16 error']);
    expect(
      await amounts('cart.js', [
        '// checkout',
        'const amount = total.toFixed(2);',
        'const b = { total: amount };',
      ]),
    ).toEqual(['2:22 info (if sent)']);
  });

  it('a function that formats: its calls decide, else its name', async () => {
    const lines = (order: string) => [
      '// checkout',
      'function toDecimal(x) { return x.toFixed(2); }',
      'function label(x) { return x.toFixed(2); }',
      'function shown(x) { return x.toFixed(2); }',
      `const order = { amount: label(t)${order} };`,
      'const b = { price: shown(t) };',
    ];
    expect(await amounts('cart.js', lines(''))).toEqual(['2:34 info (if sent)', '3:30 info (if sent)']);
    expect(await amounts('pay.js', lines(', callback_success: s'))).toEqual(['2:34 error', '3:30 error']);
  });

  it('a JavaScript label amount: in front of the value is info; another label is nothing', async () => {
    expect(
      await amounts('pay.js', ['// checkout', 'amount: total.toFixed(2);', 'price: total.toFixed(2);']),
    ).toEqual(['2:15 info (if sent)']);
  });

  it('through String() and a template, the amount is still the amount', async () => {
    expect(
      await amounts('pay.ts', [
        SEND_JS,
        'const body = { amount: String(total.toFixed(2)), description: "x" };',
        'const b2 = { amount: `${total.toFixed(2)}`, description: "x" };',
      ]),
    ).toEqual(['2:37 error', '3:31 error']);
  });

  it('a decimal passed on by a call that keeps it (format, replace, a builder’s amount) is still the amount; one made cents by a helper is not', async () => {
    expect(
      await amounts('pay.js', [
        SEND_JS,
        'const a = { amount: util.format("%s", total.toFixed(2)), description: "x" };',
        'const b = { amount: total.toFixed(2).replace(".", ","), description: "x" };',
        'const c = { amount: toCents(total.toFixed(2)), description: "x" };',
        'const d = { amount: amountInCents(total.toFixed(2)), description: "x" };',
        'const e = { amount: String(Math.round(total * 100)), description: "x" };',
        'const price = (total.toFixed(2));',
      ]),
    ).toEqual(['2:45 error', '3:27 error']);
    expect(
      await amounts('Pay.java', [
        'class P { void p() {',
        '  var res = http.post(CHECKOUT + "/checkout");',
        '  var o = OrderRequest.builder().amount(total.setScale(2).toPlainString()).build();',
        '} }',
      ]),
    ).toEqual(['3:47 error']);
    // Made cents of by a method called on it (what migrate-check --fix writes for Java): converted.
    expect(
      await amounts('Pay.java', [
        'class P { void p() {',
        '  var res = http.post(CHECKOUT + "/checkout");',
        '  String amount = new java.math.BigDecimal(String.format(Locale.ROOT, "%.2f", total)).movePointRight(2).toBigIntegerExact().toString();',
        '  String shown = new java.math.BigDecimal(String.format(Locale.ROOT, "%.2f", total)).toPlainString();',
        '  String amount2 = new java.math.BigDecimal(String.format(Locale.ROOT, "%.2f", total)).toPlainString();',
        '} }',
      ]),
    ).toEqual(['5:72 error']);
  });

  it('Python: a keyword argument of a body sent to the service; a formatted value beside an amount= argument is not that amount; cents in parentheses are cents', async () => {
    expect(
      await amounts('pay.py', [
        'import requests',
        'requests.post(CHECKOUT + "/checkout", json=OrderBody(amount="%.2f" % total, description="x"))',
        'log("%.2f" % total, amount=cents)',
        'b = {"amount": str(round((total * 100), 2)), "description": "x", "callback_success": s}',
        'c = {"amount": str(round(total * 100.00, 2)), "description": "x", "callback_success": s}',
      ]),
    ).toEqual(['2:61 error']);
  });

  it('a chain of helpers is followed two deep, no further, and a helper that calls itself ends', async () => {
    expect(
      await amounts('cart.js', [
        '// checkout',
        'function twoPlaces(x) { return x.toFixed(2); }',
        'function total(x) { return twoPlaces(x); }',
        'const order = { amount: total(t) };',
        'function asText(x) { return x.toFixed(2); }',
        'function price(x) { return asText(x); }',
        'function sum(x) { return price(x); }',
        'const other = { amount: sum(t) };',
        'function again(x) { return again(x).toFixed(2); }',
      ]),
    ).toEqual(['2:34 info (if sent)']);
  });
});

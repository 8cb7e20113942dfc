/**
 * TypeScript, C# and Kotlin written the way the runnable integrations write them (typed clients, data
 * contracts, dictionary initializers, raw-string bodies): what migrate-check reports there, and what
 * the codemod makes of it. Each with the near miss that must stay as it is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsesCleanly } from '../../src/migrate/codemod/tree.js';
import { checkSource } from '../../src/migrate/source.js';
import { freshCli } from '../helpers/cli.js';
import { fixedInMemory, folderOf } from '../helpers/codemod.js';

/** Findings as "LINE RULE SEVERITY". */
const check = async (file: string, text: string) =>
  (await checkSource(text, file)).map((f) => `${f.location.line} ${f.rule} ${f.severity}`);

/** One file's source after the codemod, in memory, and whether it still parses. */
async function fixed(file: string, text: string) {
  const { text: after, language, left } = await fixedInMemory(file, text);
  return {
    text: after,
    parses: await parsesCleanly(after, language),
    left: left.map((entry) => entry.finding.rule),
  };
}

describe('Kotlin: an order body written as a raw string with interpolations', () => {
  const body = (key: string) =>
    [
      'import java.math.BigDecimal',
      'import java.math.RoundingMode',
      'fun createOrder(amount: BigDecimal): String {',
      '    val body = """',
      '        {',
      `          "${key}": "\${amount.setScale(2, RoundingMode.HALF_UP).toPlainString()}",`,
      '          "callback_success": "https://shop.example/ok",',
      '          "callback_fail": "https://shop.example/ko"',
      '        }',
      '    """.trimIndent()',
      '    return post("$CHECKOUT/v2/api/checkout", body)',
      '}',
      '',
    ].join('\n');

  it('setScale(2) interpolated after "amount": is reported, and only the interpolated value becomes cents', async () => {
    expect(await check('Checkout.kt', body('amount'))).toContain('6 PO104 error');
    const out = await fixed('Checkout.kt', body('amount'));
    expect(out.left).toEqual([]);
    expect(out.parses).toBe(true);
    expect(out.text).toContain(
      '"amount": "${java.math.BigDecimal(amount.setScale(2, RoundingMode.HALF_UP).toPlainString().toString()).movePointRight(2).toBigIntegerExact().toString()}",',
    );
    expect(out.text).toContain('"callback_success": "https://shop.example/ok",');
  });

  it('near miss: the same value interpolated after another key is not the amount', async () => {
    expect(await check('Checkout.kt', body('label'))).not.toContain('6 PO104 error');
  });

  it('a key handed to a helper with the answer, "currency" included: the line that only prints it is removed', async () => {
    const text = [
      'fun main() {',
      '    val order = post("$CHECKOUT/v2/api/checkout", body)',
      '    println("Payment link: ${jsonString(order, "checkout_link")}")',
      '    println("Currency: ${jsonString(order, "currency")}")',
      '    println("Shop currency: ${jsonString(settings, "currency")}")',
      '}',
      '',
    ].join('\n');
    const found = await check('Checkout.kt', text);
    expect(found).toContain('4 PO110 warning');
    expect(found.filter((line) => line.startsWith('5 '))).toEqual([]);
    const out = await fixed('Checkout.kt', text);
    expect(out.text).not.toContain('println("Currency');
    expect(out.text).toContain('println("Shop currency: ${jsonString(settings, "currency")}")');
  });
});

describe('C#: dictionary bodies, composite formats and data contracts', () => {
  const program = [
    'using System.Collections.Generic;',
    'using System.Globalization;',
    'class Checkout {',
    '    static string Order(string user, decimal price) {',
    '        return Send(CheckoutUrl + "/v2/api/checkout", Json(new Dictionary<string, string>',
    '        {',
    '            ["amount"] = string.Format(CultureInfo.InvariantCulture, "{0:0.00}", price),',
    '            ["description"] = "Teapot",',
    '            ["userName"] = user,',
    '            ["callback_success"] = "https://teapots.example/ok",',
    '            ["callback_fail"] = "https://teapots.example/ko",',
    '        }));',
    '    }',
    '}',
    '',
  ].join('\n');

  it('an index initializer entry ["userName"] = user is removed whole, and string.Format(…, "{0:0.00}", price) becomes cents', async () => {
    const found = await check('Checkout.cs', program);
    expect(found).toEqual(expect.arrayContaining(['7 PO104 error', '9 PO103 error']));
    const out = await fixed('Checkout.cs', program);
    expect(out.left).toEqual([]);
    expect(out.parses).toBe(true);
    expect(out.text).not.toContain('userName');
    expect(out.text).toContain('            ["description"] = "Teapot",\n            ["callback_success"]');
    expect(out.text).toContain(
      '["amount"] = ((long)(System.Convert.ToDecimal(string.Format(CultureInfo.InvariantCulture, "{0:0.00}", price), System.Globalization.CultureInfo.InvariantCulture) * 100m)).ToString(System.Globalization.CultureInfo.InvariantCulture),',
    );
  });

  it('[DataMember(Name = "userName")] becomes [IgnoreDataMember], and the check no longer reports it', async () => {
    const text = [
      'using System.Runtime.Serialization;',
      '[DataContract]',
      'public class CheckoutRequest {',
      '    [DataMember(Name = "amount")]',
      '    public string Amount { get; set; }',
      '    [DataMember(Name = "userName")]',
      '    public string UserName { get; set; }',
      '    [DataMember(Name = "callback_success")]',
      '    public string CallbackSuccess { get; set; }',
      '    [DataMember(Name = "callback_fail")]',
      '    public string CallbackFail { get; set; }',
      '}',
      '',
    ].join('\n');
    expect(await check('Models.cs', text)).toContain('6 PO103 error');
    const out = await fixed('Models.cs', text);
    expect(out.text).toContain('    [IgnoreDataMember]\n    public string UserName { get; set; }');
    expect((await check('Models.cs', out.text)).filter((line) => line.includes('PO103'))).toEqual([]);
  });

  it('a line that only prints a v1-only field read through a helper is removed: Console.WriteLine', async () => {
    const text = [
      'class Checkout {',
      '    static void Main() {',
      '        var order = Send(CheckoutUrl + "/v2/api/checkout", body);',
      '        Console.WriteLine("Reference: " + Field(order, "refNumber"));',
      '        Save(Field(order, "refNumber"));',
      '    }',
      '}',
      '',
    ].join('\n');
    const out = await fixed('Checkout.cs', text);
    expect(out.text).not.toContain('Console.WriteLine');
    expect(out.text).toContain('        Save(Field(order, "refNumber"));\n');
  });
});

describe('TypeScript: typed clients and nested destructuring', () => {
  it('the link taken from a links pattern nested in a destructuring: { links: { checkout_link: checkoutLink } }', async () => {
    const text = [
      'const order = await (await fetch(`${CHECKOUT}/v2/api/checkout`, { method: "POST" })).json();',
      'const {',
      '  uuid,',
      '  links: { checkoutLink },',
      '} = order;',
      'const { meta: { checkoutLink: shown } } = settings;',
      'console.log(checkoutLink, shown);',
      '',
    ].join('\n');
    const found = await check('checkout.ts', text);
    expect(found).toContain('4 PO105 error');
    expect(found.filter((line) => line.startsWith('6 '))).toEqual([]);
    const out = await fixed('checkout.ts', text);
    expect(out.text).toContain('  links: { checkout_link: checkoutLink },\n');
    expect(out.text).toContain('const { meta: { checkoutLink: shown } } = settings;');
  });

  it('a lookup method with a return type, called with order.uuid from another file: its definition is not taken for a call', async () => {
    const root = folderOf({
      'package.json': '{ "type": "module" }',
      'client.ts': [
        'export class Client {',
        '  getOrder(id: string): Promise<Order> {',
        '    return get(`${CHECKOUT}/v2/api/order/${encodeURIComponent(id)}`);',
        '  }',
        '}',
        '',
      ].join('\n'),
      'main.ts': 'const found = await client.getOrder(order.uuid);\n',
    });
    const result = await freshCli()(['migrate-check', root, '--fix', '--write', '--force']);
    expect(result.stderr).not.toContain('not changed');
    expect(readFileSync(join(root, 'client.ts'), 'utf8')).toContain(
      'return get(`${CHECKOUT}/v2/api/orders/${encodeURIComponent(id)}`);',
    );
  });

  it('C#: a lookup method whose signature stands on its own line, called with order.Uuid', async () => {
    const root = folderOf({
      'PayOrderClient.cs': [
        'public class PayOrderClient {',
        '    public Task<Order> GetOrderAsync(string id)',
        '    {',
        '        return SendAsync<Order>(HttpMethod.Get, $"{CheckoutUrl}/v2/api/order/{id}", null);',
        '    }',
        '}',
        '',
      ].join('\n'),
      'Program.cs': 'var found = await client.GetOrderAsync(order.Uuid);\n',
    });
    const result = await freshCli()(['migrate-check', root, '--fix', '--write', '--force']);
    expect(result.stderr).not.toContain('not changed');
    expect(readFileSync(join(root, 'PayOrderClient.cs'), 'utf8')).toContain('/v2/api/orders/{id}');
  });
});

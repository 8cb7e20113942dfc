import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/migrate/rules.js';
import { checkSource, checkSources } from '../../src/migrate/source.js';
import { cliFor, tempDir } from '../helpers/cli.js';
import { BEFORE_SUNSET } from '../helpers/sandbox.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/migrate');

/** Findings as "LINE:COLUMN SEVERITY RULE", in the order reported. */
const placed = (findings: Finding[]) =>
  findings.map((f) => `${f.location.line}:${f.location.column} ${f.severity} ${f.rule}`);
const check = async (file: string, text: string) => placed(await checkSource(text, file));

describe('source check: one v1 integration in each language with a grammar', () => {
  it.each([
    [
      'a.js',
      "fetch('https://auth.example.com/1/auth/token', { method: 'POST', body: JSON.stringify({ user_name: u, client_id: c }) });",
      ['1:32 error PO101', '1:89 error PO102'],
    ],
    [
      'a.ts',
      'const res = await fetch(`${BASE}/checkout`, { method: "POST", body: JSON.stringify({ amount: total.toFixed(2), description: d, callback_success: ok }) });\nconst order = (await res.json()) as Order;\nexport const link: string = order.links.checkoutLink;',
      ['1:100 error PO104', '3:41 error PO105'],
    ],
    [
      'a.tsx',
      'export const Pay = ({ order }: Props) => <a href={order.links.checkoutLink}>Pay</a>;',
      ['1:63 error PO105'],
    ],
    [
      'a.php',
      "<?php\n$response = $http->post('https://auth.example.com/1/auth/token', ['json' => ['user_name' => $user, 'client_id' => $id]]);",
      ['2:50 error PO101', '2:79 error PO102'],
    ],
    [
      'a.py',
      'r = requests.post(f"{AUTH_HOST}/1/auth/token", json={"user_name": user, "grant_type": "client_credentials"})',
      ['1:32 error PO101', '1:55 error PO102'],
    ],
    [
      'a.rb',
      'response = HTTP.post("#{CHECKOUT_HOST}/1/checkout", json: { amount: format(\'%.2f\', total), userName: user, callback_success: ok })',
      ['1:39 error PO101', '1:76 error PO104', '1:92 error PO103'],
    ],
    [
      'A.java',
      'class Client { String token() { return rest.postForObject(AUTH_URL + "/1/auth/token", Map.of("user_name", user, "client_id", id), String.class); } }',
      ['1:71 error PO101', '1:95 error PO102'],
    ],
    [
      'a.kt',
      'suspend fun find(id: String): Order = http.get("$checkoutHost/1/order/$id").body()',
      ['1:62 error PO101', '1:64 error PO106'],
    ],
    [
      'A.cs',
      'class C { async Task Token() { await http.PostAsJsonAsync($"{authUrl}/1/auth/token", new { user_name = user, client_id = id }); } }',
      ['1:70 error PO101', '1:92 error PO102'],
    ],
    [
      'a.go',
      'package p\nfunc token() { body := map[string]string{"user_name": user, "client_id": id}; http.Post(authURL+"/1/auth/token", "application/json", encode(body)) }',
      ['2:43 error PO102', '2:98 error PO101'],
    ],
    [
      'a.sh',
      'curl -s -X POST "${AUTH_URL:-https://auth.example.com/1}/auth/token" -d \'{"user_name":"shop","client_id":"c"}\'',
      ['1:54 error PO101', '1:76 error PO102'],
    ],
  ])('%s', async (file, text, expected) => {
    expect(await check(file, text)).toEqual(expected);
  });
});

describe('source check: syntax, not text', () => {
  it('never reads comments or docstrings, nor a local variable named like a field', async () => {
    const python = [
      '# token = requests.post("https://auth.example.com/1/auth/token", json={"user_name": user})',
      '"""Old: userName was sent in the order body; links.checkoutLink was read."""',
      'user_name = current_user()',
    ].join('\n');
    expect(await check('a.py', python)).toEqual([]);
    const js =
      "/* fetch('https://pay.example.com/1/checkout') */\n// order.links.checkoutLink\nconst userName = me();";
    expect(await check('a.js', js)).toEqual([]);
  });

  it('the v2-ready near miss has no finding at all, not even info', async () => {
    const text = readFileSync(join(FIXTURES, 'near-miss/ready.ts'), 'utf8');
    expect(await check('ready.ts', text)).toEqual([]);
  });

  it('follows constants and concatenation: a /1 prefix is found where it is written and where it is used', async () => {
    const text = [
      "const HOST = 'https://pay.example.com';",
      "const API_PREFIX = '/1';",
      'const BASE = HOST + API_PREFIX;',
      "export const create = (body) => fetch(`${BASE}/checkout`, { method: 'POST', body });",
    ].join('\n');
    const findings = await checkSource(text, 'client.js');
    expect(placed(findings)).toEqual(['2:21 error PO101', '3:21 error PO101', '4:42 error PO101']);
    // The fix goes where the prefix is written; the uses say where they get it from.
    expect(findings[0]!.replacement).toBe("const API_PREFIX = '/v2/api';");
    expect(findings[2]!.message).toContain('through BASE');
    expect(findings[2]!.replacement).toBeUndefined();
  });

  it('a field of the service is an error only where the code talks to the service; elsewhere info', async () => {
    expect(await check('a.py', 'requests.post(AUTH + "/auth/token", json={"user_name": u})')).toEqual([
      '1:44 error PO102',
    ]);
    expect(await check('a.py', 'row = {"user_name": u}')).toEqual(['1:9 info PO102']);
    expect(await check('a.js', 'const n = order.orderNumber;')).toEqual(['1:17 info PO110']);
  });

  it('addresses: Guzzle base_uri with a default, lookups relative to it, and not the shop’s own routes', async () => {
    const text = [
      '<?php',
      "$client = new Client(['base_uri' => getenv('PAYORDER_URL') ?: 'https://pay.example.com/1/']);",
      '$order = json_decode($client->get("order/{$id}")->getBody(), true);',
      "$app->get('/order/{id}', function ($request, $response) { return $response; });",
    ].join('\n');
    const findings = await checkSource(text, 'pay.php');
    expect(placed(findings)).toEqual(['2:87 error PO101', '3:36 error PO106']);
    expect(findings[1]!.replacement).toBe(
      '$order = json_decode($client->get("orders/{$id}")->getBody(), true);',
    );
  });

  it('types that model the service: v2 names in annotations are ready; v1 names get a fix for the language', async () => {
    const kotlin = [
      '@Serializable',
      'data class TokenRequest(@SerialName("username") val userName: String, @SerialName("client_secret_id") val secret: String)',
      '@Serializable',
      'data class Links(val checkoutLink: String, val success: String? = null, val failed: String? = null)',
    ].join('\n');
    const [link, ...rest] = await checkSource(kotlin, 'Models.kt');
    expect(rest).toEqual([]);
    expect(placed([link!])).toEqual(['4:22 error PO105']);
    expect(link!.replacement).toBe(
      'data class Links(@SerialName("checkout_link") val checkoutLink: String, val success: String? = null, val failed: String? = null)',
    );
    const java =
      'public record Links(@JsonProperty("checkout_link") String checkoutLink, String success, String failed) {}';
    expect(await check('Links.java', java)).toEqual([]);
  });

  it('amounts: decimal formatting sent to the service is PO104; whole cents and other decimals are not', async () => {
    const python = [
      'def create(total):',
      '    body = {"amount": f"{total:.2f}", "description": "Tea", "callback_success": OK, "callback_fail": KO}',
      '    return requests.post(CHECKOUT + "/checkout", json=body)',
      'def create_v2(total):',
      '    body = {"amount": str(round(total * 100)), "description": "Tea", "callback_success": OK, "callback_fail": KO}',
      '    return requests.post(CHECKOUT + "/v2/api/checkout", json=body)',
      'label = "{:.2f}".format(total)',
    ].join('\n');
    expect(await check('pay.py', python)).toEqual(['2:23 error PO104']);
    const java = [
      'class Pay {',
      '  Order create(BigDecimal total) {',
      '    var body = new CreateOrderRequest(total.setScale(2, RoundingMode.HALF_UP).toPlainString(), "Boots", ok, ko);',
      '    return rest.postForObject(checkoutUrl + "/checkout", body, Order.class);',
      '  }',
      '  String cents(BigDecimal total) { return total.movePointRight(2).toBigInteger().toString(); }',
      '}',
    ].join('\n');
    expect(await check('Pay.java', java)).toEqual(['3:45 error PO104']);
  });

  it('keeps the sample shop’s findings and suggested lines exact', async () => {
    const file = join(FIXTURES, 'shop-js/src/checkout.js');
    const findings = await checkSource(readFileSync(file, 'utf8'), file);
    expect(placed(findings)).toEqual([
      '2:49 error PO101',
      '6:35 error PO101',
      '8:28 error PO102',
      '14:48 error PO101',
      '18:26 error PO104',
      '20:7 error PO103',
      '23:7 warning PO108',
      '27:30 error PO105',
      '27:58 warning PO110',
      '31:48 error PO101',
      '31:50 error PO106',
      '33:24 warning PO107',
    ]);
    const at = (line: number, rule: string) =>
      findings.find((f) => f.location.line === line && f.rule === rule)!.replacement;
    expect(at(2, 'PO101')).toBe("const AUTH_URL = 'https://auth.stage.example.com/v2/api';");
    // Every fix on a line goes into its one suggested line.
    expect(at(31, 'PO101')).toBe(at(31, 'PO106'));
    expect(at(31, 'PO106')).toContain('`${CHECKOUT_URL}/v2/api/orders/${id}`');
    expect(at(27, 'PO105')).toBe('return { link: order.links.checkout_link, number: order.orderNumber };');
  });

  it('files in a language without a grammar get the text check, a warning at most', async () => {
    const findings = await checkSource(
      'let url = "https://pay.example.com/1/checkout";\nlet body = json!({ "user_name": user });',
      'client.rs',
    );
    expect(findings.map((f) => f.rule)).toEqual(['PO101', 'PO102']);
    expect(findings.every((f) => f.severity !== 'error')).toBe(true);
  });

  it('text without a file name (stdin) is parsed when it says its language: a PHP tag, a #! line', async () => {
    expect(await check('<stdin>', '<?php\n$token = ["user_name" => $u, "client_id" => $c];')).toEqual([
      '2:12 error PO102',
    ]);
    expect(await check('<stdin>', '#!/bin/sh\ncurl "$BASE/1/checkout"')).toEqual(['2:12 error PO101']);
  });

  it('files that never mention the service are not reported', async () => {
    expect(
      await checkSources([{ file: 'a.js', text: 'const total = items.reduce((a, b) => a + b, 0);\n' }]),
    ).toEqual([]);
  });
});

describe('source check: worker threads', () => {
  it.skipIf(availableParallelism() < 2)(
    'the built CLI checks a large tree in worker threads too, with the findings of one thread, in the same order (needs two cores)',
    async () => {
      // Past the size where workers start (pool.ts): they run the CLI's own bundle, dist/cli.cjs.
      const dir = tempDir('source-workers-');
      const shop = readFileSync(join(FIXTURES, 'shop-js/src/checkout.js'), 'utf8');
      const php = readFileSync(join(FIXTURES, 'shop-php/Checkout.php'), 'utf8');
      for (let i = 0; i < 160; i++)
        writeFileSync(join(dir, i % 2 === 0 ? `f${i}.js` : `f${i}.php`), i % 2 === 0 ? shop : php);
      // One time for both runs: the report counts the days to v1's sunset.
      const run = cliFor({ configDir: tempDir(), env: { PAYORDER_NOW: BEFORE_SUNSET } });
      // In process, payorder runs from src/, where there are no workers.
      const oneThread = await run(['migrate-check', dir, '--json']);
      const built = await run(['migrate-check', dir, '--json'], {
        spawn: true,
        env: { NODE_DEBUG: 'worker' },
        timeout: 60_000,
      });
      // Written by this thread as it makes the worker: the worker's own lines can be lost when it is
      // ended. Had the worker not served the batches it was sent, the run would not have finished.
      expect(built.stderr).toMatch(/instantiating Worker\. url: file:\S*\/dist\/syntax-worker\.cjs /);
      expect(built.exitCode).toBe(1);
      expect(oneThread.exitCode).toBe(1);
      const findings = JSON.parse(built.stdout);
      expect(findings.files_with_findings).toBe(160);
      expect(findings).toEqual(JSON.parse(oneThread.stdout));
    },
    120_000,
  );
});

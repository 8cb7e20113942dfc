/**
 * Shapes of v1 code that talks to the service, beyond the plain ones: the link taken by
 * destructuring or from a hash, lookups built with a format string, cents made units again with the
 * common decimal idioms. Each is found, with a suggested line where one is certain.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/migrate/rules.js';
import { checkSource } from '../../src/migrate/source.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';

/** Findings as "LINE SEVERITY RULE → replacement". */
const shown = (findings: Finding[]) =>
  findings.map(
    (f) => `${f.location.line} ${f.severity} ${f.rule}${f.replacement ? ` → ${f.replacement}` : ''}`,
  );
const check = async (file: string, lines: string[]) => shown(await checkSource(lines.join('\n'), file));

describe('v1 shapes where the service is present', () => {
  it('the link taken out of links by destructuring keeps its variable; other objects are not links', async () => {
    expect(
      await check('pay.ts', [
        'const res = await fetch(`${CHECKOUT}/v2/api/checkout`, { method: "POST" });',
        'const order = await res.json();',
        'const { checkoutLink } = order.links;',
        'const { checkoutLink: url, success } = order.links;',
        'const { checkoutLink: other } = settings;',
        'redirect(checkoutLink ?? url);',
      ]),
    ).toEqual([
      '3 error PO105 → const { checkout_link: checkoutLink } = order.links;',
      '4 error PO105 → const { checkout_link: url, success } = order.links;',
    ]);
  });

  it('Go: the link in an anonymous struct of the order answer, by its struct tag', async () => {
    expect(
      await check('pay.go', [
        'package pay',
        'type order struct {',
        '\tUUID  string `json:"uuid"`',
        '\tLinks struct {',
        '\t\tCheckoutLink string `json:"checkoutLink"`',
        '\t\tSuccess      string `json:"success"`',
        '\t} `json:"links"`',
        '\tMeta struct {',
        '\t\tLink string `json:"link"`',
        '\t} `json:"meta"`',
        '}',
        'type migrated struct {',
        '\tLinks struct {',
        '\t\tCheckoutLink string `json:"checkout_link"`',
        '\t} `json:"links"`',
        '}',
      ]),
    ).toEqual(['5 error PO105 → CheckoutLink string `json:"checkout_link"`']);
  });

  it('a key handed to a function that reads it from the answer: a helper of the code, a regular expression', async () => {
    expect(
      await check('Pay.java', [
        'class Pay {',
        '  void run(String user, String secret) throws Exception {',
        '    String token = field(post(AUTH + "/v2/api/auth/token", "{\\"client_secret_id\\":\\"" + secret + "\\"}"), "access_token");',
        '    String order = post(CHECKOUT + "/v2/api/checkout", body);',
        '    System.out.println(field(order, "checkoutLink"));',
        '    System.out.println(jsonField(order, "refNumber"));',
        '    System.out.println(field(order, "checkout_link") + field(order, "uuid"));',
        '  }',
        '}',
      ]),
    ).toEqual(['5 error PO105 → System.out.println(field(order, "checkout_link"));', '6 warning PO110']);
    expect(
      await check('poll.py', [
        'import re, requests',
        'text = requests.post(CHECKOUT + "/v2/api/checkout", json=body).text',
        'link = re.search(r\'"checkoutLink"\\s*:\\s*"([^"]+)"\', text).group(1)',
        'same = re.search(r\'"checkout_link"\\s*:\\s*"([^"]+)"\', text).group(1)',
      ]),
    ).toEqual(['3 error PO105 → link = re.search(r\'"checkout_link"\\s*:\\s*"([^"]+)"\', text).group(1)']);
  });

  it('JSON written across a concatenation: the keys of the other strings tell the body', async () => {
    expect(
      await check('Orders.java', [
        'class Orders {',
        '  String token(String user, String id, String secret) {',
        '    return "{\\"user_name\\":\\"" + user + "\\",\\"client_id\\":\\"" + id',
        '        + "\\",\\"client_secret_id\\":\\"" + secret + "\\"}";',
        '  }',
        '  String order(String amount, String user) {',
        '    return "{\\"amount\\":\\"" + amount',
        '        + "\\",\\"userName\\":\\"" + user + "\\",\\"callback_success\\":\\"https://shop.example/ok\\"}";',
        '  }',
        '  String profile(String user) {',
        '    return "{\\"user_name\\":\\"" + user + "\\",\\"theme\\":\\"dark\\"}";',
        '  }',
        '}',
      ]),
    ).toEqual([
      '3 error PO102 → return "{\\"username\\":\\"" + user + "\\",\\"client_id\\":\\"" + id',
      '8 error PO103',
      '11 info PO102 → return "{\\"username\\":\\"" + user + "\\",\\"theme\\":\\"dark\\"}";',
    ]);
  });

  it('a decimal written once and sent as the amount by its name; one only shown to people is not', async () => {
    expect(
      await check('order.sh', [
        '#!/usr/bin/env bash',
        'AMOUNT="12.50"',
        'TOTAL="12.50"',
        'CENTS="1250"',
        'echo "Total: $TOTAL"',
        'curl -s "$CHECKOUT_URL/checkout" --data "{\\"amount\\":\\"$AMOUNT\\",\\"callback_success\\":\\"$OK\\"}"',
        'curl -s "$CHECKOUT_URL/checkout" --data "{\\"amount\\":\\"$CENTS\\",\\"callback_success\\":\\"$OK\\"}"',
      ]),
    ).toEqual(['2 error PO104']);
    expect(
      await check('order.py', [
        'price = "12.50"',
        'label = "12.50"',
        'body = {"amount": price, "description": label, "callback_success": ok}',
      ]),
    ).toEqual(['1 error PO104']);
  });

  it('a hash read of the link in a language without a grammar (Perl)', async () => {
    expect(
      await check('pay.pl', [
        'my $order = decode_json($res->{content});',
        'print $order->{links}{checkoutLink}, "\\n";',
        'print $order->{"links"}->{"checkout"};',
        'print $order->{links}{success};',
      ]),
    ).toEqual([
      '2 warning PO105 → print $order->{links}{checkout_link}, "\\n";',
      '3 warning PO105 → print $order->{"links"}->{"checkout_link"};',
    ]);
  });

  it('lookups built with a format string: % and str.format', async () => {
    expect(
      await check('look.py', [
        'import requests',
        'CHECKOUT_URL = "https://checkout.example.com/v2/api"',
        'def lookup(order_id):',
        '    return requests.get("%s/order/%s" % (CHECKOUT_URL, order_id)).json()',
        'def lookup_again(order_id):',
        '    return requests.get("{}/order/{}".format(CHECKOUT_URL, order_id)).json()',
        'def page(order_id):',
        '    return render("%s/orders/%s" % (CHECKOUT_URL, order_id))',
      ]),
    ).toEqual([
      '4 error PO106 → return requests.get("%s/orders/%s" % (CHECKOUT_URL, order_id)).json()',
      '6 error PO106 → return requests.get("{}/orders/{}".format(CHECKOUT_URL, order_id)).json()',
    ]);
  });

  it("a lookup path joined from an array of parts: the service's base, not the shop's own pages", async () => {
    expect(
      await check('client.js', [
        'class Client {',
        "  orderPath(id) { return [this.config.checkoutUrl, 'order', id].join('/'); }",
        "  nextPath(id) { return [this.config.checkoutUrl, 'orders', id].join('/'); }",
        "  pagePath(id) { return ['/shop', 'order', id].join('/'); }",
        "  label(id) { return ['order', id].join(' '); }",
        '}',
      ]),
    ).toEqual([
      "2 error PO106 → orderPath(id) { return [this.config.checkoutUrl, 'orders', id].join('/'); }",
    ]);
  });

  it("Ruby: a version prefix as a keyword parameter's default, a lookup path a helper returns to the service's client", async () => {
    expect(
      await check('client.rb', [
        'class PayorderClient',
        "  def initialize(checkout_base:, api_prefix: '/1', page: '1')",
        '    @checkout = Faraday.new(url: "#{checkout_base}#{api_prefix}/")',
        '  end',
        '  def order_path(uuid)',
        '    "order/#{uuid}"',
        '  end',
        '  def page_path(id)',
        '    "order/#{id}"',
        '  end',
        '  def find_order(uuid)',
        '    @checkout.get(order_path(uuid))',
        '  end',
        '  def show(id)',
        '    redirect_to page_path(id)',
        '  end',
        'end',
      ]),
    ).toEqual([
      "2 error PO101 → def initialize(checkout_base:, api_prefix: '/v2/api', page: '1')",
      '3 error PO101',
      '6 error PO106 → "orders/#{uuid}"',
    ]);
  });

  it('cents made units again: BigDecimal.valueOf(cents, 2), movePointLeft(2), quantize(Decimal("0.01")); whole units are not', async () => {
    expect(
      await check('Orders.java', [
        'class Orders {',
        '  Map<String, Object> body(long cents) {',
        '    Map<String, Object> body = new HashMap<>();',
        '    body.put("amount", BigDecimal.valueOf(cents, 2).toPlainString());',
        '    body.put("callback_success", ok);',
        '    body.put("count", BigDecimal.valueOf(cents, 2));',
        '    return body;',
        '  }',
        '  OrderRequest request(long cents) {',
        '    return new OrderRequest(BigDecimal.valueOf(cents).movePointLeft(2).toString(), "Tea");',
        '  }',
        '  String plain(long cents) { return String.valueOf(cents); }',
        '}',
      ]),
    ).toEqual(['4 error PO104', '10 error PO104']);
    expect(
      await check('orders.py', [
        'from decimal import Decimal',
        'def body(total):',
        '    return {"amount": str(Decimal(total).quantize(Decimal("0.01"))), "callback_success": ok}',
        'def whole(total):',
        '    return {"amount": str(int(Decimal(total).quantize(Decimal("1")))), "callback_success": ok}',
      ]),
    ).toEqual(['3 error PO104']);
  });

  it('rounding cents to two places is still cents: round($total * 100, 2) is not a decimal amount; round($total, 2) is', async () => {
    expect(
      await check('Pay.php', [
        '<?php',
        "$order = ['amount' => (string) (int) round((float) $total * 100, 2), 'callback_success' => $ok];",
        "$legacy = ['amount' => (string) round($total, 2), 'callback_success' => $ok];",
      ]),
    ).toEqual(['3 error PO104']);
  });

  it('shell: the link read by a function of the script, grep or sed, not only by jq', async () => {
    expect(
      await check('pay.sh', [
        '#!/bin/sh',
        'resp=$(curl -s -X POST "$CHECKOUT_URL/v2/api/checkout" -d "$body")',
        'link=$(echo "$resp" | json_get checkoutLink)',
        'link=$(echo "$resp" | grep -o \'"checkoutLink":"[^"]*"\' | cut -d\'"\' -f4)',
        'link=$(echo "$resp" | json_get checkout_link)',
      ]),
    ).toEqual([
      '3 error PO105 → link=$(echo "$resp" | json_get checkout_link)',
      '4 error PO105 → link=$(echo "$resp" | grep -o \'"checkout_link":"[^"]*"\' | cut -d\'"\' -f4)',
    ]);
  });

  it('a language without a grammar: a version prefix as a default, the link read by a regular expression', async () => {
    expect(
      await check('Client.pm', [
        'package PayOrder::Client;',
        "my $self = { base => $args{base}, prefix => $args{prefix} // '/1' };",
        'my ($link) = $body =~ /"checkoutLink":"([^"]+)"/;',
        "my $next = $page->{'next'} // '/1';",
      ]),
    ).toEqual([
      "2 warning PO101 → my $self = { base => $args{base}, prefix => $args{prefix} // '/v2/api' };",
      '3 warning PO105 → my ($link) = $body =~ /"checkout_link":"([^"]+)"/;',
    ]);
  });

  it("Perl without a grammar: a bare userName key, a lookup between interpolations, PENDING compared; errors where the file writes the service's own keys", async () => {
    expect(
      await check('PayOrder.pm', [
        'package PayOrder;',
        'my $body = { amount => $amount, userName => $self->{user}, callback_success => $ok };',
        'my $found = $self->_call(\'GET\', "$self->{checkout_base}$self->{prefix}/order/$uuid");',
        "if ($found->{status} eq 'PENDING') { wait_more(); }",
      ]),
    ).toEqual([
      '2 error PO103',
      '3 error PO106 → my $found = $self->_call(\'GET\', "$self->{checkout_base}$self->{prefix}/orders/$uuid");',
      '4 warning PO107',
    ]);
    // Without the service's own keys in the file, text is a warning at most.
    expect(
      await check('Order.pm', [
        'package Order;',
        'my $body = { amount => $amount, userName => $self->{user} };',
        "print $order->{links}{checkoutLink} if $order->{status} eq 'PENDING';",
      ]),
    ).toEqual([
      '2 warning PO103',
      "3 warning PO105 → print $order->{links}{checkout_link} if $order->{status} eq 'PENDING';",
      '3 warning PO107',
    ]);
    // The shop's own page, a user name in a message, PENDING as a word of a text: info at most.
    expect(
      await check('Shop.pm', [
        'package Shop;',
        'my $page = "/order/$id";',
        'print "userName: $name\\n";',
        'print "PENDING orders: $count\\n";',
      ]),
    ).toEqual(['4 info PO107']);
  });

  it('a version kept in a config array and joined later is reported and fixed where the array sets it', async () => {
    expect(
      await check('Client.php', [
        '<?php',
        'class PayOrderClient {',
        "    private $config = ['auth_base' => 'https://auth.example.com', 'api_version' => '1'];",
        '    public function tokenUrl() {',
        "        return $this->config['auth_base'] . '/' . $this->config['api_version'] . '/auth/token';",
        '    }',
        '}',
      ]),
    ).toEqual([
      "3 error PO101 → private $config = ['auth_base' => 'https://auth.example.com', 'api_version' => 'v2/api'];",
      "5 error PO101 → private $config = ['auth_base' => 'https://auth.example.com', 'api_version' => 'v2/api'];",
    ]);
  });
});

describe('v1 shapes across the files of a client', () => {
  const checkFolder = async (files: Record<string, string>) => {
    const dir = tempDir();
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const result = await runInProcess(['migrate-check', dir, '--json'], {
      env: { PAYORDER_NOW: '2026-12-21T10:00:00Z' },
    });
    const report = JSON.parse(result.stdout) as { findings: Finding[] };
    return report.findings.map(
      (f) => `${f.location.file.slice(dir.length + 1)}:${f.location.line} ${f.rule} ${f.message}`,
    );
  };

  it('a version prefix defined in the config file the client uses is followed into the client', async () => {
    expect(
      await checkFolder({
        'config.php':
          "<?php\ndefine('PO_API_PREFIX', '/1');\ndefine('PO_AUTH_HOST', getenv('PO_AUTH_HOST'));\n",
        'payorder.php': [
          '<?php',
          "require_once __DIR__ . '/config.php';",
          "$token = po_request('POST', PO_AUTH_HOST . PO_API_PREFIX . '/auth/token', ['client_secret_id' => $secret]);",
          '',
        ].join('\n'),
        'unused.php': "<?php\ndefine('API_BASE', '/1');\n",
      }),
    ).toEqual([
      'config.php:2 PO101 a v1 address (the /1 version prefix)',
      'payorder.php:3 PO101 a v1 address (the /1 version prefix), through PO_API_PREFIX',
    ]);
    expect(
      await checkFolder({
        'settings.py': 'API_PREFIX = "/1"\n',
        'client.py': [
          'from .settings import API_PREFIX',
          'import requests',
          'def token(base, secret):',
          '    return requests.post(base + API_PREFIX + "/auth/token", json={"client_secret_id": secret})',
          '',
        ].join('\n'),
      }),
    ).toEqual([
      'client.py:4 PO101 a v1 address (the /1 version prefix), through API_PREFIX',
      'settings.py:1 PO101 a v1 address (the /1 version prefix)',
    ]);
  });

  it('the version alone ("1") under an API version name, in a config array another file joins', async () => {
    expect(
      await checkFolder({
        'config.php': [
          '<?php',
          'return [',
          "    'auth_base' => getenv('AUTH_BASE'),",
          "    'api_version' => '1',",
          "    'version' => '1',",
          '];',
          '',
        ].join('\n'),
        'checkout.php': [
          '<?php',
          "$config = require __DIR__ . '/config.php';",
          "$url = $config['auth_base'] . '/' . $config['api_version'] . '/auth/token';",
          "$token = post_json($url, ['client_secret_id' => $config['secret']]);",
          '',
        ].join('\n'),
        // Not used by the client: its API version is another API's.
        'feeds.php': "<?php\nreturn ['api_version' => '1'];\n",
      }),
    ).toEqual(['config.php:4 PO101 a v1 address (the /1 version prefix)']);
  });
});

/**
 * PO101 and PO106 on addresses (src/migrate/syntax/addresses.ts), through migrate-check's entry point:
 * what anchors a /1 or an /order/ path to the service (its host, the name or key it is kept under,
 * the client or call it goes to, a service path after it), what does not (a shop's own routes,
 * callbacks, dates, other versions), and where each finding and its suggested line go.
 */
import { describe, expect, it } from 'vitest';
import { checkSource } from '../../src/migrate/source.js';

/** Findings as "LINE:COLUMN SEVERITY RULE", "(if)" where the message hedges, "[NAME]" at a use, "→ line". */
const check = async (file: string, lines: string[]) =>
  (await checkSource(lines.join('\n'), file)).map(
    (f) =>
      `${f.location.line}:${f.location.column} ${f.severity} ${f.rule}` +
      (f.message.includes('(if this is') ? ' (if)' : '') +
      (f.message.includes(', through ') ? ` [${f.message.split(', through ')[1]}]` : '') +
      (f.replacement ? ` → ${f.replacement}` : ''),
  );

describe('PO101: the /1 version prefix', () => {
  it('anchored by its host, a service path after it, or a name for the prefix; a shop’s own /1 is info; other numbers are not versions', async () => {
    expect(
      await check('config.js', [
        "const AUTH_URL = 'https://auth.example.com/1';",
        "const SHOP = 'https://shop.example.com/1';",
        "const x = 'https://shop.example.com/1/auth/token';",
        "const API_PREFIX = '/1';",
        "const other = '/1';",
        "const p = 'https://auth.example.com/10';",
        "const d = '2024/1/5';",
        "const q = 'https://auth.example.com/1x';",
      ]),
    ).toEqual([
      "1:43 error PO101 → const AUTH_URL = 'https://auth.example.com/v2/api';",
      "2:39 info PO101 (if) → const SHOP = 'https://shop.example.com/v2/api';",
      "3:36 error PO101 → const x = 'https://shop.example.com/v2/api/auth/token';",
      "4:21 error PO101 → const API_PREFIX = '/v2/api';",
      "5:16 info PO101 (if) → const other = '/v2/api';",
    ]);
  });

  it('a base given to a client under a base key, or with a path appended, is an error', async () => {
    expect(
      await check('client.js', [
        'const client = axios.create({ baseURL: `${BASE}/1` });',
        'const c2 = axios.create({ baseURL: `${BASE}/1/` });',
        "const c3 = make({ endpoint: HOST + '/1' });",
        'fetch(`${base}/1${path}`);',
      ]),
    ).toEqual([
      '1:48 error PO101 → const client = axios.create({ baseURL: `${BASE}/v2/api` });',
      '2:44 error PO101 → const c2 = axios.create({ baseURL: `${BASE}/v2/api/` });',
      "3:37 error PO101 → const c3 = make({ endpoint: HOST + '/v2/api' });",
      '4:15 error PO101 → fetch(`${base}/v2/api${path}`);',
    ]);
  });

  it('a constant with the prefix is reported where it is written and at each use, which is fixed where it is defined', async () => {
    const findings = await checkSource(
      ["const CHECKOUT = 'https://checkout.example.com/1';", "fetch(CHECKOUT + '/checkout');"].join('\n'),
      'pay.js',
    );
    expect(findings.map((f) => [f.location.line, f.location.column, f.severity, f.message, f.fix])).toEqual([
      [
        1,
        47,
        'error',
        'a v1 address (the /1 version prefix)',
        'use the v2 base address and the /v2/api prefix',
      ],
      [
        2,
        7,
        'error',
        'a v1 address (the /1 version prefix), through CHECKOUT',
        'use the v2 base address and the /v2/api prefix where CHECKOUT is defined',
      ],
    ]);
    expect(findings[1]!.replacement).toBeUndefined();
  });

  it('a hedged finding says so', async () => {
    const [finding] = await checkSource("const SHOP = 'https://shop.example.com/1';", 'shop.js');
    expect(finding!.message).toBe(
      "a v1 address (the /1 version prefix) (if this is the payment order service's address)",
    );
  });

  it('built by Python’s % and format(), sprintf and an `or` default', async () => {
    expect(
      await check('build.py', [
        'import requests',
        'url = "%s/1/auth/token" % base',
        'u2 = "{}/1/checkout".format(base)',
        'u3 = base or "https://auth.example.com/1"',
      ]),
    ).toEqual([
      '2:10 error PO101 → url = "%s/v2/api/auth/token" % base',
      '3:9 error PO101 → u2 = "{}/v2/api/checkout".format(base)',
      '4:39 error PO101 → u3 = base or "https://auth.example.com/v2/api"',
    ]);
    expect(await check('build.php', ['<?php', '$u = sprintf("%s/1/auth/token", $base);'])).toEqual([
      '2:17 error PO101 → $u = sprintf("%s/v2/api/auth/token", $base);',
    ]);
  });

  it('the version alone under a name for the API’s version; joined to a slash, it is fixed where it is written', async () => {
    expect(
      await check('config.php', [
        '<?php',
        "$cfg = ['api_version' => '1', 'version' => '1', 'api_version2' => '1', 'API_PREFIX' => '1/'];",
      ]),
    ).toEqual([
      "2:27 error PO101 → $cfg = ['api_version' => 'v2/api', 'version' => '1', 'api_version2' => '1', 'API_PREFIX' => '1/'];",
    ]);
    expect(
      await check('config.py', [
        'API_VERSION = "1"',
        'api_version = "2"',
        'VERSION = "1"',
        'url = base + "/" + API_VERSION + "/auth/token"',
      ]),
    ).toEqual(['1:16 error PO101 → API_VERSION = "v2/api"', '4:15 error PO101 → API_VERSION = "v2/api"']);
  });

  it('a shop’s constant is info where it is written and where it is used; a path after the prefix, a bare version path and a call the service does not take are hedged; a name with "version" anchors it', async () => {
    expect(
      await check('hedged.js', [
        "const SHOP = 'https://shop.example.com/1';",
        'fetch(SHOP);',
        'fetch(`${BASE}/1/${path}`);',
        "const VERSION_PATH = '/1';",
        "axios.get(base + '/1');",
        "const A = '/1/';",
      ]),
    ).toEqual([
      "1:39 info PO101 (if) → const SHOP = 'https://shop.example.com/v2/api';",
      '2:7 info PO101 (if) [SHOP]',
      '3:15 info PO101 (if) → fetch(`${BASE}/v2/api/${path}`);',
      "4:23 error PO101 → const VERSION_PATH = '/v2/api';",
      "5:19 info PO101 (if) → axios.get(base + '/v2/api');",
      "6:12 info PO101 (if) → const A = '/v2/api/';",
    ]);
  });

  it('the name an address is kept under counts through a list; a PHP variable is named without its $', async () => {
    expect(
      await check('names.js', [
        "const auth_url = ['https://x.example.com/1'];",
        "const other = ['https://x.example.com/1'];",
      ]),
    ).toEqual([
      "1:41 error PO101 → const auth_url = ['https://x.example.com/v2/api'];",
      "2:38 info PO101 (if) → const other = ['https://x.example.com/v2/api'];",
    ]);
    expect(await check('config.php', ['<?php', "$api_version = '1';", "$version = '1';"])).toEqual([
      "2:17 error PO101 → $api_version = 'v2/api';",
    ]);
  });

  it('a piece of a concatenation, an interpolation or a % format is judged with the whole, under the name it is kept', async () => {
    expect(
      await check('pieces.js', [
        "const api_url = 'https://shop.example.com' + '/1';",
        "const auth_url = 'https://x.example.com' + '/1';",
        "const api_url2 = `https://shop.example.com${'/1'}`;",
      ]),
    ).toEqual([
      "1:47 info PO101 (if) → const api_url = 'https://shop.example.com' + '/v2/api';",
      "2:45 error PO101 → const auth_url = 'https://x.example.com' + '/v2/api';",
      "3:46 info PO101 (if) → const api_url2 = `https://shop.example.com${'/v2/api'}`;",
    ]);
    expect(
      await check('pieces.py', ['api_url = "https://shop.example.com%s" % "/1"', 'auth_url = "%s/1" % x']),
    ).toEqual([
      '1:43 info PO101 (if) → api_url = "https://shop.example.com%s" % "/v2/api"',
      '2:15 error PO101 → auth_url = "%s/v2/api" % x',
    ]);
  });

  it('a slash joined to a literal that goes on after the version is reported without a suggested line', async () => {
    expect(
      await check('split.js', [
        'fetch(`${CHECKOUT}/v2/api/checkout`);',
        "fetch('https://auth.example.com' + '/' + '1/auth/token');",
        "fetch('https://auth.example.com' + '/' + '1');",
      ]),
    ).toEqual(['2:37 error PO101', "3:37 error PO101 → fetch('https://auth.example.com' + '/' + 'v2/api');"]);
  });

  it('a version kept apart and joined with a slash is fixed where the version is written', async () => {
    expect(
      await check('joined.js', [
        "const API = 'https://auth.example.com';",
        "const V = '1';",
        "fetch(API + '/' + V);",
        "fetch(API + '/' + V + '/auth/token');",
        'fetch(`${API}/1/order/${id}`);',
      ]),
    ).toEqual([
      "3:14 error PO101 → const V = 'v2/api';",
      "4:14 error PO101 → const V = 'v2/api';",
      '5:14 error PO101 → fetch(`${API}/v2/api/orders/${id}`);',
      '5:16 error PO106 → fetch(`${API}/v2/api/orders/${id}`);',
    ]);
  });

  it('a constant with the prefix is reported where it is passed, set as a key’s value or assigned', async () => {
    expect(
      await check('uses.js', [
        "const AUTH = 'https://auth.example.com/1';",
        'fetch(AUTH);',
        'post({ url: AUTH });',
        'request(url = AUTH);',
        'let x; x = AUTH;',
        'const y = [AUTH];',
      ]),
    ).toEqual([
      "1:39 error PO101 → const AUTH = 'https://auth.example.com/v2/api';",
      '2:7 error PO101 [AUTH]',
      '3:13 error PO101 [AUTH]',
      '4:15 error PO101 [AUTH]',
      '5:12 error PO101 [AUTH]',
    ]);
  });
});

describe('PO106: the v1 lookup path /order/:id', () => {
  it('anchored by a service host, a base named for the service, a client of it, or a base passed beside it', async () => {
    expect(
      await check('lookup.js', [
        '// checkout',
        'fetch(`${base}/order/${id}`);',
        'fetch(`https://pay.example.com/order/${id}`);',
        'fetch(`https://shop.example.com/order/${id}`);',
        'fetch(`/order/${id}`);',
        'checkout.get(`/order/${id}`);',
        'url(cfg.checkoutBase, `/order/${id}`);',
        'url(cfg.assetsBase, `/order/${id}`);',
        'fetch(`${checkoutBase}/order/${id}`);',
        'fetch(`${checkoutBase}/orders/${id}`);',
        'fetch(`${checkoutBase}/order/list`);',
      ]),
    ).toEqual([
      '2:15 info PO106 (if) → fetch(`${base}/orders/${id}`);',
      '3:31 error PO106 → fetch(`https://pay.example.com/orders/${id}`);',
      '6:15 error PO106 → checkout.get(`/orders/${id}`);',
      '7:24 error PO106 → url(cfg.checkoutBase, `/orders/${id}`);',
      '9:23 error PO106 → fetch(`${checkoutBase}/orders/${id}`);',
    ]);
  });

  it('the shop’s own routes and the pages it gives the service as callbacks are not lookups', async () => {
    expect(
      await check('routes.js', [
        'const CHECKOUT = "https://checkout.example.com/v2/api";',
        "app.get('/order/:id', (req, res) => res.send(1));",
        "path('order/<int:pk>/', view);",
        'const o = { callback_success: `${shop}/order/${id}/paid`, callback_fail: `${CHECKOUT}/order/${id}/failed` };',
      ]),
    ).toEqual([]);
  });

  it('after a /1 prefix, a lookup is an error too, fixed where the path is written', async () => {
    expect(
      await check('pay.js', [
        "const CHECKOUT = 'https://checkout.example.com/1';",
        'fetch(`${CHECKOUT}/order/${id}`);',
      ]),
    ).toEqual([
      "1:47 error PO101 → const CHECKOUT = 'https://checkout.example.com/v2/api';",
      '2:10 error PO101 [CHECKOUT]',
      '2:19 error PO106 → fetch(`${CHECKOUT}/orders/${id}`);',
    ]);
    const [, , lookup] = await checkSource(
      ["const CHECKOUT = 'https://checkout.example.com/1';", 'fetch(`${CHECKOUT}/order/${id}`);'].join('\n'),
      'pay.js',
    );
    expect([lookup!.message, lookup!.fix]).toEqual([
      'the v1 lookup path /order/:id',
      'GET /orders/:uuid (by the uuid)',
    ]);
  });

  it('an address of another host is not a lookup; one sent by a client named for the service is, and url() with the path first is a route', async () => {
    expect(
      await check('hosts.js', [
        "fetch('https://shop.example.com/order/' + id);",
        "fetch('https://checkout.example.com/order/' + id);",
        "url('/order/' + id, cfg.checkoutBase);",
        "api.get('/order/' + id);",
        "payorderClient.get('/order/' + id);",
      ]),
    ).toEqual([
      "2:36 error PO106 → fetch('https://checkout.example.com/orders/' + id);",
      "5:21 error PO106 → payorderClient.get('/orders/' + id);",
    ]);
  });

  it('after a shop’s /1 prefix, a lookup is an error; a lookup path kept in a constant is reported there without a suggested line', async () => {
    expect(
      await check('shop.js', ["const SHOP = 'https://shop.example.com/1';", 'fetch(`${SHOP}/order/${id}`);']),
    ).toEqual([
      "1:39 error PO101 → const SHOP = 'https://shop.example.com/v2/api';",
      '2:10 error PO101 [SHOP]',
      '2:15 error PO106 → fetch(`${SHOP}/orders/${id}`);',
    ]);
    expect(await check('path.js', ["const P = '/order/';", 'fetch(checkoutBase + P + id);'])).toEqual([
      '1:12 error PO106',
    ]);
  });

  it('a route with a handler is the shop’s, whatever its router is named', async () => {
    expect(
      await check('router.js', [
        "checkoutRouter.get('/order/:id', (req, res) => res.send(1));",
        "checkoutRouter.get('/order/' + id);",
      ]),
    ).toEqual(["2:21 error PO106 → checkoutRouter.get('/orders/' + id);"]);
  });

  it('a path joined from parts, and one passed to a call with other arguments', async () => {
    expect(
      await check('join.js', [
        "const parts = [base, 'order', id].join('/');",
        'fetch(`${checkoutBase}/order/${id}`, { headers });',
      ]),
    ).toEqual([
      "1:41 info PO106 (if) → const parts = [base, 'orders', id].join('/');",
      '2:23 error PO106 → fetch(`${checkoutBase}/orders/${id}`, { headers });',
    ]);
  });

  it('every callback key is the shop’s page; another key is a lookup', async () => {
    expect(
      await check('callbacks.js', [
        'const c = { return_url: `${CHECKOUT}/order/${id}`, notification_url: `${CHECKOUT}/order/${id}`, cancel_url: `${CHECKOUT}/order/${id}`, failure_url: `${CHECKOUT}/order/${id}`, other_url: `${CHECKOUT}/order/${id}` };',
        'const CHECKOUT = "https://checkout.example.com/v2/api";',
      ]),
    ).toEqual([
      '1:52 warning PO108',
      '1:199 error PO106 → const c = { return_url: `${CHECKOUT}/order/${id}`, notification_url: `${CHECKOUT}/order/${id}`, cancel_url: `${CHECKOUT}/order/${id}`, failure_url: `${CHECKOUT}/order/${id}`, other_url: `${CHECKOUT}/orders/${id}` };',
    ]);
  });

  it('a Sinatra route, re_path and HandleFunc are the shop’s; a block given to a client’s get is not a route', async () => {
    expect(
      await check('routes.rb', [
        'get "/order/:id" do',
        '  1',
        'end',
        'checkout.get("/order/#{id}") do',
        'end',
        're_path("order/<id>/", view)',
        'router.HandleFunc("/order/{id}", h)',
      ]),
    ).toEqual(['4:15 error PO106 → checkout.get("/orders/#{id}") do']);
  });

  it('a path a helper returns is a lookup when the helper’s value is sent by a client of the service', async () => {
    expect(
      await check('client.rb', [
        'class C',
        '  def order_path(uuid)',
        '    "order/#{uuid}"',
        '  end',
        '  def run',
        '    @checkout.get(order_path(uuid))',
        '  end',
        'end',
        'def other_path(uuid)',
        '  "order/#{uuid}"',
        'end',
        'x(other_path(u))',
      ]),
    ).toEqual(['3:6 error PO106 → "orders/#{uuid}"']);
  });
});

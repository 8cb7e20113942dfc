/**
 * The text an address is built into (src/migrate/syntax/values.ts), through migrate-check's findings:
 * which ways of building a string are followed (constants, another file's constants, a map's key, a
 * default, `%` and format calls, joins, `new URL`), where each character of the result is reported
 * (the literal it is written in, and each name it was reached through), and what the folded text must
 * look like to be an address of the service.
 */
import { describe, expect, it } from 'vitest';
import { checkSource, checkSources } from '../../src/migrate/source.js';

/** Findings as "LINE:COLUMN SEVERITY RULE", "[NAME]" at a use reached through NAME. */
const check = async (file: string, lines: string[], constants?: Record<string, string>) =>
  (
    await checkSources([{ file, text: lines.join('\n'), ...(constants ? { constants } : {}) }], {
      workers: 0,
    })
  ).map(
    (f) =>
      `${f.location.line}:${f.location.column} ${f.severity} ${f.rule}` +
      (f.message.includes(', through ') ? ` [${f.message.split(', through ')[1]}]` : ''),
  );

describe('what is followed', () => {
  it('a Spring placeholder is its default, reported where the default is written', async () => {
    expect(
      await check('App.java', [
        'class App {',
        '  @Value("${payorder.auth-url:https://auth.example.com/1}")',
        '  String authUrl;',
        '}',
      ]),
    ).toEqual(['2:55 error PO101']);
  });

  it('a constant of another file is known by its text, and reported where this file uses it', async () => {
    expect(
      await check('pay.php', ['<?php', '$http->post(PO_BASE . PO_API_PREFIX . "/checkout", $body);'], {
        PO_API_PREFIX: '/1',
        PO_BASE: 'https://pay.example.com',
      }),
    ).toEqual(['2:23 error PO101 [PO_API_PREFIX]']);
  });

  it('a key of the map an object was set to ($this->config["api_version"])', async () => {
    expect(
      await check('pay.php', [
        '<?php',
        'class Pay {',
        '  private $config = ["api_version" => "/1", "auth_base" => "https://auth.example.com"];',
        '  function token() { return $this->http->post($this->config["auth_base"] . $this->config["api_version"] . "/auth/token"); }',
        '}',
      ]),
    ).toEqual(['3:40 error PO101', '4:91 error PO101 [api_version]']);
  });

  it('a default after || is followed when what comes before it is unknown', async () => {
    expect(
      await check('pay.js', [
        'const base = process.env.PAY_URL || "https://pay.example.com/1";',
        'fetch(base + "/checkout");',
      ]),
    ).toEqual(['1:61 error PO101', '2:7 error PO101 [base]']);
  });

  it('Python: % with one value or a tuple, str.format with {} or {0}', async () => {
    expect(
      await check('pay.py', [
        'url = "%s/1/checkout" % BASE',
        'url2 = "%s/%s/checkout" % (BASE, "1")',
        'url3 = "{}/1/checkout".format(base)',
        'url4 = "{0}/{1}/checkout".format(base, "1")',
      ]),
    ).toEqual(['1:10 error PO101', '2:11 error PO101', '3:11 error PO101', '4:12 error PO101']);
  });

  it('Java: String.format, with or without a Locale first', async () => {
    expect(
      await check('Pay.java', [
        'class Pay {',
        '  String u = String.format("%s/1/checkout", base);',
        '  String v = String.format(Locale.ROOT, "%s/1/checkout", base);',
        '}',
      ]),
    ).toEqual(['2:31 error PO101', '3:44 error PO101']);
  });

  it('a list joined (at the separator before the version), path.join, and new URL(path, base) with the base first', async () => {
    expect(
      await check('pay.js', [
        'const v = ["https://pay.example.com", "1", "checkout"].join("/");',
        'const w = path.join(base, "/1/checkout");',
        'const u = new URL("/1", "https://auth.example.com");',
        'fetch(u, { method: "POST" });',
      ]),
    ).toEqual(['1:62 error PO101', '2:28 error PO101', '3:20 error PO101', '4:7 error PO101 [u]']);
  });

  it('an environment variable’s name names the unknown base: getenv("CHECKOUT_URL") + "/1" is the service', async () => {
    expect(
      await check('pay.py', [
        'requests.post(os.getenv("CHECKOUT_URL") + "/1", json=body)',
        'requests.post(os.getenv("SHOP_URL") + "/1", json=body)',
        'url = os.environ.get("AUTH_URL", "https://example.com/1")',
      ]),
    ).toEqual(['1:44 error PO101', '2:40 info PO101', '3:54 info PO101']);
  });

  it('PHP: a value behind @ (errors silenced) is the value: @getenv("CHECKOUT_URL") names the base', async () => {
    expect(
      await check('pay.php', [
        '<?php',
        '$http->post(@getenv("CHECKOUT_URL") . "/1", $body);',
        '$http->post(@getenv("SHOP_URL") . "/1", $body);',
      ]),
    ).toEqual(['2:40 error PO101', '3:36 info PO101']);
  });

  it('a default given as a name: the environment variable still names the base', async () => {
    expect(
      await check('pay.py', [
        'requests.post(os.environ.get("CHECKOUT_URL", DEFAULT) + "/1", json=body)',
        'requests.post(os.environ.get("SHOP_URL", DEFAULT) + "/1", json=body)',
      ]),
    ).toEqual(['1:58 error PO101', '2:54 info PO101']);
  });

  it('Java: the default is the last argument of getProperty, followed to where the value is used', async () => {
    expect(
      await check('Pay.java', [
        'class Pay {',
        '  void pay() {',
        '    String authUrl = env.getProperty("payorder.auth", String.class, "https://auth.example.com/1");',
        '    http.post(authUrl + "/auth/token", body);',
        '  }',
        '}',
      ]),
    ).toEqual(['3:94 error PO101', '4:15 error PO101 [authUrl]']);
  });

  it('urljoin(base, path) is followed to where its result is used', async () => {
    expect(
      await check('pay.py', [
        'token = urljoin(AUTH_BASE, "/1/auth/token")',
        'requests.post(token, data=body)',
      ]),
    ).toEqual(['1:29 error PO101', '2:15 error PO101 [token]']);
  });

  it('of two values of a name, the one with text: a base set from the environment in one branch is still the literal', async () => {
    expect(
      await check('pay.js', [
        'let base = "https://pay.example.com/1";',
        'if (sandbox) base = process.env.PAY_BASE;',
        'fetch(base + "/checkout", { method: "POST" });',
      ]),
    ).toEqual(['1:36 error PO101', '3:7 error PO101 [base]']);
  });

  it('a numeric version is text: f"{BASE}/{API_VERSION}/checkout" is reported, with the version changed where it is defined', async () => {
    const findings = await checkSource(
      [
        'BASE = "https://example.com"',
        'API_VERSION = 1',
        'requests.post(f"{BASE}/{API_VERSION}/checkout", json=body)',
      ].join('\n'),
      'pay.py',
    );
    expect(
      findings.map((f) => `${f.location.line}:${f.location.column} ${f.rule} → ${f.replacement}`),
    ).toEqual(['3:23 PO101 → API_VERSION = v2/api']);
  });
});

describe('what the folded text must look like', () => {
  it('an address anywhere in a string (JSON in a string, a curl command) is found; "page/1" and a date-like path are not addresses', async () => {
    expect(
      await check('pay.js', [
        'const body = \'{"auth_url": "https://auth.example.com/1"}\';',
        'const cmd = "curl -X POST https://auth.example.com/1/auth/token";',
        'const page = "page/1";',
        'const date = "/2024/1/checkout";',
        'const shop = "https://pay.example.com/shop42/1/checkout";',
      ]),
    ).toEqual(['1:53 error PO101', '2:51 error PO101', '5:45 error PO101']);
  });

  it('a lookup path at the end of a base, or with a %s for the id, on a service client; not %x, not after /10', async () => {
    expect(
      await check('pay.js', [
        'const LOOKUP = "https://pay.example.com/1/order/";',
        'checkoutClient.get("/order/%s");',
        'checkoutClient.get("/order/%x");',
        'get("https://shop.example.com/10/order/" + id);',
      ]),
    ).toEqual(['1:40 error PO101', '1:42 error PO106', '2:21 error PO106']);
  });
});

describe('a built address followed to where it is used', () => {
  // The literal of a format string is reported on its own too; the finding at the use, "[NAME]",
  // exists only when the call building the address is folded.
  it('Java: String.format, with or without a Locale first', async () => {
    expect(
      await check('Pay.java', [
        'class Pay {',
        '  void pay() {',
        '    String checkoutUrl = String.format("%s/1/checkout", base);',
        '    http.post(checkoutUrl, body);',
        '    String tokenUrl = String.format(Locale.ROOT, "%s/1/auth/token", base);',
        '    http.post(tokenUrl, body);',
        '  }',
        '}',
      ]),
    ).toEqual([
      '3:43 error PO101',
      '4:15 error PO101 [checkoutUrl]',
      '5:53 error PO101',
      '6:15 error PO101 [tokenUrl]',
    ]);
  });

  it('Python: a dict constant’s key, str.format and % with a tuple', async () => {
    expect(
      await check('pay.py', [
        'CONFIG = {"auth_base": "https://auth.example.com/1"}',
        'requests.post(CONFIG["auth_base"] + "/auth/token", data=body)',
        'checkout_url = "{}/1/checkout".format(base)',
        'requests.post(checkout_url, json=body)',
        'lookup_url = "%s/1/order/%s" % (base, order_id)',
        'requests.get(lookup_url)',
      ]),
    ).toEqual([
      '1:49 error PO101',
      '2:23 error PO101 [auth_base]',
      '3:19 error PO101',
      '4:15 error PO101 [checkout_url]',
      '5:17 error PO101',
      '5:19 error PO106',
      '6:14 error PO101 [lookup_url]',
    ]);
  });

  it('a default given with its key (os.environ.get) is the value the name holds', async () => {
    expect(
      await check('pay.py', [
        'url = os.environ.get("CHECKOUT_URL", "https://example.com/1")',
        'requests.post(url, json=body)',
      ]),
    ).toEqual(['1:58 info PO101', '2:15 info PO101 [url]']);
  });

  it('Ruby: a global variable and a global hash’s key, without their $', async () => {
    expect(
      await check('pay.rb', [
        '$token_url = "https://auth.example.com/1/auth/token"',
        'HTTP.post($token_url, json: body)',
        '$config = { "auth_base" => "https://auth.example.com/1" }',
        'HTTP.post($config["auth_base"] + "/auth/token", json: body)',
      ]),
    ).toEqual([
      '1:39 error PO101',
      '2:11 error PO101 [$token_url]',
      '3:53 error PO101',
      '4:20 error PO101 [auth_base]',
    ]);
  });

  it('a list literal joined is followed; a variable joined is not (its items are unknown)', async () => {
    expect(
      await check('pay.js', [
        'const checkoutUrl = [BASE, "1", "checkout"].join("/");',
        'fetch(checkoutUrl, { method: "POST" });',
        'const pathUrl = parts.join("/");',
        'fetch(pathUrl + "/1/checkout", { method: "POST" });',
        'const orderUrl = [base, "1/checkout"].join("/");',
        'fetch(orderUrl, { method: "POST" });',
      ]),
    ).toEqual([
      '1:51 error PO101',
      '2:7 error PO101 [checkoutUrl]',
      '4:18 error PO101',
      '5:45 error PO101',
      '6:7 error PO101 [orderUrl]',
    ]);
  });

  it('Spring: text after a placeholder is kept; a default that is the prefix alone is a prefix', async () => {
    expect(
      await check('App.java', [
        'class App {',
        '  @Value("${payorder.api-prefix:/1}") private String apiPrefix;',
        '  @Value("${payorder.auth-base:https://auth.example.com}/1/auth/token") private String tokenUrl;',
        '}',
      ]),
    ).toEqual(['2:33 error PO101', '3:57 error PO101']);
  });
});

describe('a base with a trailing slash', () => {
  it('a base ending in / joined to /1/auth/token is still a v1 address; a host named 1 after the scheme is not a version', async () => {
    expect(
      await check('pay.js', [
        'const AUTH_BASE = "https://auth.example.com/";',
        'fetch(AUTH_BASE + "/1/auth/token", { method: "POST" });',
        'fetch("http://1/checkout", { method: "POST" });',
      ]),
    ).toEqual(['2:20 error PO101']);
  });
});

describe('how far a value is followed', () => {
  // Six steps at most (MAX_DEPTH): each chain below needs seven or eight, so its host is not seen
  // and the /1 is info; with the bound one step further, each would be an error.
  it('a base seven steps away is not followed: JavaScript defaults and templates', async () => {
    expect(
      await check('a.js', [
        'const HOST = "https://auth.example.com";',
        'const BASE = `${HOST}`;',
        'const BASE_URL = BASE || DEFAULT_URL;',
        'const API_URL = process.env.API_URL || BASE_URL;',
        'fetch(API_URL + "/1", { method: "POST" });',
      ]),
    ).toEqual(['5:18 info PO101']);
    expect(
      await check('a.js', [
        'const HOST = "https://auth.example.com";',
        'const BASE_URL = HOST || DEFAULT_URL;',
        'const API_URL = process.env.API_URL || BASE_URL;',
        'fetch(API_URL + "/1", { method: "POST" });',
      ]),
    ).toEqual(['4:18 error PO101']);
  });

  it('Python format calls and a default, a list joined, new URL and path.join, Java’s String.format and names', async () => {
    expect(
      await check('c.py', [
        'HOST = "https://auth.example.com"',
        'BASE = "{}".format(HOST)',
        'BASE_URL = os.environ.get("BASE_URL", BASE)',
        'API_URL = BASE_URL',
        'requests.post(API_URL + "/1", data=body)',
      ]),
    ).toEqual(['5:26 info PO101']);
    expect(
      await check('e.js', [
        'const HOST = "https://auth.example.com";',
        'const BASE = [HOST, "api"].join("/");',
        'const BASE_URL = new URL("v", BASE);',
        'const API_URL = path.join(BASE_URL, "x");',
        'fetch(API_URL + "/1", { method: "POST" });',
      ]),
    ).toEqual(['5:18 info PO101']);
    expect(
      await check('P.java', [
        'class P {',
        '  void p() {',
        '    String HOST = "https://auth.example.com";',
        '    String API_URL = String.format("%s", HOST);',
        '    String URL_1 = API_URL;',
        '    String URL_2 = URL_1;',
        '    String URL_3 = URL_2;',
        '    http.post(URL_3 + "/1", body);',
        '  }',
        '}',
      ]),
    ).toEqual(['8:24 info PO101']);
  });

  /** Six names in a row, the first given `value`: NAME_1 = value, NAME_2 = NAME_1, …, NAME_6 = NAME_5. */
  const chain = (name: string, value: string) =>
    Array.from({ length: 6 }, (_, i) => `${name}_${i + 1} = ${i === 0 ? value : `${name}_${i}`}`);
  /** The names the findings of a file were reached through, in order. */
  const through = (found: string[]) => found.flatMap((f) => /\[(\w+)\]$/.exec(f)?.[1] ?? []);

  it('an address built by concatenation, a map’s key, %, a format call or behind PHP’s @ reaches five names down, not six (PHP’s @ is a step of its own)', async () => {
    const js = await check('pay.js', [
      'function pay(HOST, body) {',
      '  const CONFIG = { checkoutUrl: "https://pay.example.com/1/checkout" };',
      ...chain('MAP_URL', 'CONFIG.checkoutUrl').map((line) => `  const ${line};`),
      '  fetch(MAP_URL_6, { method: "POST", body });',
      ...chain('CONCAT_URL', 'HOST + "/1/checkout"').map((line) => `  const ${line};`),
      '  fetch(CONCAT_URL_6, { method: "POST", body });',
      '}',
    ]);
    const py = await check('pay.py', [
      'def pay(HOST, body):',
      ...chain('PERCENT_URL', '"%s/1/checkout" % HOST').map((line) => `    ${line}`),
      '    requests.post(PERCENT_URL_6, json=body)',
      ...chain('FORMAT_URL', '"{}/1/checkout".format(HOST)').map((line) => `    ${line}`),
      '    requests.post(FORMAT_URL_6, json=body)',
    ]);
    const java = await check('Pay.java', [
      'class Pay {',
      '  void pay() {',
      ...chain('FORMAT_URL', 'String.format("%s/1/checkout", host)').map((line) => `    String ${line};`),
      '    http.post(FORMAT_URL_6, body);',
      ...chain('JOINED_URL', 'new URL("/1/checkout", host)').map((line) => `    URL ${line};`),
      '    http.post(JOINED_URL_6, body);',
      '  }',
      '}',
    ]);
    const php = await check('pay.php', [
      '<?php',
      'function pay($body) {',
      '  $config_url = "https://pay.example.com/1/checkout";',
      ...chain('$url', '@$config_url').map((line) => `  ${line};`),
      '  $http->post($url_6, $body);',
      '}',
    ]);
    const fiveOf = (name: string) => [1, 2, 3, 4, 5].map((i) => `${name}_${i}`);
    expect(through(js)).toEqual(['checkoutUrl', ...fiveOf('MAP_URL'), ...fiveOf('CONCAT_URL')]);
    expect(through(py)).toEqual([...fiveOf('PERCENT_URL'), ...fiveOf('FORMAT_URL')]);
    expect(through(java)).toEqual([...fiveOf('FORMAT_URL'), ...fiveOf('JOINED_URL')]);
    expect(through(php)).toEqual(['config_url', ...fiveOf('url').slice(0, 4)]);
  });
});

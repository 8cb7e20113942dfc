/**
 * How migrate-check decides a file talks to the service (src/migrate/evidence.ts): the marks that no
 * other API shares, the near-misses of real shops that are not marks, and the files of a folder tied
 * through a marked neighbour they use or that uses them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasServiceMark, references, ServiceEvidence } from '../../src/migrate/evidence.js';
import { tempDir } from '../helpers/cli.js';

describe('a mark of the service', () => {
  it.each([
    ['the spec’s own names, spelled any way', 'body.client_secret_id = s'],
    ['', 'const { clientSecretId } = cfg'],
    ['', 'ClientSecretID: x'],
    ['', "'callback-fail' => $url"],
    ['', 'callbackSuccess: ok'],
    ['', 'print(order["checkout_link"])'],
    ['a versioned path of an operation', 'post(base + "/1/auth/token")'],
    ['', 'fetch(`${b}/v2/api/checkout`)'],
    ['', 'get("/1/orders/" + id)'],
    ['', 'get(base + "/1/order/" + id)'],
    ['an auth or checkout address ending in a version', 'AUTH_URL=${AUTH_BASE}/1'],
    ['', 'CHECKOUT_URL: "https://pay.example.com/v2/api"'],
    ['', "'checkout_base' => 'https://x.example.com/1/'"],
    ['', 'auth.url: <%= ENV["AUTH"] %>/1'],
    ['', '  checkout_url: "<%= ENV.fetch(\'CHECKOUT_BASE\') %>/1"'],
    ['', 'AUTH_URL = "#{ENV[\'AUTH_BASE\']}/1"'],
    ['', 'auth_url = "#{base}/1"'],
    ['', 'checkout = %(base)s/1'],
    ['an address whose host names it', 'base = "https://auth.stage.example.com/1"'],
    ['', "url: 'https://checkout.example.com/api/v2/api'"],
    ['configuration named for the service', 'PAYORDER_AUTH_URL=https://x'],
    ['', 'settings.payorder_api_prefix'],
    ['', 'PAY-ORDERS-HOST'],
    ['the token request with its v1 fields', 'post("/auth/token", { user_name: u, client_id: c })'],
  ])('%s: %s', (_, text) => {
    expect(hasServiceMark(text)).toBe(true);
  });

  it.each([
    [
      'a shop’s own routes and OAuth',
      'app.post("/api/checkout"); post("/auth/token/refresh", { user_name, client_id })',
    ],
    ['another version', 'get(base + "/2/auth/token"); get("/v1/checkout")'],
    ['a token request without the v1 fields', 'post("/auth/token", { username: u, client_id: c })'],
    ['', 'post("/auth/token", { user_name: u })'],
    ['a version after an address that is neither auth nor checkout', 'API_URL=${BASE}/1'],
    ['', "api_url: <%= ENV['BASE'] %>/1"],
    ['', 'base = "https://shop.example.com/1"'],
    ['a relative version under an auth key', 'auth_prefix = "/1"'],
    ['a version that is not the end of the address', 'CHECKOUT_URL=https://x.example.com/1/extra'],
    ['a longer word around pay order', 'repayorder_url = x; const payorderly = 1'],
    ['the words alone', 'checkout(order); client_secret = s; callback(success)'],
  ])('not a mark: %s', (_, text) => {
    expect(hasServiceMark(text)).toBe(false);
  });
});

describe('a file that uses another', () => {
  it.each([
    ["const c = require('./client');", 'src/client.js'],
    ["import { c } from './client.js';", 'src/client.ts'],
    ["require_once __DIR__ . '/config.php';", 'src/config.php'],
    ['from .client import PayClient', 'pkg/client.py'],
    ['import payorder_client', 'pkg/payorder_client.py'],
    ['PayOrderClient client = new PayOrderClient();', 'src/PayOrderClient.java'],
    ["require '\\\\client'", 'src/client.rb'],
  ])('%s uses %s', (text, other) => {
    expect(references(text, other)).toBe(true);
  });

  it.each([
    ['client.send()', 'src/client.js'],
    ["require('./clientele')", 'src/client.js'],
    ["require('./a')", 'src/a.js'],
    ['PayOrderClientFactory f;', 'src/PayOrderClient.java'],
    ["require('./pay+order')", 'src/payorder.js'],
    ['important stuff', 'src/port.py'],
  ])('%s does not use %s', (text, other) => {
    expect(references(text, other)).toBe(false);
  });

  it('a two-letter module counts; a class name must start with a capital', () => {
    expect(references("const db = require('./db');", 'src/db.js')).toBe(true);
    expect(references('payClient.send();', 'src/payClient.ts')).toBe(false);
  });

  it('a file name with pattern characters is taken literally', () => {
    expect(references("require('./pay.order')", 'src/pay.order.js')).toBe(true);
    expect(references("require('./payxorder')", 'src/pay.order.js')).toBe(false);
  });
});

describe('the files of a run tied to the service', () => {
  const folder = () => {
    const dir = tempDir();
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    return { dir, file };
  };

  it('a marked file, a neighbour that uses it, one it uses, and one of neither', () => {
    const { file } = folder();
    const evidence = new ServiceEvidence();
    const files = {
      client: file('client.js', "const cfg = require('./config');\nfetch(`${B}/1/auth/token`);"),
      config: file('config.js', 'module.exports = { base: B };'),
      shop: file('shop.js', "const c = require('./client');\nc.pay();"),
      other: file('other.js', 'export const x = 1;'),
    };
    for (const [name, path] of Object.entries(files))
      evidence.note(path, name === 'client' ? "require('./config'); `${B}/1/auth/token`" : '', false);
    expect(evidence.ownsTie(files.client)).toBe(true);
    expect(evidence.ownsTie(files.shop)).toBe(false);
    expect(evidence.tied(files.client)).toBe(true);
    expect(evidence.tied(files.shop)).toBe(true);
    expect(evidence.tied(files.config)).toBe(true);
    expect(evidence.tied(files.other)).toBe(false);
    expect(evidence.count(Object.values(files))).toBe(3);
    expect(evidence.used(files.client)).toEqual([files.config]);
    expect(evidence.used(files.other)).toEqual([]);
  });

  it('a file that uses one of two marked neighbours is tied; a file never lists itself as used', () => {
    const { file } = folder();
    const evidence = new ServiceEvidence();
    const auth = file('auth.js', 'x');
    const checkout = file('checkout.js', 'y');
    const shop = file('shop.js', "require('./auth');");
    const client = file('PayOrderClient.java', 'class PayOrderClient { Config c; }');
    const config = file('Config.java', 'class Config {}');
    evidence.note(auth, '`${A}/1/auth/token`', false);
    evidence.note(checkout, '`${C}/v2/api/checkout`', false);
    evidence.note(shop, '', false);
    evidence.note(client, 'class PayOrderClient { Config c; }', false);
    evidence.note(config, '', false);
    expect(evidence.tied(shop)).toBe(true);
    expect(evidence.used(client)).toEqual([config]);
  });

  it('a Go file of a folder without a marked file is not tied', () => {
    const { file } = folder();
    const evidence = new ServiceEvidence();
    const plain = file('status.go', 'package shop');
    evidence.note(plain, 'package shop', false);
    expect(evidence.tied(plain)).toBe(false);
    expect(evidence.count([plain])).toBe(0);
  });

  it('a file of another folder is not tied by a mark; a Go file of the same folder is (one package)', () => {
    const a = folder();
    const b = folder();
    const evidence = new ServiceEvidence();
    const marked = a.file('pay.go', 'const Base = "https://x/v2/api/checkout"');
    const sibling = a.file('status.go', 'package pay');
    const elsewhere = b.file('client.js', "require('./pay')");
    for (const path of [marked, sibling, elsewhere])
      evidence.note(path, path === marked ? 'x/v2/api/checkout' : '', false);
    expect(evidence.tied(sibling)).toBe(true);
    expect(evidence.tied(elsewhere)).toBe(false);
  });

  it('a body handed over on the command line is the service’s, marked or not; a file that cannot be read again ties nothing', () => {
    const { dir, file } = folder();
    const evidence = new ServiceEvidence();
    const given = file('order.json', '{"amount": "1.00"}');
    evidence.note(given, '{"amount": "1.00"}', true);
    expect(evidence.ownsTie(given)).toBe(true);
    expect(evidence.tied(given)).toBe(true);
    const marked = file('client.js', 'x');
    evidence.note(marked, 'callback_success', false);
    const gone = join(dir, 'gone.js');
    evidence.note(gone, '', false);
    expect(evidence.tied(gone)).toBe(false);
    expect(evidence.ownsTie(gone)).toBe(false);
  });
});

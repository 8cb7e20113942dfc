/**
 * The codemod's edits located on the syntax tree: a name or prefix is renamed inside the token that
 * holds it (a string's text, a key, a property), never in a comment nor across tokens; a lookup's id
 * is found in the string, concatenation or format call that builds the path, and is the order's uuid
 * only by where its value comes from. Each with the near miss that a text search would get wrong.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, compatible } from '../../src/migrate/codemod/edits.js';
import { fixSource } from '../../src/migrate/codemod/source-edits.js';
import { ParsedFile } from '../../src/migrate/codemod/tree.js';
import { checkSource } from '../../src/migrate/source.js';
import { type LanguageId, languageOf } from '../../src/migrate/syntax/languages.js';
import { freshCli, tempDir } from '../helpers/cli.js';

/** A folder of files, written under a fresh temporary folder. */
function folderOf(files: Record<string, string>): string {
  const root = tempDir('payorder-tree-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

/** One file's source after the codemod, in memory, with the rules of the findings left. */
async function fixed(file: string, text: string) {
  const language = languageOf(file, text) as LanguageId;
  const findings = await checkSource(text, file);
  const parsed = await ParsedFile.parse(text, language);
  if (!parsed) throw new Error(`${file} does not parse`);
  try {
    const fix = fixSource(parsed, findings, { given: {}, known: [] });
    return {
      text: applyEdits(text, compatible(fix.edits)),
      left: fix.left.map((entry) => `${entry.finding.rule}: ${entry.why}`),
    };
  } finally {
    parsed.delete();
  }
}

describe('renames inside the token that holds the name', () => {
  it.each([
    [
      'token.js',
      "const t = await post(AUTH + '/1/auth/token', { user_name: USER /* user_name */, client_secret_id: S }); // user_name, /1",
      "const t = await post(AUTH + '/v2/api/auth/token', { username: USER /* user_name */, client_secret_id: S }); // user_name, /1",
    ],
    [
      'token.py',
      't = post(AUTH + "/1/auth/token", {"user_name": USER, "client_secret_id": S})  # "user_name", "/1"',
      't = post(AUTH + "/v2/api/auth/token", {"username": USER, "client_secret_id": S})  # "user_name", "/1"',
    ],
    [
      'token.php',
      "<?php\n$t = post($auth . '/1/auth/token', ['user_name' => $user, 'client_secret_id' => $s]); // 'user_name' '/1'",
      "<?php\n$t = post($auth . '/v2/api/auth/token', ['username' => $user, 'client_secret_id' => $s]); // 'user_name' '/1'",
    ],
    [
      'token.rb',
      't = post("#{AUTH}/1/auth/token", { user_name: USER, client_secret_id: S }) # user_name: "/1"',
      't = post("#{AUTH}/v2/api/auth/token", { username: USER, client_secret_id: S }) # user_name: "/1"',
    ],
    [
      'Token.java',
      'class T { String t() { return post(AUTH + "/1/auth/token", "{\\"user_name\\":\\"" + USER + "\\",\\"client_secret_id\\":\\"" + S + "\\"}"); /* "user_name" */ } }',
      'class T { String t() { return post(AUTH + "/v2/api/auth/token", "{\\"username\\":\\"" + USER + "\\",\\"client_secret_id\\":\\"" + S + "\\"}"); /* "user_name" */ } }',
    ],
    [
      'token.go',
      'package main\n\ntype TokenRequest struct {\n\tUser string `json:"user_name"` // json:"user_name"\n\tSecret string `json:"client_secret_id"`\n}\n',
      'package main\n\ntype TokenRequest struct {\n\tUser string `json:"username"` // json:"user_name"\n\tSecret string `json:"client_secret_id"`\n}\n',
    ],
    [
      'token.sh',
      'curl -d \'{"user_name":"\'"$USER"\'","client_secret_id":"\'"$SECRET"\'"}\' "$AUTH/1/auth/token" # "user_name" /1',
      'curl -d \'{"username":"\'"$USER"\'","client_secret_id":"\'"$SECRET"\'"}\' "$AUTH/v2/api/auth/token" # "user_name" /1',
    ],
  ])('%s: the code is renamed, the comment on the same line stays', async (file, text, expected) => {
    const out = await fixed(file, `${text}\n`);
    expect(out.left).toEqual([]);
    expect(out.text).toBe(`${expected}\n`);
  });
});

describe('a lookup: its id found in the tree that builds the path, a uuid only by where it is set', () => {
  it.each([
    [
      'find.js',
      'const uuid = order.id;\nconst found = await get(`${CHECKOUT}/1/order/${uuid}`);\n',
      'const uuid = order.uuid;\nconst found = await get(`${CHECKOUT}/v2/api/orders/${uuid}`);\n',
    ],
    [
      'find.py',
      'found = get("%s/1/order/%s" % (CHECKOUT, order["id"]))\n',
      'found = get("%s/v2/api/orders/%s" % (CHECKOUT, order["uuid"]))\n',
    ],
    [
      'find.py',
      'order_id = created["id"].split("/")[-1]\nfound = get("{}/1/order/{}".format(CHECKOUT, order_id))\n',
      'order_id = created["uuid"].split("/")[-1]\nfound = get("{}/v2/api/orders/{}".format(CHECKOUT, order_id))\n',
    ],
    [
      'find.php',
      "<?php\n$found = get(sprintf('%s/1/order/%s', $checkout, $order['id']));\n",
      "<?php\n$found = get(sprintf('%s/v2/api/orders/%s', $checkout, $order['uuid']));\n",
    ],
    [
      'find.php',
      "<?php\n$uuid = $order['uuid'];\n$found = get($checkout . '/1/order/' . $uuid);\n",
      "<?php\n$uuid = $order['uuid'];\n$found = get($checkout . '/v2/api/orders/' . $uuid);\n",
    ],
    [
      'find.rb',
      'order_id = body["id"]\nfound = get("#{CHECKOUT}/1/order/#{order_id}")\n',
      'order_id = body["uuid"]\nfound = get("#{CHECKOUT}/v2/api/orders/#{order_id}")\n',
    ],
    [
      'main.go',
      'package main\n\nfunc find() {\n\tcall(fmt.Sprintf("%s/1/order/%v", checkoutURL, path.Base(order["id"].(string))))\n}\n',
      'package main\n\nfunc find() {\n\tcall(fmt.Sprintf("%s/v2/api/orders/%v", checkoutURL, path.Base(order["uuid"].(string))))\n}\n',
    ],
    [
      'Find.java',
      'class Find { String find() { return call(String.format("%s/1/order/%s", checkout, order.get("id"))); } }\n',
      'class Find { String find() { return call(String.format("%s/v2/api/orders/%s", checkout, order.get("uuid"))); } }\n',
    ],
    [
      'Find.kt',
      'fun find(): String {\n    val orderId = created.uuid\n    return call("$checkout/1/order/$orderId")\n}\n',
      'fun find(): String {\n    val orderId = created.uuid\n    return call("$checkout/v2/api/orders/$orderId")\n}\n',
    ],
    [
      'find.sh',
      'id=$(printf \'%s\' "$order" | jq -r \'.id\')\ncurl -sS "$CHECKOUT/1/order/$id"\n',
      'id=$(printf \'%s\' "$order" | jq -r \'.uuid\')\ncurl -sS "$CHECKOUT/v2/api/orders/$id"\n',
    ],
  ])('%s: the path renamed, the id read from the answer where it is set', async (file, text, expected) => {
    const out = await fixed(file, text);
    expect(out.left).toEqual([]);
    expect(out.text).toBe(expected);
  });

  it.each([
    [
      'find.js',
      'const uuid = crypto.randomUUID();\nconst found = await get(`${CHECKOUT}/1/order/${uuid}`);\n',
    ],
    ['find.py', 'def find(uuid):\n    return get("%s/1/order/%s" % (CHECKOUT, uuid))\n'],
    ['find.sh', 'uuid=$(uuidgen)\ncurl -sS "$CHECKOUT/1/order/$uuid"\n'],
    ['find.rb', 'uuid = SecureRandom.uuid\nget("#{CHECKOUT}/1/order/#{uuid}")\n'],
  ])(
    'near miss, %s: a value named uuid that is not read from the answer leaves the lookup (and so its unit), with its reason',
    async (file, text) => {
      const out = await fixed(file, text);
      expect(out.left).toEqual([
        'PO106: the lookup takes an id whose source is not in this file: pass the order uuid (creation answer uuid) instead',
      ]);
      expect(out.text).not.toContain('/orders/');
    },
  );

  it("near miss: the shop's own /order/ route, a comment and another id on the line stay; only the lookup's id changes", async () => {
    const text = [
      "app.get('/order/:id', (req, res) => res.render('order', { id: req.params.id }));",
      '// v1: GET /1/order/${order.id}',
      'const found = await get(`${CHECKOUT}/1/order/${order.id}`, { shop: shop.id });',
      '',
    ].join('\n');
    const out = await fixed('find.js', text);
    expect(out.left).toEqual([]);
    expect(out.text).toBe(
      text.replace('`${CHECKOUT}/1/order/${order.id}`', '`${CHECKOUT}/v2/api/orders/${order.uuid}`'),
    );
  });
});

describe("a lookup's callers: call expressions of the function's name, with an argument at its position", () => {
  const CLIENT = [
    'export class Client {',
    '  orderPath(id) {',
    '    return `${CHECKOUT}/1/order/${id}`;',
    '  }',
    '  findOrder(id) {',
    '    return get(this.orderPath(id));',
    '  }',
    '}',
    '',
  ].join('\n');

  it('JavaScript: findOrder(order.uuid) is the one call; the name in a string and in a comment, and a findOrder() without the argument, are not calls of it', async () => {
    const root = folderOf({
      'package.json': '{}',
      'client.js': CLIENT,
      'main.js': [
        "console.log('usage: client.findOrder(order.id)');",
        '// v1 took client.findOrder(order.id)',
        'const found = await client.findOrder(order.uuid);',
        'const all = await store.findOrder();',
        '',
      ].join('\n'),
    });
    const result = await freshCli()(['migrate-check', root, '--fix', '--write', '--force']);
    expect(result.stderr).not.toContain('not changed');
    expect(readFileSync(join(root, 'client.js'), 'utf8')).toContain(
      'return `${CHECKOUT}/v2/api/orders/${id}`;',
    );
  });

  it('near miss: a caller passing a variable named uuid set from the v1 id does not pass the uuid, so the unit is not changed', async () => {
    const main = 'const uuid = order.id;\nconst found = await client.findOrder(uuid);\n';
    const root = folderOf({ 'package.json': '{}', 'client.js': CLIENT, 'main.js': main });
    const result = await freshCli()(['migrate-check', root, '--fix', '--write', '--force']);
    expect(result.stderr).toMatch(
      /client\.js:3: PO106 .*the lookup takes an id whose source is not in this file/,
    );
    expect(readFileSync(join(root, 'client.js'), 'utf8')).toBe(CLIENT);
  });

  it("Python: a method's self is not an argument its callers pass; Java: Matcher.find() is not a call of find(String uuid)", async () => {
    const python = folderOf({
      'payments.py':
        'class Orders:\n    def find(self, uuid):\n        return get("%s/1/order/%s" % (CHECKOUT, uuid))\n',
      'main.py': 'found = orders.find(order["uuid"])\n',
    });
    const fromPython = await freshCli()(['migrate-check', python, '--fix', '--write', '--force']);
    expect(fromPython.stderr).not.toContain('not changed');
    expect(readFileSync(join(python, 'payments.py'), 'utf8')).toContain(
      '"%s/v2/api/orders/%s" % (CHECKOUT, uuid)',
    );
    const java = folderOf({
      'OrderService.java': [
        'class OrderService {',
        '  String field(String json, String name) { java.util.regex.Matcher m = PATTERN.matcher(json); return m.find() ? m.group(1) : null; }',
        '  String find(String uuid) { return get(CHECKOUT + "/1/order/" + uuid); }',
        '  String status(String order) { return field(find(field(order, "uuid")), "status"); }',
        '}',
        '',
      ].join('\n'),
    });
    const fromJava = await freshCli()(['migrate-check', java, '--fix', '--write', '--force']);
    expect(fromJava.stderr).not.toContain('not changed');
    expect(readFileSync(join(java, 'OrderService.java'), 'utf8')).toContain(
      'CHECKOUT + "/v2/api/orders/" + uuid',
    );
  });
});

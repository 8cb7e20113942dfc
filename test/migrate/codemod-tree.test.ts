/**
 * The codemod's edits located on the syntax tree: a name or prefix is renamed inside the token that
 * holds it (a string's text, a key, a property), never in a comment nor across tokens; a lookup's id
 * is found in the string, concatenation or format call that builds the path, and is the order's uuid
 * only by where its value comes from. Each with the near miss that a text search would get wrong.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshCli, tempDir } from '../helpers/cli.js';
import { fixedInMemory, folderOf } from '../helpers/codemod.js';
import { needsTool } from '../helpers/tools.js';

/** One file's source after the codemod, in memory, with the rules of the findings left. */
async function fixed(file: string, text: string) {
  const { text: after, left } = await fixedInMemory(file, text);
  return { text: after, left: left.map((entry) => `${entry.finding.rule}: ${entry.why}`) };
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
    [
      'token.ts',
      'const t = await post<Token>(`${AUTH}/1/auth/token`, { user_name: USER, client_secret_id: S } satisfies Body); // user_name',
      'const t = await post<Token>(`${AUTH}/v2/api/auth/token`, { username: USER, client_secret_id: S } satisfies Body); // user_name',
    ],
    [
      'Token.kt',
      'val t = post("$auth/1/auth/token", mapOf("user_name" to user, "client_secret_id" to secret)) // "user_name"',
      'val t = post("$auth/v2/api/auth/token", mapOf("username" to user, "client_secret_id" to secret)) // "user_name"',
    ],
    [
      'Token.cs',
      'class T { Task<string> Get() => Post($"{Auth}/1/auth/token", new Dictionary<string, string> { ["user_name"] = User, ["client_secret_id"] = Secret }); /* user_name */ }',
      'class T { Task<string> Get() => Post($"{Auth}/v2/api/auth/token", new Dictionary<string, string> { ["username"] = User, ["client_secret_id"] = Secret }); /* user_name */ }',
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
    [
      'find.ts',
      'const id: string = created.data.id;\nconst found = await get(CHECKOUT + "/1/order/" + encodeURIComponent(id));\n',
      'const id: string = created.data.uuid;\nconst found = await get(CHECKOUT + "/v2/api/orders/" + encodeURIComponent(id));\n',
    ],
    [
      'find.php',
      '<?php\n$id = $created->id;\n$found = get("$checkout/1/order/{$id}");\n',
      '<?php\n$id = $created->uuid;\n$found = get("$checkout/v2/api/orders/{$id}");\n',
    ],
    [
      'Find.cs',
      'class Find { async Task<string> Get(Order created) { var uuid = created.Uuid; return await Call($"{Checkout}/1/order/{uuid}"); } }\n',
      'class Find { async Task<string> Get(Order created) { var uuid = created.Uuid; return await Call($"{Checkout}/v2/api/orders/{uuid}"); } }\n',
    ],
    [
      'Find.cs',
      'class Find { Task<string> Get(JsonNode created) => Call(string.Format("{0}/1/order/{1}", Checkout, created["id"])); }\n',
      'class Find { Task<string> Get(JsonNode created) => Call(string.Format("{0}/v2/api/orders/{1}", Checkout, created["uuid"])); }\n',
    ],
    [
      'find.ts',
      'const {\n  uuid,\n  status,\n} = order;\nconst found = await get(`/1/order/${uuid}`);\n',
      'const {\n  uuid,\n  status,\n} = order;\nconst found = await get(`/v2/api/orders/${uuid}`);\n',
    ],
    [
      'find.js',
      'const { uuid: key } = created;\nconst found = await get(`${CHECKOUT}/1/order/${key}`);\n',
      'const { uuid: key } = created;\nconst found = await get(`${CHECKOUT}/v2/api/orders/${key}`);\n',
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
    ['find.js', 'const { id: uuid } = created;\nconst found = await get(`${CHECKOUT}/1/order/${uuid}`);\n'],
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

describe('Go amounts in integer cents, with the standard library only, the import added in the tree', () => {
  const program = (imports: string[], body: string) =>
    [
      'package main',
      '',
      'import (',
      ...imports.map((path) => `\t"${path}"`),
      ')',
      '',
      'func send(body map[string]string) { b, _ := json.Marshal(body); fmt.Println(string(b)); http.Post(checkoutURL+"/1/checkout", "application/json", nil) }',
      '',
      'var checkoutURL = os.Getenv("CHECKOUT")',
      '',
      'func main() {',
      body,
      '}',
      '',
    ].join('\n');
  const order = (amount: string) =>
    `\tsend(map[string]string{"amount": ${amount}, "description": "Tea", "callback_success": "https://s.example/ok", "callback_fail": "https://s.example/ko"})`;

  /** The program's output, run with `go run` where Go is installed; undefined where it is not. */
  function run(text: string): string | undefined {
    const go = needsTool('go');
    if (go.skip) return undefined;
    go.check();
    const folder = tempDir('payorder-go-');
    writeFileSync(join(folder, 'main.go'), text);
    return execFileSync('go', ['run', 'main.go'], {
      cwd: folder,
      encoding: 'utf8',
      env: { ...process.env, GOFLAGS: '-mod=mod', GO111MODULE: 'off', GOCACHE: join(folder, '.cache') },
    });
  }

  it.each([
    [
      'fmt.Sprintf("%.2f", total) of a float64 variable',
      ['encoding/json', 'fmt', 'net/http', 'os'],
      `\ttotal := 149.90\n${order('fmt.Sprintf("%.2f", total)')}`,
      'fmt.Sprint(int64(math.Round(total*100)))',
      '\t"os"\n\t"math"\n)',
    ],
    [
      "strconv.FormatFloat(price, 'f', 2, 64) of a float32 (converted first)",
      ['encoding/json', 'fmt', 'net/http', 'os', 'strconv'],
      `\tvar price float32 = 0.07\n${order("strconv.FormatFloat(float64(price), 'f', 2, 64)")}`,
      'strconv.FormatInt(int64(math.Round(float64(price)*100)), 10)',
      '\t"strconv"\n\t"math"\n)',
    ],
    [
      'fmt.Sprintf("%d.%02d", cents/100, cents%100) made of integer cents',
      ['encoding/json', 'fmt', 'net/http', 'os'],
      `\tcents := int64(1250)\n${order('fmt.Sprintf("%d.%02d", cents/100, cents%100)')}`,
      'fmt.Sprint(cents)',
      '\t"os"\n)',
    ],
  ])('%s', async (_, imports, body, converted, importBlockEnd) => {
    const out = await fixed('main.go', program(imports, body));
    expect(out.left).toEqual([]);
    expect(out.text).toContain(`{"amount": ${converted}, "description"`);
    expect(out.text).toContain(importBlockEnd);
    const printed = run(
      out.text.replace(
        'http.Post(checkoutURL+"/v2/api/checkout", "application/json", nil)',
        '_ = http.MethodPost',
      ),
    );
    if (printed !== undefined) expect(printed).toMatch(/^\{"amount":"(?:14990|7|1250)",/);
  });

  it('near miss: a Sprintf of another value and the amount printed in a log line stay as they are', async () => {
    const text = program(
      ['encoding/json', 'fmt', 'net/http', 'os'],
      '\ttotal := 149.90\n\tlabel := fmt.Sprintf("%.2f", 3.5)\n\tfmt.Printf("total %.2f\\n", total)\n\tfmt.Println(label)\n' +
        order('fmt.Sprintf("%.2f", total)'),
    );
    const out = await fixed('main.go', text);
    expect(out.left).toEqual([]);
    expect(out.text).toContain('label := fmt.Sprintf("%.2f", 3.5)');
    expect(out.text).toContain('fmt.Printf("total %.2f\\n", total)');
    expect(out.text).toContain('"amount": fmt.Sprint(int64(math.Round(total*100)))');
  });

  it('shopspring/decimal StringFixed(2), a string: read by math/big, whose import is added', async () => {
    const out = await fixed(
      'main.go',
      program(
        ['encoding/json', 'fmt', 'net/http', 'os'],
        `\ttotal := decimal.NewFromFloat(149.9)\n${order('total.StringFixed(2)')}`,
      ),
    );
    expect(out.left).toEqual([]);
    expect(out.text).toContain(
      '"amount": func(a string) string { r, _ := new(big.Rat).SetString(a); return r.Mul(r, big.NewRat(100, 1)).FloatString(0) }(total.StringFixed(2))',
    );
    expect(out.text).toContain('\t"os"\n\t"math/big"\n)');
  });

  it('two amounts in one file, one needing math and one math/big: both imports are added', async () => {
    const out = await fixed(
      'main.go',
      program(
        ['encoding/json', 'fmt', 'net/http', 'os'],
        `\ttotal := 149.90\n\tfee := decimal.NewFromFloat(0.5)\n${order('fmt.Sprintf("%.2f", total)')}\n${order('fee.StringFixed(2)')}`,
      ),
    );
    expect(out.left).toEqual([]);
    expect(out.text).toContain('"amount": fmt.Sprint(int64(math.Round(total*100)))');
    expect(out.text).toContain('(fee.StringFixed(2))');
    expect(out.text).toContain('\t"os"\n\t"math"\n\t"math/big"\n)');
  });

  const STRUCT = [
    'package main',
    '',
    'import (',
    '\t"bytes"',
    '\t"encoding/json"',
    '\t"fmt"',
    '\t"net/http"',
    ')',
    '',
    'type CreateOrder struct {',
    '\tAmount          float64 `json:"amount"`',
    '\tDescription     string  `json:"description"`',
    '\tCallbackSuccess string  `json:"callback_success"`',
    '\tCallbackFail    string  `json:"callback_fail"`',
    '}',
    '',
    'type TaxLine struct {',
    '\tRate float64 `json:"rate"`',
    '}',
    '',
    'func main() {',
    '\ttotal := 149.9',
    '\torder := CreateOrder{Amount: total, Description: "Tea", CallbackSuccess: "https://s.example/ok", CallbackFail: "https://s.example/ko"}',
    '\tif len(order.Description) > 10 {',
    '\t\torder.Amount = 0.29',
    '\t}',
    '\tbody, _ := json.Marshal(order)',
    '\ttax, _ := json.Marshal(TaxLine{Rate: 0.2})',
    '\tfmt.Println(string(body), string(tax))',
    '\t_, _ = http.Post("https://pay.example.com/1/checkout", "application/json", bytes.NewReader(body))',
    '}',
    '',
  ].join('\n');

  it('a float64 amount field of the order struct: int64 cents sent as text, each value set to it converted; another float field stays', async () => {
    const out = await fixed('main.go', STRUCT);
    expect(out.left).toEqual([]);
    expect(out.text).toContain('\tAmount          int64 `json:"amount,string"`\n');
    expect(out.text).toContain('CreateOrder{Amount: int64(math.Round(total*100)), Description');
    expect(out.text).toContain('\t\torder.Amount = int64(math.Round(float64(0.29)*100))\n');
    expect(out.text).toContain('\tRate float64 `json:"rate"`');
    expect(out.text).toContain('\t"net/http"\n\t"math"\n)');
    const printed = run(
      out.text.replace(
        '_, _ = http.Post("https://pay.example.com/v2/api/checkout", "application/json", bytes.NewReader(body))',
        '_, _ = http.MethodPost, bytes.NewReader',
      ),
    );
    if (printed !== undefined)
      expect(printed).toBe(
        '{"amount":"14990","description":"Tea","callback_success":"https://s.example/ok","callback_fail":"https://s.example/ko"} {"rate":0.2}\n',
      );
  });

  it('near miss: an amount field the file reads (order.Amount * 2) is left with its reason, its type unchanged', async () => {
    const text = STRUCT.replace(
      '\tfmt.Println(string(body), string(tax))',
      '\tfmt.Println(string(body), string(tax), order.Amount*2)',
    );
    const out = await fixed('main.go', text);
    expect(out.left).toEqual(['PO104: Amount is read in the file, which a change of its type would break']);
    expect(out.text).toContain('\tAmount          float64 `json:"amount"`');
  });

  it('a file with one import line gets another; a file that has math keeps one', async () => {
    const single = await fixed(
      'main.go',
      `package main\n\nimport "fmt"\n\nfunc create(total float64) {\n${order('fmt.Sprintf("%.2f", total)')}\n}\n`,
    );
    expect(single.text).toContain('import "fmt"\nimport "math"\n');
    const has = await fixed(
      'main.go',
      `package main\n\nimport (\n\t"fmt"\n\t"math"\n)\n\nfunc create(total float64) {\n${order('fmt.Sprintf("%.2f", math.Abs(total))')}\n}\n`,
    );
    expect(has.text.match(/"math"/g)).toHaveLength(1);
    expect(has.text).toContain('fmt.Sprint(int64(math.Round(float64(math.Abs(total))*100)))');
  });
});

describe("Python's Decimal import, placed by the module's top-level nodes", () => {
  const send =
    'requests.post(CHECKOUT + "/v2/api/checkout", json={"amount": f"{total:.2f}", "description": "Tea", "callback_success": OK, "callback_fail": KO})\n';

  it('after the last top-level import, a __future__ import included', async () => {
    const out = await fixed('pay.py', `from __future__ import annotations\n\n${send}`);
    expect(out.left).toEqual([]);
    expect(out.text).toBe(
      `from __future__ import annotations\nfrom decimal import Decimal\n\n${send.replace('"amount": f"{total:.2f}"', '"amount": str(int(Decimal(str(f"{total:.2f}")) * 100))')}`,
    );
  });

  it('near miss: the import written in a docstring is not an import, so the real one is added after it', async () => {
    const docstring = '"""Usage:\nfrom decimal import Decimal\n"""\n';
    const out = await fixed('pay.py', `${docstring}${send}`);
    expect(out.text.startsWith(`${docstring}from decimal import Decimal\n`)).toBe(true);
    const has = await fixed('pay.py', `import os\nfrom decimal import ROUND_HALF_UP, Decimal\n${send}`);
    expect(has.text.match(/import .*Decimal/g)).toHaveLength(1);
  });
});

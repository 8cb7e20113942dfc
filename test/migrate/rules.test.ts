import { createRequire } from 'node:module';
import AjvModule from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, parseCents } from '../../src/contract/money.js';
import { orderRequestSchema, readOrderRequest } from '../../src/contract/schemas.js';
import { checkItem } from '../../src/migrate/bodies.js';
import { fixItem } from '../../src/migrate/fix.js';
import { renderSarif } from '../../src/migrate/report.js';
import { RULES } from '../../src/migrate/rules.js';
import { checkSource } from '../../src/migrate/source.js';

/** The rules source code breaks, in any severity; the file name tells the language. */
const rulesOf = async (text: string, file = 'x.js') => (await checkSource(text, file)).map((f) => f.rule);
const bodyRules = (value: unknown) => {
  const check = { findings: [] as any[], toldReference: { value: true } };
  checkItem(value, (pointer) => ({ file: 'x', pointer }), check, true);
  return check.findings.map((f) => f.rule);
};

describe('source rules: each fires, its near miss does not', () => {
  it.each([
    [
      'PO101',
      'a.js',
      "const AUTH = 'https://auth.example.com/1';",
      "const DOCS = 'https://example.com/1/intro';",
    ],
    ['PO101', 'a.js', 'fetch(`${base}/1/checkout`)', 'fetch(`${base}/v2/api/checkout`)'],
    ['PO102', 'a.py', "body = {'user_name': user}", "body = {'username': user}"],
    ['PO103', 'a.php', '$body = ["userName" => $user];', '$userName = currentUser();'],
    ['PO103', 'a.js', 'const body = { amount, userName: user };', 'const userName = user;'],
    [
      'PO104',
      'a.js',
      'const body = { amount: total.toFixed(2), callback_success: ok };',
      'const body = { label: total.toFixed(2), callback_success: ok };',
    ],
    [
      'PO104',
      'a.php',
      '$body = ["amount" => number_format($t, 2), "callback_success" => $ok];',
      '$body = ["price" => number_format($t, 2), "callback_success" => $ok];',
    ],
    [
      'PO104',
      'a.py',
      'data = {"callback_success": ok}\ndata["amount"] = "%.2f" % total',
      'data = {"callback_success": ok}\nlabel = "%.2f" % total',
    ],
    ['PO105', 'a.js', 'return order.links.checkoutLink;', 'return order.links.checkout_link;'],
    ['PO105', 'a.php', "return $answer['links']['checkout'];", "return $answer['links']['checkout_link'];"],
    ['PO106', 'a.js', 'get(base + "/order/" + id)', 'get(base + "/orders/" + uuid)'],
    ['PO106', 'a.js', 'fetch(`${base}/order/${id}`)', 'fetch(`${base}/orders/${uuid}`)'],
    ['PO108', 'a.js', 'const body = { notification_url: hook };', 'const body = { notification: hook };'],
    ['PO110', 'a.js', 'const n = order.orderNumber;', 'const n = order.uuid;'],
  ])('%s in %s: %s', async (rule, file, hit, miss) => {
    expect(await rulesOf(hit, file)).toContain(rule);
    expect(await rulesOf(miss, file)).not.toContain(rule);
  });

  it('PO107 fires for PENDING without REFUNDED in the file, not with both', async () => {
    expect(await rulesOf("if (status === 'PENDING') wait();")).toContain('PO107');
    expect(
      await rulesOf("if (status === 'PENDING') wait();\nif (status === 'REFUNDED') refund();"),
    ).not.toContain('PO107');
  });

  it('suggests the whole fixed line, with every rule on it applied', async () => {
    const [finding] = await checkSource('fetch(`${base}/1/order/${id}`)', 'x.js');
    expect(finding!.replacement).toBe('fetch(`${base}/v2/api/orders/${id}`)');
  });
});

describe('body rules', () => {
  const v1Order = {
    amount: '149.90',
    description: 'Boots',
    userName: 'u',
    callback_success: 'https://s/ok',
    callback_fail: 'https://s/ko',
  };
  const v1Token = { user_name: 'u', client_id: 'c', client_secret_id: 's', grant_type: 'client_credentials' };

  it('fires on v1 bodies and not on their v2 equivalents', () => {
    expect(bodyRules(v1Token)).toEqual(['PO102']);
    expect(bodyRules(v1Order)).toEqual(['PO103', 'PO104']);
    expect(bodyRules(fixItem(v1Token))).toEqual([]);
    expect(bodyRules(fixItem(v1Order))).toEqual([]);
    expect(bodyRules({ ...v1Order, notification_url: 'https://s/n' })).toContain('PO108');
    expect(bodyRules({ method: 'GET', url: 'https://x/1/order/abc' })).toEqual(['PO101', 'PO106']);
    expect(bodyRules({ method: 'GET', url: 'https://x/v2/api/orders/abc' })).toEqual([]);
    expect(bodyRules({ uuid: 'u', links: { checkoutLink: 'l' }, orderNumber: '1' })).toEqual([
      'PO105',
      'PO110',
    ]);
    expect(bodyRules({ uuid: 'u', links: { checkout_link: 'l' } })).toEqual([]);
    expect(bodyRules({ hello: 'world' })).toEqual(['PO202']);
  });

  it('reports bodies that are invalid on v1 already', () => {
    expect(bodyRules({ ...v1Order, amount: '1,000.00' })).toContain('PO201');
    expect(bodyRules({ ...v1Order, description: '' })).toContain('PO201');
    expect(bodyRules({ ...v1Token, client_id: '' })).toContain('PO201');
    expect(bodyRules({ ...v1Token, grant_type: 'password' })).toContain('PO201');
    expect(fixItem({ ...v1Order, amount: '12.345' })).toBeUndefined();
  });

  it('the optional external_reference is told once', () => {
    const check = { findings: [] as any[], toldReference: { value: false } };
    const fixed = fixItem(v1Order);
    checkItem(fixed, () => ({ file: 'x' }), check, true);
    checkItem(fixed, () => ({ file: 'x' }), check, true);
    expect(check.findings.map((f) => f.rule)).toEqual(['PO109']);
  });
});

describe('--fix, as a property', () => {
  const text = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '');
  const cents = fc.bigInt({ min: 0n, max: 10n ** 24n });
  const v1Order = fc.record({
    cents,
    description: text,
    userName: text,
    callback_success: fc.webUrl(),
    callback_fail: fc.webUrl(),
    notification_url: fc.option(fc.webUrl(), { nil: undefined }),
  });

  it('always yields a valid v2 body with exactly the same amount', () => {
    fc.assert(
      fc.property(v1Order, ({ cents: amount, notification_url, ...rest }) => {
        const body = {
          ...rest,
          amount: formatAmount(amount),
          ...(notification_url ? { notification_url } : {}),
        };
        const fixed = fixItem(body) as Record<string, unknown>;
        expect(orderRequestSchema.v2.safeParse(fixed).success).toBe(true);
        expect(fixed).not.toHaveProperty('userName');
        expect(parseCents(String(fixed.amount))).toBe(parseAmount(body.amount));
        expect('draft' in readOrderRequest('v2', fixed)).toBe(true);
      }),
    );
  });
});

describe('SARIF', () => {
  it('validates against the official SARIF 2.1.0 schema, with every rule described', async () => {
    const require = createRequire(import.meta.url);
    const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
    // The official schema has a pattern that is not valid as a unicode regular expression.
    // Both packages are CommonJS with a default export; under NodeNext it sits on .default.
    const Ajv = (AjvModule as unknown as { default: typeof AjvModule }).default ?? AjvModule;
    const addFormats =
      (formatsModule as unknown as { default: typeof formatsModule }).default ?? formatsModule;
    const ajv = new (Ajv as any)({ allErrors: true, strict: false, unicodeRegExp: false });
    (addFormats as any)(ajv);
    const validate = ajv.compile(schema);
    const findings = [
      ...(await checkSource(
        "const AUTH_URL = 'https://a.example.com/1';\nif (s === 'PENDING') x();",
        'src/a.js',
      )),
      {
        rule: 'PO104' as const,
        severity: 'error' as const,
        message: 'decimal amount',
        fix: 'amount "1.00" → "100"',
        location: { file: 'o.ndjson', item: 'line 1', pointer: '/amount' },
      },
    ];
    const log = JSON.parse(
      renderSarif({ findings, suppressed: [], baselined: [], baselineUsed: false }, '1.2.3'),
    );
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    // Set aside by a baseline or a comment in the code: still valid, with SARIF's own fields.
    const [first, ...rest] = findings;
    const aside = JSON.parse(
      renderSarif(
        { findings: rest, suppressed: [{ ...first!, reason: 'ours' }], baselined: rest, baselineUsed: true },
        '1.2.3',
      ),
    );
    expect(validate(aside), JSON.stringify(validate.errors)).toBe(true);
    expect(aside.runs[0].results.at(-1)).toMatchObject({
      baselineState: 'new',
      suppressions: [{ kind: 'inSource', justification: 'ours' }],
    });
    expect(log.runs[0].tool.driver.rules.map((r: any) => r.id)).toEqual(RULES.map((r) => r.id));
    expect(log.runs[0].results[0]).toMatchObject({
      ruleId: 'PO101',
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'src/a.js' }, region: { startLine: 1 } } }],
    });
  });

  it('covers every step of the spec’s migration list', () => {
    const steps = new Set(RULES.map((r) => ('step' in r ? r.step : undefined)).filter(Boolean));
    expect(steps.size).toBe(8);
  });
});

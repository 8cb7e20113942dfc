/**
 * migrate-check on code that never talks to the service (test/fixtures/migrate/unrelated): shops'
 * own states, amounts, order numbers and links, other providers' JSON answers. A whole repository is
 * checked in CI as a gate, so none of it may be an error or a warning; the same code beside a file of
 * a real integration is checked as before.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';

const UNRELATED = resolve(import.meta.dirname, '../fixtures/migrate/unrelated');
const NOW = { PAYORDER_NOW: '2026-12-21T10:00:00Z' };

interface Report {
  ready: boolean;
  files: number;
  service_files: number;
  counts: Record<'error' | 'warning' | 'info', number>;
  findings: Array<{
    rule: string;
    severity: string;
    message: string;
    location: { file: string; line?: number };
  }>;
}

async function check(...args: string[]): Promise<{ exitCode: number; report: Report }> {
  const result = await runInProcess(['migrate-check', ...args, '--json'], { env: NOW });
  expect(result.stderr).toBe('');
  return { exitCode: result.exitCode, report: JSON.parse(result.stdout) as Report };
}

const placed = (report: Report, root: string) =>
  report.findings.map(
    (f) => `${f.location.file.slice(root.length + 1)}:${f.location.line ?? '-'} ${f.severity} ${f.rule}`,
  );

describe('migrate-check on code that does not talk to the service', () => {
  it('a shop and other providers: no error and no warning, no file taken for the service', async () => {
    const { exitCode, report } = await check(UNRELATED);
    expect(exitCode).toBe(0);
    expect(report.counts).toMatchObject({ error: 0, warning: 0 });
    expect(report.service_files).toBe(0);
    // Not even parsed: nothing about another API's token request, states, amounts or order numbers.
    expect(report.findings).toEqual([]);
  });

  it('named one by one (a list of changed files), shop code is judged by its marks; a body named is checked as one', async () => {
    const files = ['ts/OrderView.tsx', 'python/test_transactions.py', 'json/refund.json'].map((file) =>
      join(UNRELATED, file),
    );
    const { exitCode, report } = await check(...files.slice(0, 2));
    expect(exitCode).toBe(0);
    expect(report).toMatchObject({ service_files: 0, counts: { error: 0, warning: 0 } });
    const body = await check(files[2]!);
    expect(body.exitCode).toBe(1);
    expect(body.report.service_files).toBe(1);
    expect(body.report.findings.map((f) => `${f.severity} ${f.rule}`)).toContain('error PO201');
  });

  it('beside a file of the integration, the files it uses or that use it talk to the service; the others do not', async () => {
    const dir = tempDir();
    cpSync(join(UNRELATED, 'ts'), join(dir, 'payments'), { recursive: true });
    writeFileSync(
      join(dir, 'payments', 'payorder.ts'),
      "import { startSession } from './provider-client';\nexport const AUTH_URL = 'https://auth.example.com/v2/api/auth/token';\n",
    );
    const { exitCode, report } = await check(dir);
    expect(exitCode).toBe(1);
    expect(report.service_files).toBe(2);
    expect(placed(report, dir)).toEqual([
      'payments/provider-client.ts:3 error PO105',
      'payments/provider-client.ts:8 error PO105',
    ]);
  });

  // A shop's own status handling, in a file of its own: which files talk to the service, by its PO107.
  const STATUS =
    "export const waiting = (order: { status: string }) => order.status === 'PENDING' || order.status === 'PAID';\n";
  const checkFolder = async (files: Record<string, string>) => {
    const dir = tempDir();
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const { report } = await check(dir);
    return { states: report.findings.filter((f) => f.rule === 'PO107').map((f) => f.severity), report };
  };

  it.each([
    ['client.py', 'creds = {"client_secret_id": secret}'],
    ['client.ts', 'const link = order.links.checkoutLink;'],
    ['Client.java', 'record OrderRequest(String callbackSuccess, String callbackFail) {}'],
    ['client.rb', 'URL = "#{base}/v2/api/checkout"'],
    ['.env', 'AUTH_URL=${AUTH_BASE}/1'],
    ['application.yml', 'checkout-url: https://pay.example.com/v2/api'],
    ['config.php', "<?php return ['payorder_api_prefix' => '/1'];"],
    ['token.sh', 'curl -d "{\\"user_name\\":\\"$U\\",\\"client_id\\":\\"$C\\"}" "$AUTH/auth/token"'],
  ])(
    'a mark of the service in %s: that file talks to it, a neighbour that does not use it does not',
    async (name, text) => {
      const { states, report } = await checkFolder({ [name]: text, 'status.ts': STATUS });
      expect(report.service_files).toBe(1);
      expect(states).toEqual([]);
    },
  );

  it.each([
    ['client.ts', "import type { Order } from './client';\n"],
    ['client.py', 'from .client import Order\n'],
    ['payorder_client.py', 'import payorder_client\n'],
    ['PayOrderClient.java', 'const client = new PayOrderClient();\n'],
    ['client.rb', "require_relative 'client'\n"],
  ])('a neighbour that uses the marked %s talks to the service', async (name, uses) => {
    const { states, report } = await checkFolder({
      [name]: 'creds = {"client_secret_id": secret}',
      'status.ts': uses + STATUS,
    });
    expect(report.service_files).toBe(2);
    expect(states).toEqual(['warning']);
  });

  it('the config file a marked client requires talks to the service; a Go package is one', async () => {
    const php = await checkFolder({
      'payorder.php':
        "<?php\nrequire __DIR__ . '/config.php';\n$r = post(PO_HOST . PO_API_PREFIX . '/auth/token', ['client_secret_id' => $s]);\n",
      'config.php': "<?php\ndefine('PO_API_PREFIX', '/1');\n",
      'Cart.php': "<?php\nif ($status === 'PENDING' || $status === 'PAID') { wait(); }\n",
    });
    expect(php.report.service_files).toBe(2);
    expect(placed(php.report, '').filter((f) => f.includes('config.php'))).toHaveLength(1);
    expect(php.states).toEqual([]);
    const go = await checkFolder({
      'client.go': 'package pay\n\ntype Links struct {\n\tCheckoutLink string `json:"checkoutLink"`\n}\n',
      'status.go': 'package pay\n\nfunc waiting(s string) bool { return s == "PENDING" || s == "PAID" }\n',
    });
    expect(go.report.service_files).toBe(2);
    expect(go.states).toEqual(['warning']);
  });

  it.each([
    [
      'tokens.py',
      'requests.post(f"{base}/auth/token/refresh", json={"grant_type": "password", "username": u})',
    ],
    ['pay.ts', 'await payOrder(order.id, { checkout: true });'],
    ['razorpay.php', "<?php $id = $payment['razorpay_order_id'];"],
    ['routes.rb', 'get "/checkout/step/1", to: "checkout#step"'],
    ['api.ts', 'const url = `${base}/api/checkout/sessions/1`;'],
  ])('a generic word in %s is no mark', async (name, text) => {
    const { states, report } = await checkFolder({
      [name]: text,
      'status.ts': `import './${name}';\n${STATUS}`,
    });
    expect(report.service_files).toBe(0);
    expect(states).toEqual([]);
  });
});

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
  findings: Array<{ rule: string; severity: string; location: { file: string; line?: number } }>;
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
    // States, amounts, order numbers and other APIs' bodies say nothing at all; the rest info at most.
    expect(report.findings.map((f) => f.rule).filter((rule) => /PO10[479]|PO110|PO20/.test(rule))).toEqual(
      [],
    );
  });

  it('the same code beside a file of the integration is checked as code that talks to the service', async () => {
    const dir = tempDir();
    cpSync(join(UNRELATED, 'ts'), join(dir, 'payments'), { recursive: true });
    cpSync(join(UNRELATED, 'php'), join(dir, 'shop'), { recursive: true });
    writeFileSync(
      join(dir, 'payments', 'payorder.ts'),
      "export const AUTH_URL = 'https://auth.example.com/v2/api/auth/token';\n",
    );
    const { exitCode, report } = await check(dir);
    expect(exitCode).toBe(1);
    expect(report.service_files).toBe(3);
    expect(placed(report, dir)).toEqual([
      'payments/OrderView.tsx:5 warning PO107',
      'payments/OrderView.tsx:8 warning PO110',
      'payments/OrderView.tsx:10 error PO105',
      'payments/provider-client.ts:3 error PO105',
      'payments/provider-client.ts:8 error PO105',
      'shop/Cart.php:18 info PO106',
    ]);
  });
});

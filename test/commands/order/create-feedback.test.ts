/**
 * Feedback while `order create` waits: a spinner on stderr once a request takes longer than a
 * moment on a terminal (a pseudo-terminal through `script`, sized with stty: a terminal that reports
 * no width gets no spinner), and a line on stderr each time a refused request (429, 503) is retried.
 */
import { describe, expect, it } from 'vitest';
import { orderOutputSchema } from '../../../src/contract/schemas.js';
import { BIN, onTerminal, orderFlags } from '../../helpers/cli.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, journal } from '../../helpers/sandbox.js';
import { describeWithTools } from '../../helpers/tools.js';

const e2e = useE2E();
const ORDER = orderFlags({ amount: '4', description: 'Slow tea' });
const SPINNER_TEXT = 'creating the order…';
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]/g;

const force = (body: Record<string, unknown>) => call(e2e.sb.url, 'POST', '/_sandbox/force', body);

describe('retried refusals', () => {
  it('each retry of a 429 or 503 is a line on stderr; stdout keeps the order alone', async () => {
    await e2e.loginAfresh();
    await force({ route: 'checkout', fault: 'rate-limit', retry_after: 0 });
    await force({ route: 'checkout', fault: 'unavailable', retry_after: 0 });
    const result = await e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      'the service answered 429 (too many requests); retrying (1 of 4)…',
      'the service answered 503 (unavailable); retrying (2 of 4)…',
    ]);
    expect(orderOutputSchema.parse(JSON.parse(result.stdout)).amount).toBe('4.00');
    expect((await journal(e2e.sb.url, 'checkout')).map((entry) => entry.status)).toEqual([429, 503, 200]);
  });

  it('--quiet leaves them out; a request never retried says nothing', async () => {
    await e2e.loginAfresh();
    await force({ route: 'checkout', fault: 'unavailable', retry_after: 0 });
    const quiet = await e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER, '--quiet']);
    expect([quiet.exitCode, quiet.stderr]).toEqual([0, '']);
    const plain = await e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER]);
    expect([plain.exitCode, plain.stderr]).toEqual([0, '']);
  });
});

describeWithTools(['script'], 'a spinner for a slow request, on a terminal', () => {
  const onScreen = async (size: string) => {
    const command = `${size}"${process.execPath}" "${BIN}" order create --env sandbox ${ORDER.map((a) => `'${a}'`).join(' ')}`;
    const result = await onTerminal(command, e2e.env({ TERM: 'xterm-256color' }));
    return { exitCode: result.exitCode, screen: result.stdout.replace(ESCAPES, '') };
  };

  it('shows while a slow creation is under way, with the retry line above it, and is gone at the end', async () => {
    await e2e.loginAfresh();
    await force({ route: 'checkout', fault: 'unavailable', retry_after: 0 });
    await force({ route: 'checkout', fault: 'latency', ms: 1500 });
    const { exitCode, screen } = await onScreen('stty cols 100 rows 40; ');
    expect(exitCode, screen).toBe(0);
    expect(screen).toContain(SPINNER_TEXT);
    expect(screen).toContain('the service answered 503 (unavailable); retrying (1 of 4)…');
    // The order's table comes after the spinner, and the spinner's line was cleared before it.
    expect(screen.lastIndexOf(SPINNER_TEXT)).toBeLessThan(screen.indexOf('status'));
    expect(screen).toMatch(/status\s+PENDING/);
  });

  it('a quick answer shows no spinner at all', async () => {
    await e2e.loginAfresh();
    const { exitCode, screen } = await onScreen('stty cols 100 rows 40; ');
    expect(exitCode, screen).toBe(0);
    expect(screen).not.toContain(SPINNER_TEXT);
    expect(screen).toMatch(/status\s+PENDING/);
  });

  it('a terminal that reports no width, or --quiet, gets no spinner', async () => {
    await e2e.loginAfresh();
    await force({ route: 'checkout', fault: 'latency', ms: 800, times: 2 });
    const bare = await onScreen('');
    expect(bare.exitCode, bare.screen).toBe(0);
    expect(bare.screen).not.toContain(SPINNER_TEXT);
    const command = `stty cols 100 rows 40; "${process.execPath}" "${BIN}" order create --env sandbox ${ORDER.map((a) => `'${a}'`).join(' ')} --quiet`;
    const quiet = await onTerminal(command, e2e.env({ TERM: 'xterm-256color' }));
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stdout).not.toContain(SPINNER_TEXT);
  });
});

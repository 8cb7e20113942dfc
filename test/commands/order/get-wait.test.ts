/**
 * Waiting for payment: `order get UUID --wait` and `order create --wait` look the order up until it
 * leaves PENDING, further apart each time, and exit by how it ended. The sandbox's control API
 * pays, fails or refunds the order while payorder waits; the wait runs on the test's own time (a
 * pause of a minute takes none), save for the one test of the spinner on a real pseudo-terminal.
 */
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/errors.js';
import { FIRST_PAUSE_MS, MAX_PAUSE_MS } from '../../../src/orders/wait.js';
import { BIN, onTerminal, orderFlags, SHOP } from '../../helpers/cli.js';
import { runInProcess, virtualTime } from '../../helpers/context.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, createOrder, journal, tokenFor } from '../../helpers/sandbox.js';
import { unusedPort } from '../../helpers/servers.js';

const e2e = useE2E();

/** Logs SHOP in and makes a v2 order; the lookup journal is then emptied. */
async function pendingOrder(): Promise<string> {
  await e2e.login();
  const token = await tokenFor(e2e.sb.url, 'v2', SHOP);
  const order = await createOrder(e2e.sb.url, token, 'v2');
  await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
  return order.uuid;
}

const setStatus = (uuid: string, status: string) =>
  call(e2e.sb.url, 'POST', `/_sandbox/orders/${uuid}/status`, { status });

/** Runs payorder in process on a time of its own; `onSleep(n)` runs as the n-th pause ends. */
async function waiting(args: string[], onSleep: (count: number) => unknown = () => {}) {
  const time = virtualTime(new Date(), async (count) => {
    await onSleep(count);
  });
  const result = await runInProcess([...args, '--env', 'sandbox'], { env: e2e.env(), time });
  return { ...result, slept: time.slept };
}

describe('order get --wait', () => {
  it('paid after the second pause: prints the paid order, exit 0; pauses grow', async () => {
    const uuid = await pendingOrder();
    const result = await waiting(['order', 'get', uuid, '--wait'], async (count) => {
      if (count === 2) await call(e2e.sb.url, 'POST', `/pay/${uuid}/pay`);
    });
    expect(result.exitCode, result.stderr).toBe(EXIT.ok);
    expect(JSON.parse(result.stdout)).toMatchObject({ uuid, status: 'PAID' });
    expect(result.slept).toEqual([FIRST_PAUSE_MS, FIRST_PAUSE_MS * 1.5]);
    expect(await journal(e2e.sb.url, 'lookup')).toHaveLength(3);
    // Not on a terminal: one line says what it waits for, and no spinner.
    expect(result.stderr).toBe(`waiting up to 10m for order ${uuid} to be paid…\n`);
  });

  it.each([
    ['FAILED', EXIT.paymentFailed, 'was not paid: its status is FAILED'],
    ['REFUNDED', EXIT.refunded, 'was refunded'],
  ])('%s: prints the order, exit %i', async (status, code, message) => {
    const uuid = await pendingOrder();
    const result = await waiting(['order', 'get', uuid, '--wait', '-o', 'ndjson'], async () => {
      await setStatus(uuid, status);
    });
    expect(result.exitCode).toBe(code);
    expect(JSON.parse(result.stdout)).toMatchObject({ uuid, status });
    expect(result.stderr).toContain(`error: order ${uuid} ${message}\n`);
  });

  it('still PENDING when --timeout runs out: the order, exit 8, and a hint to wait longer', async () => {
    const uuid = await pendingOrder();
    const result = await waiting(['order', 'get', uuid, '--wait', '--timeout', '2m', '--field', 'status']);
    expect(result.exitCode).toBe(EXIT.waitTimedOut);
    expect(result.stdout).toBe('PENDING\n');
    expect(result.stderr).toContain(`error: order ${uuid} is still PENDING after 2m\n`);
    expect(result.stderr).toContain('hint: wait longer');
    // It waited exactly the timeout, in pauses half as long again each time, never over 15 s.
    expect(result.slept.reduce((sum, ms) => sum + ms, 0)).toBe(120_000);
    expect(result.slept.slice(0, 4)).toEqual([1000, 1500, 2250, 3375]);
    expect(Math.max(...result.slept)).toBe(MAX_PAUSE_MS);
    expect(await journal(e2e.sb.url, 'lookup')).toHaveLength(result.slept.length + 1);
  });

  it('Ctrl-C: the hint waits again with the real uuid and --env, pasteable as it stands', async () => {
    const uuid = await pendingOrder();
    const stop = new AbortController();
    const time = virtualTime(new Date(), () => stop.abort('SIGINT'));
    const result = await runInProcess(
      ['order', 'get', ` ${uuid.toUpperCase()} `, '--wait', '--env', 'sandbox'],
      {
        env: e2e.env(),
        time,
        signal: stop.signal,
      },
    );
    expect(result.exitCode).toBe(EXIT.interrupted);
    expect(result.stderr).toContain(
      `hint: wait again with payorder order get ${uuid} --wait --timeout 10m --env sandbox\n`,
    );
    await setStatus(uuid, 'PAID');
    const again = result.stderr.split('hint: wait again with payorder ')[1]!.trim().split(' ');
    const pasted = await waiting(again.filter((word) => word !== '--env' && word !== 'sandbox'));
    expect(pasted.exitCode, pasted.stderr).toBe(0);
  });

  it('an order paid already: printed at once, exit 0, no pause', async () => {
    const uuid = await pendingOrder();
    await call(e2e.sb.url, 'POST', `/pay/${uuid}/pay`);
    const result = await waiting(['order', 'get', uuid, '--wait']);
    expect([result.exitCode, result.slept, result.stderr]).toEqual([0, [], '']);
  });

  it('a first lookup that gets no answer is tried again, as later ones are: then paid, exit 0', async () => {
    const uuid = await pendingOrder();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'lookup', fault: 'reset', times: 1 });
    const result = await waiting(['order', 'get', uuid, '--wait', '--field', 'status'], async (count) => {
      if (count === 1) await call(e2e.sb.url, 'POST', `/pay/${uuid}/pay`);
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('PAID\n');
    expect(result.stderr).toContain('; trying again');
    expect(result.slept).toEqual([FIRST_PAUSE_MS]);
    expect((await journal(e2e.sb.url, 'lookup')).length).toBe(2);
  });

  it('a service unreachable from the first lookup on is tried until --timeout, then exit 5 with why', async () => {
    const uuid = await pendingOrder();
    const closed = `http://127.0.0.1:${await unusedPort()}`;
    const time = virtualTime(new Date(), async () => {});
    const result = await runInProcess(
      ['order', 'get', uuid, '--wait', '--timeout', '5s', '--env', 'sandbox'],
      {
        env: e2e.env({ PAYORDER_CHECKOUT_URL: closed }),
        time,
      },
    );
    expect(result.exitCode).toBe(EXIT.network);
    expect(time.slept.reduce((a, b) => a + b, 0)).toBe(5000);
    expect(result.stderr).toMatch(/^error: cannot reach /m);
    expect(result.stdout).toBe('');
  });

  it('an unknown order: exit 1 at once with the hint, no waiting', async () => {
    await e2e.login();
    const result = await waiting(['order', 'get', '9a8b7c6d5e4f3a2b', '--wait']);
    expect(result.exitCode).toBe(1);
    expect(result.slept).toEqual([]);
    expect(result.stderr).toContain('hint: this looks like a v1 order id');
  });

  it.each([
    [['--wait', '--timeout', '30'], '--timeout: needs a unit like 30s, 10m or 1h30m, got "30"'],
    [['--wait', '--timeout', 'soon'], '--timeout: must be a duration like 30s, 10m or 1h30m, got "soon"'],
    [['--wait', '--timeout', '25h'], '--timeout: must be from 1s to 24h, got "25h"'],
    [['--timeout', '30s'], '--timeout goes with --wait'],
    [['00000000-0000-4000-8000-000000000001', '--wait'], '--wait follows one order'],
  ])('%j is refused before anything is sent, exit 2', async (args, message) => {
    await e2e.login();
    const result = await waiting(['order', 'get', '00000000-0000-4000-8000-000000000000', ...args]);
    expect(result.exitCode).toBe(EXIT.usage);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(await journal(e2e.sb.url, 'lookup')).toEqual([]);
  });

  it('on a terminal, a spinner on stderr says what it waits for and how long is left', async () => {
    const uuid = await pendingOrder();
    const shown = await onTerminal(
      `stty cols 60 rows 20; "${process.execPath}" "${BIN}" order get ${uuid} --wait --timeout 2s --env sandbox`,
      e2e.env({ TERM: 'xterm-256color', NO_COLOR: '1' }),
    );
    expect(shown.exitCode).toBe(EXIT.waitTimedOut);
    expect(shown.stdout).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for payment: PENDING \(\ds left, Ctrl-C to stop\)/);
    // NO_COLOR: no color codes, the spinner's frame included (cursor moves remain).
    expect(shown.stdout).not.toMatch(/\u001b\[\d+m/);
    expect(shown.stdout).not.toContain('waiting up to');
    expect(shown.stdout).toContain(`error: order ${uuid} is still PENDING after 2s`);
  });
});

describe('order create --wait', () => {
  it('creates, shows the payment link, waits, prints the paid order: exit 0', async () => {
    await e2e.login();
    const result = await waiting(
      [
        'order',
        'create',
        '--amount',
        '12.50',
        '--description',
        'Tea',
        '--success',
        'https://s.example/ok',
        '--fail',
        'https://s.example/ko',
        '--wait',
      ],
      async () => {
        const [order] = await e2e.orders();
        await call(e2e.sb.url, 'POST', `/pay/${order.uuid}/pay`);
      },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const order = JSON.parse(result.stdout);
    expect(order).toMatchObject({ status: 'PAID', amount: '12.50' });
    expect(result.stderr).toContain(`payment link: ${e2e.sb.url}/pay/${order.uuid}\n`);
    expect(result.slept).toEqual([FIRST_PAUSE_MS]);
    // One order was created, whatever the waiting.
    expect(await e2e.orders()).toHaveLength(1);
  });

  it('a 502 page during the wait is looked up again; the order then paid: exit 0, one order', async () => {
    await e2e.login();
    const result = await waiting(
      ['order', 'create', ...orderFlags({ amount: '3' }), '--wait'],
      async (count) => {
        const [order] = await e2e.orders();
        if (count === 1)
          await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'lookup', fault: 'html', times: 1 });
        else await call(e2e.sb.url, 'POST', `/pay/${order.uuid}/pay`);
      },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).status).toBe('PAID');
    expect(await e2e.orders()).toHaveLength(1);
  });

  it('a wait that ends in an error still prints the created order, and the error says it was created', async () => {
    await e2e.login();
    // The lookup is refused for good (401 even after a new token): the wait cannot go on.
    const result = await waiting(['order', 'create', ...orderFlags({ amount: '4' }), '--wait'], async () => {
      await call(e2e.sb.url, 'POST', '/_sandbox/force', {
        route: 'lookup',
        error: 'unauthorized',
        times: 10,
      });
    });
    const [created] = await e2e.orders();
    expect(await e2e.orders()).toHaveLength(1);
    expect(result.exitCode).toBe(EXIT.auth);
    expect(JSON.parse(result.stdout)).toMatchObject({ uuid: created.uuid, status: 'PENDING' });
    expect(result.stderr).toContain(`order ${created.uuid} was created: do not create it again`);
  });

  it('failed: exit 6; --wait does not go with --input or --dry-run', async () => {
    await e2e.login();
    const args = ['order', 'create', '--amount', '1', '--description', 'x'];
    const links = ['--success', 'https://s.example/ok', '--fail', 'https://s.example/ko'];
    const failed = await waiting([...args, ...links, '--wait'], async () => {
      const [order] = await e2e.orders();
      await setStatus(order.uuid, 'FAILED');
    });
    expect(failed.exitCode).toBe(EXIT.paymentFailed);
    expect(JSON.parse(failed.stdout).status).toBe('FAILED');
    const dry = await waiting([...args, ...links, '--wait', '--dry-run']);
    expect(dry.exitCode).toBe(EXIT.usage);
    expect(dry.stderr).toContain(
      'error: --wait follows the one order created; it does not go with --dry-run',
    );
  });
});

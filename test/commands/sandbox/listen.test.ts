/**
 * `payorder sandbox listen`: registered with a running sandbox, it prints every status notification
 * (escaped on a terminal), forwards it to the handler unchanged, and passes the handler's answer back
 * so the sandbox retries as it would against the handler itself. Ctrl-C unregisters it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/main.js';
import { type Result, tempDir } from '../../helpers/cli.js';
import { testContext } from '../../helpers/context.js';
import { call, createOrder, tokenFor, useSandbox } from '../../helpers/sandbox.js';
import { serveHttp, unusedPort } from '../../helpers/servers.js';

const sb = useSandbox({ notifyAttempts: 3 });

const running = new Set<AbortController>();
afterEach(() => {
  for (const controller of running) controller.abort('SIGINT');
  running.clear();
});

/** `payorder sandbox listen ARGS…` in process, ready once it says it listens; `stop` is Ctrl-C. */
async function listen(args: string[], options: { tty?: boolean } = {}) {
  const controller = new AbortController();
  running.add(controller);
  const dir = tempDir();
  const { ctx, stdout, stderr } = testContext({
    signal: controller.signal,
    stdoutIsTTY: options.tty,
    columns: 100,
    env: { HOME: dir, PAYORDER_CONFIG_DIR: dir, PAYORDER_CHECKOUT_URL: sb.url, NO_COLOR: '1' },
  });
  const exit = run(['node', 'payorder', 'sandbox', 'listen', ...args], ctx);
  let ended = false;
  void exit.finally(() => (ended = true));
  while (!stderr().includes('Ctrl-C')) {
    if (ended) throw new Error(`listen ended before it was ready: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const url = /Listening on (\S+) /.exec(stderr())![1]!;
  return {
    url,
    stdout,
    async stop(): Promise<Result> {
      controller.abort('SIGINT');
      const exitCode = await exit;
      await new Promise((resolve) => setImmediate(resolve));
      return { exitCode, stdout: stdout(), stderr: stderr() };
    },
  };
}

/** A notification handler that answers `statuses` in turn (then 200) and keeps what it got. */
async function handler(statuses: number[] = []) {
  const got: Array<{ method: string; path: string; type?: string; agent?: string; body: string }> = [];
  const url = await serveHttp((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      got.push({
        method: request.method!,
        path: request.url!,
        type: request.headers['content-type'],
        agent: request.headers['user-agent'],
        body,
      });
      response.writeHead(statuses.shift() ?? 200).end();
    });
  });
  return { url: `${url}/hooks/payorder`, got };
}

const attempts = async () => (await call(sb.url, 'GET', '/_sandbox/notifications')).body.attempts;

describe('payorder sandbox listen', () => {
  it('registers with the sandbox, prints each notification as JSON when piped, forwards it, unregisters on Ctrl-C', async () => {
    const hook = await handler();
    const listener = await listen(['--forward-to', hook.url]);
    const { listeners } = (await call(sb.url, 'GET', '/_sandbox/listeners')).body;
    expect(listeners).toEqual([{ id: expect.any(String), url: listener.url }]);

    // No notification_url on the order: the listener hears of it all the same.
    const order = await createOrder(sb.url, await tokenFor(sb.url));
    await call(sb.url, 'POST', `/pay/${order.uuid}/pay`);
    await expect.poll(() => hook.got.length).toBe(1);

    const sent = JSON.parse(hook.got[0]!.body);
    expect(sent).toMatchObject({ uuid: order.uuid, status: 'PAID', amount: '1250' });
    expect(hook.got[0]).toMatchObject({
      method: 'POST',
      path: '/hooks/payorder',
      type: 'application/json',
      agent: 'payorder-sandbox',
    });
    await expect.poll(() => listener.stdout().split('\n').length).toBe(2);
    const printed = JSON.parse(listener.stdout());
    expect(printed).toEqual({
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/json', 'user-agent': 'payorder-sandbox' },
      body: sent,
      forwarded: { url: hook.url, status: 200, error: null, ms: expect.any(Number) },
    });

    const result = await listener.stop();
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/stopped listening\n$/);
    expect((await call(sb.url, 'GET', '/_sandbox/listeners')).body.listeners).toEqual([]);
  });

  it('passes the handler’s failure back, so the sandbox retries until the handler takes it', async () => {
    const hook = await handler([500]);
    const listener = await listen(['--forward-to', hook.url]);
    const order = await createOrder(sb.url, await tokenFor(sb.url));
    await call(sb.url, 'POST', `/_sandbox/orders/${order.uuid}/status`, { status: 'FAILED' });
    await expect.poll(() => hook.got.length).toBe(2);
    await expect
      .poll(async () => (await attempts()).map((a: { outcome: number }) => a.outcome))
      .toEqual([500, 200]);
    await listener.stop();
    const lines = listener
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.forwarded.status)).toEqual([500, 200]);
  });

  it('says when the handler cannot be reached, and answers the sandbox 502', async () => {
    const nowhere = `http://127.0.0.1:${await unusedPort()}/hook`;
    const listener = await listen(['--forward-to', nowhere]);
    const order = await createOrder(sb.url, await tokenFor(sb.url));
    await call(sb.url, 'POST', `/pay/${order.uuid}/pay`);
    await expect.poll(async () => (await attempts())[0]?.outcome).toBe(502);
    await listener.stop();
    const first = JSON.parse(listener.stdout().split('\n')[0]!);
    expect(first.forwarded).toEqual({
      url: nowhere,
      status: null,
      error: 'ECONNREFUSED',
      ms: expect.any(Number),
    });
  });

  it('on a terminal: one line per notification and the body, escaped so a server cannot drive the terminal', async () => {
    const listener = await listen([], { tty: true });
    // The sandbox does not check external_reference: whatever a merchant sent comes back.
    const order = await createOrder(sb.url, await tokenFor(sb.url), 'v2', {
      external_reference: 'WEB-1\u009b2J\u001b]0;pwned\u0007',
    });
    await call(sb.url, 'POST', `/pay/${order.uuid}/pay`);
    // Anything may post to the port; what it sends is shown, not obeyed.
    await fetch(listener.url, { method: 'POST', body: 'hello\u001b[2Jworld' });
    await expect.poll(() => listener.stdout()).toContain('hello');
    const { stdout } = await listener.stop();
    expect(stdout).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d  PAID order ${order.uuid}\\n`));
    expect(stdout).toContain('  "status": "PAID",');
    expect(stdout).toContain('"external_reference": "WEB-1\\u009b2J\\u001b]0;pwned\\u0007"');
    expect(stdout).toMatch(/\d\d:\d\d:\d\d {2}POST \/\n {2}hello\\u001b\[2Jworld\n$/);
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('needs a running sandbox: nothing listens when it cannot register', async () => {
    const dir = tempDir();
    const nowhere = `http://127.0.0.1:${await unusedPort()}`;
    const { ctx, stderr } = testContext({
      env: { HOME: dir, PAYORDER_CONFIG_DIR: dir, PAYORDER_CHECKOUT_URL: nowhere },
    });
    expect(await run(['node', 'payorder', 'sandbox', 'listen'], ctx)).toBe(5);
    expect(stderr()).toContain(
      `error: cannot reach ${nowhere} (ECONNREFUSED); nothing was sent: is a sandbox running there?`,
    );
  });

  it('--port is listen’s own, not the sandbox’s', async () => {
    const port = await unusedPort();
    const listener = await listen(['--port', String(port)]);
    expect(listener.url).toBe(`http://127.0.0.1:${port}/`);
    await listener.stop();
  });

  it('checks --forward-to and --port before anything else', async () => {
    const dir = tempDir();
    for (const [args, message] of [
      [['--forward-to', 'localhost:3000/hook'], 'error: --forward-to: must be an absolute http(s) URL'],
      [['--port', 'x'], 'error: --port: must be a whole number from 0 to 65535, got "x"'],
    ] as const) {
      const { ctx, stderr } = testContext({ env: { HOME: dir, PAYORDER_CONFIG_DIR: dir } });
      expect(await run(['node', 'payorder', 'sandbox', 'listen', ...args], ctx)).toBe(2);
      expect(stderr()).toContain(message);
    }
  });
});

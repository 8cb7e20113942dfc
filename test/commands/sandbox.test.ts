import { request } from 'node:http';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSandboxOptions } from '../../src/commands/sandbox.run.js';
import { type ApiVersion, PATHS } from '../../src/contract/versions.js';
import { run } from '../../src/main.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { isLoopbackName as isLoopback } from '../../src/sandbox/request-guard.js';
import { BIN, type Result, tempDir } from '../helpers/cli.js';
import { runInProcess, testContext } from '../helpers/context.js';
import { TEST_CREDENTIALS, tokenBody } from '../helpers/sandbox.js';
import { unusedPort } from '../helpers/servers.js';

/** The in-process sandboxes of a test, stopped after it even when it failed half-way. */
const running = new Set<AbortController>();
afterEach(() => {
  for (const controller of running) controller.abort('SIGINT');
  running.clear();
});

/**
 * `payorder sandbox ARGS…` started in process. `ready` resolves once `until` holds for what it printed
 * (or fails if the command ends first); `stop` is Ctrl-C, and resolves with what the command did.
 */
function startSandbox(args: string[], until: (stdout: string) => boolean) {
  const controller = new AbortController();
  running.add(controller);
  const { ctx, stdout, stderr } = testContext({ signal: controller.signal, env: { HOME: tempDir() } });
  const exit = run(['node', 'payorder', 'sandbox', ...args], ctx);
  let ended = false;
  void exit.finally(() => {
    ended = true;
  });
  const ready = (async () => {
    while (!until(stdout())) {
      if (ended) throw new Error(`payorder sandbox ended before it was ready: ${stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return stdout();
  })();
  const stop = async (): Promise<Result> => {
    controller.abort('SIGINT');
    const exitCode = await exit;
    // Let the captured streams deliver what was written last.
    await new Promise((resolve) => setImmediate(resolve));
    return { exitCode, stdout: stdout(), stderr: stderr() };
  };
  return { ready, stop };
}

describe('payorder sandbox (the command)', () => {
  it('starts on a free port with one JSON start line, serves, logs nothing and stops on Ctrl-C', async () => {
    const sandbox = startSandbox(['--port', '0', '--json'], (out) => out.includes('\n'));
    const start = JSON.parse(await sandbox.ready);
    expect(start).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      port: expect.any(Number),
      // No secret in the start line, even the public test account's: it ends up in CI logs.
      accounts: [{ username: TEST_CREDENTIALS.username, client_id: TEST_CREDENTIALS.client_id }],
      token_ttl: 86_400,
    });
    expect(start.url).toBe(`http://127.0.0.1:${start.port}`);
    expect(start.port).toBeGreaterThan(0);
    const reply = await fetch(start.url + PATHS.token('v2'), {
      method: 'POST',
      body: JSON.stringify(tokenBody('v2')),
    });
    expect(reply.status).toBe(200);
    const result = await sandbox.stop();
    expect(result).toEqual({ exitCode: 0, stdout: `${JSON.stringify(start)}\n`, stderr: '' });
    await expect(fetch(start.url)).rejects.toThrow();
  });

  it('prints where it listens and the test account, and logs requests', async () => {
    const sandbox = startSandbox(['--port', '0'], (out) => out.includes('Ctrl-C'));
    const out = await sandbox.ready;
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out)?.[1];
    const { username, clientId, clientSecretId } = TEST_ACCOUNT;
    const routes = (v: ApiVersion) =>
      [PATHS.token(v), PATHS.checkout(v), PATHS.lookup(v)].map((path) => url + path).join(', ');
    expect(out).toBe(
      [
        `payorder sandbox listening on ${url}`,
        `  v1: ${routes('v1')}`,
        `  v2: ${routes('v2')}`,
        `  control: ${url}/_sandbox`,
        `  test account: username ${username}, client id ${clientId}, secret ${clientSecretId}`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    await fetch(url + PATHS.lookup('v2', 'x'));
    const result = await sandbox.stop();
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(out);
    expect(result.stderr).toMatch(
      new RegExp(`^GET ${PATHS.lookup('v2', 'x')} → 401 \\(\\d+\\.\\d ms\\)\\nsandbox stopped\\n$`),
    );
  });

  it('names the accounts it was given, without their secrets', async () => {
    const sandbox = startSandbox(
      ['--port', '0', '--account', 'alice:cli-a:s3cret', '--account', 'bob:cli-b:pw'],
      (out) => out.includes('Ctrl-C'),
    );
    const out = await sandbox.ready;
    await sandbox.stop();
    expect(out).toContain('\n  accounts: alice (client id cli-a), bob (client id cli-b)\n');
    expect(out).not.toContain('s3cret');
    expect(out).not.toContain('test account');
  });

  it('--quiet prints nothing, not even the request log; --host and --port choose the address', async () => {
    const port = await unusedPort();
    const sandbox = startSandbox(['--quiet', '--host', '127.0.0.1', '--port', String(port)], () => true);
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/_sandbox`).catch(() => undefined))?.status, {
        timeout: 10_000,
      })
      .toBe(200);
    await fetch(`http://127.0.0.1:${port}${PATHS.lookup('v2', 'x')}`);
    expect(await sandbox.stop()).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('warns before binding an address other machines can reach (and names one this machine lacks)', async () => {
    // 192.0.2.1 is a documentation address: no machine has it, so nothing is ever reachable.
    const result = await runInProcess(['sandbox', '--host', '192.0.2.1', '--port', '0'], {
      env: { HOME: tempDir() },
    });
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'warning: --host 192.0.2.1 is not a loopback address: the sandbox and its test account will be reachable from other machines\n' +
        'error: --host: 192.0.2.1 is not an address of this machine\n',
    });
  });

  it('--help lists the commands that drive a running sandbox, beside the options that start one', async () => {
    const { exitCode, stdout } = await runInProcess(['sandbox', '--help'], { env: { HOME: tempDir() } });
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Usage: payorder sandbox \[options\] \[command\]\n/);
    const commands = stdout.split('Commands:\n')[1]!.split('\n\n')[0]!;
    expect(commands.split('\n').map((line) => line.trim().split(/\s/)[0])).toEqual(
      expect.arrayContaining(['pay', 'fail', 'refund', 'orders', 'listen']),
    );
    expect(stdout).toContain('--port <n>');
    expect(stdout).toContain('--openapi');
  });

  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1'])('%s is loopback: no warning', (host) => {
    expect(isLoopback(host)).toBe(true);
  });

  it.each(['0.0.0.0', '192.168.1.10', '::', 'shop.example'])('%s is not loopback', (host) => {
    expect(isLoopback(host)).toBe(false);
  });

  it.each([
    [['--port', 'abc'], /^error: --port: must be a whole number from 0 to 65535, got "abc"\n$/],
    [['--port', '65536'], /^error: --port: must be a whole number from 0 to 65535, got "65536"\n$/],
    [['--fail-rate', '2'], /^error: --fail-rate: must be a number from 0 to 1\n$/],
    // The part count the message ends with is left out: it is wrong for fewer than two parts.
    [['--account', 'only-user'], /^error: --account must be USER:CLIENT_ID:SECRET, each part non-empty \(/],
    [
      ['--allow-host', 'sandbox:4010'],
      /^error: --allow-host: "sandbox:4010" is not a host name \(give it without scheme or port, e.g. sandbox\)\n$/,
    ],
    [
      ['--allow-listener-host', 'http://hooks'],
      /^error: --allow-listener-host: "http:\/\/hooks" is not a host name/,
    ],
    [
      ['--public-url', 'ftp://sandbox'],
      /^error: --public-url: "ftp:\/\/sandbox" is not an http\(s\) address without query or fragment\n$/,
    ],
  ])('rejects %j with exit 2', async (args, message) => {
    const result = await runInProcess(['sandbox', ...args], { env: { HOME: tempDir() } });
    expect([result.exitCode, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toMatch(message);
  });

  it.each(['sandbox', 'my_sandbox', 'sandbox.ci.example', '10.0.0.7', '::1', '[fd00::7]'])(
    '--allow-host %s is a host name',
    (name) => {
      const flags = { port: '0', host: '127.0.0.1', account: [], tokenTtl: '60', journalLimit: '10' };
      const options = parseSandboxOptions(
        { ...flags, allowHost: [name], allowListenerHost: [name] },
        testContext().ctx,
      );
      expect([options.server.allowHosts, options.server.allowListenerHosts]).toEqual([[name], [name]]);
    },
  );

  it('--allow-host admits a CI service name, --public-url is where payment links point', async () => {
    const sandbox = startSandbox(
      ['--port', '0', '--json', '--allow-host', 'sandbox', '--public-url', 'http://sandbox:4010'],
      (out) => out.includes('\n'),
    );
    const { url } = JSON.parse(await sandbox.ready);
    const issued = await fetch(url + PATHS.token('v2'), {
      method: 'POST',
      body: JSON.stringify(tokenBody('v2')),
    });
    const token = ((await issued.json()) as { access_token: string }).access_token;
    const created = await new Promise<any>((resolve, reject) => {
      const body = JSON.stringify({
        amount: '1250',
        description: 'Tea',
        callback_success: 'https://shop.example/ok',
        callback_fail: 'https://shop.example/ko',
      });
      const { port } = new URL(url);
      request(
        {
          port,
          method: 'POST',
          path: PATHS.checkout('v2'),
          headers: { host: 'sandbox:4010', authorization: `Bearer ${token}` },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(text) }));
        },
      )
        .on('error', reject)
        .end(body);
    });
    expect((await sandbox.stop()).exitCode).toBe(0);
    expect(created.status).toBe(200);
    expect(created.body.links.checkout_link).toBe(`http://sandbox:4010/pay/${created.body.uuid}`);
  });

  it('a port in use is a clear error', async () => {
    const first = startSandbox(['--port', '0', '--json'], (out) => out.includes('\n'));
    const { port } = JSON.parse(await first.ready);
    const second = await runInProcess(['sandbox', '--port', String(port)], { env: { HOME: tempDir() } });
    expect((await first.stop()).exitCode).toBe(0);
    expect(second).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `error: --port: ${port} is already in use; pick another or --port 0 for a free one\n`,
    });
  });

  // The one test of the real process: the signals reach it, it closes the server and exits 0.
  it('the binary stops cleanly on SIGTERM and on SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = execa(process.execPath, [BIN, 'sandbox', '--port', '0'], {
        reject: false,
        env: { HOME: tempDir() },
      });
      let out = '';
      await new Promise<void>((resolve) =>
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk;
          if (out.includes('Ctrl-C')) resolve();
        }),
      );
      const url = /listening on (\S+)/.exec(out)![1]!;
      expect((await fetch(`${url}/_sandbox`)).status).toBe(200);
      child.kill(signal);
      const result = await child;
      expect([signal, result.exitCode], result.stderr).toEqual([signal, 0]);
      expect(result.stderr).toMatch(/\nsandbox stopped\n?$/);
      await expect(fetch(url)).rejects.toThrow();
    }
  });
});

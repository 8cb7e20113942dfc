import { createServer } from 'node:net';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';

describe('payorder sandbox (the command)', () => {
  it('starts on a free port with a JSON start line, serves, and stops cleanly on SIGTERM', async () => {
    const child = execa(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], {
      reject: false,
      env: { HOME: tempDir() },
    });
    const line = await new Promise<string>((resolve) =>
      child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString())),
    );
    const start = JSON.parse(line);
    expect(start.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(start.accounts[0]).toEqual({
      username: 'sandbox-merchant',
      client_id: 'sandbox-client',
      client_secret_id: 'sandbox-secret',
    });
    const reply = await fetch(`${start.url}/v2/api/auth/token`, {
      method: 'POST',
      body: JSON.stringify({
        username: 'sandbox-merchant',
        client_id: 'sandbox-client',
        client_secret_id: 'sandbox-secret',
        grant_type: 'client_credentials',
      }),
    });
    expect(reply.status).toBe(200);
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(0);
    await expect(fetch(start.url)).rejects.toThrow();
  });

  it('prints where it listens and the test account, and logs requests', async () => {
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
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain(
      'test account: username sandbox-merchant, client id sandbox-client, secret sandbox-secret',
    );
    const url = /listening on (\S+)/.exec(out)![1]!;
    await fetch(`${url}/v2/api/orders/x`);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('GET /v2/api/orders/x → 401');
  });

  it('--quiet prints nothing, not even the request log; --host and --port choose the address', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const child = execa(
      process.execPath,
      [BIN, 'sandbox', '--quiet', '--host', '127.0.0.1', '--port', String(port)],
      { reject: false, env: { HOME: tempDir() } },
    );
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/_sandbox`).catch(() => undefined))?.status, {
        timeout: 10_000,
      })
      .toBe(200);
    await fetch(`http://127.0.0.1:${port}/v2/api/orders/x`);
    child.kill('SIGTERM');
    const result = await child;
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, '', '']);
  });

  it.each([
    [['--port', 'abc'], '--port: must be a whole number'],
    [['--fail-rate', '2'], '--fail-rate: must be a number from 0 to 1'],
    [['--account', 'only-user'], '--account must be USER:CLIENT_ID:SECRET'],
  ])('rejects %j with exit 2', async (args, message) => {
    const result = await execa(process.execPath, [BIN, 'sandbox', ...args], {
      reject: false,
      env: { HOME: tempDir() },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('a port in use is a clear error', async () => {
    const first = execa(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], {
      reject: false,
      env: { HOME: tempDir() },
    });
    const { port } = JSON.parse(
      await new Promise<string>((resolve) =>
        first.stdout!.once('data', (c: Buffer) => resolve(c.toString())),
      ),
    );
    const second = await execa(process.execPath, [BIN, 'sandbox', '--port', String(port)], {
      reject: false,
      env: { HOME: tempDir() },
    });
    first.kill('SIGTERM');
    await first;
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toContain(`--port: ${port} is already in use`);
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULT_URL } from '../../src/contract/environments.js';
import { PATHS } from '../../src/contract/versions.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { BIN, tempDir } from '../helpers/cli.js';
import {
  call,
  createOrder,
  orderBody,
  sandboxOrders,
  setBeforeSunset,
  tokenFor,
} from '../helpers/sandbox.js';

/** The real `payorder sandbox --state FILE` in a process of its own, so a test can kill -9 it. */
/** A sandbox keeping its state in `file`, its clock before v1's sunset (the tests speak v1 to it). */
async function startedBeforeSunset(file: string) {
  const sandbox = await startSandbox({ port: 0, stateFile: file });
  await setBeforeSunset(sandbox.url);
  return sandbox;
}

async function spawnSandbox(file: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', '--state', file], {
    env: { PATH: process.env.PATH, HOME: tempDir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk) => (err += chunk));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', (code) =>
      reject(new Error(`the sandbox exited (${code}) before it listened: ${err}`)),
    );
  });
  const { url } = JSON.parse(line);
  // Its clock before v1's sunset: the tests speak v1 to it.
  await setBeforeSunset(url);
  return { url, child };
}

async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Runs `task` for 0..count-1, `width` at a time. */
async function inParallel(count: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const ORDER = {
  version: 'v2',
  uuid: '3f2b8c1e-5a4d-4e6f-9b7a-1c2d3e4f5a6b',
  owner: TEST_ACCOUNT.username,
  sequence: 100001,
  amountCents: '1250',
  baseUrl: SANDBOX_DEFAULT_URL,
  successUrl: 'https://shop.example/ok',
  failUrl: 'https://shop.example/ko',
  description: 'Tea',
  status: 'PENDING',
  createdAt: 1_760_000_000_000,
  updatedAt: 1_760_000_000_000,
};

const snapshot = (fields: Record<string, unknown>) =>
  JSON.stringify({ format: 1, sequence: 100001, ...fields });
const withOrder = (order: Record<string, unknown>) => snapshot({ orders: [order] });
const { owner: _owner, status: _status, ...orderMissingFields } = ORDER;

describe('--state', () => {
  it('keeps orders across a restart, and reports a corrupt file without touching it', async () => {
    const dir = tempDir('payorder-state-');
    const file = join(dir, 'state.json');
    const first = await startedBeforeSunset(file);
    const token = await tokenFor(first.url);
    const order = await createOrder(first.url, token, 'v1', { amount: '92233720368547758.07' });
    await first.close();

    const second = await startedBeforeSunset(file);
    try {
      const again = await tokenFor(second.url);
      const found = await call(second.url, 'GET', PATHS.lookup('v1', order.uuid), undefined, again);
      expect(found.status).toBe(200);
      expect(found.text).toContain('"amount":92233720368547758.07');
      expect(found.body.orderNumber).toBe(order.orderNumber);
    } finally {
      await second.close();
    }

    writeFileSync(file, '{"format":1,"orders":[');
    await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(/corrupt/);
    expect(readFileSync(file, 'utf8')).toBe('{"format":1,"orders":[');
  });

  it('every order and status change it acknowledged survives kill -9 of the sandbox process', async () => {
    const file = join(tempDir('payorder-state-'), 'state.json');
    const first = await spawnSandbox(file);
    const acknowledged = new Map<string, string>();
    try {
      const tokens = { v1: await tokenFor(first.url, 'v1'), v2: await tokenFor(first.url, 'v2') };
      await inParallel(400, 16, async (i) => {
        const version = i % 3 === 0 ? 'v1' : 'v2';
        const reply = await call(
          first.url,
          'POST',
          PATHS.checkout(version),
          orderBody(version),
          tokens[version],
        );
        expect(reply.status).toBe(200);
        acknowledged.set(reply.body.uuid, 'PENDING');
      });
      // The last things acknowledged before the kill are status changes.
      for (const uuid of [...acknowledged.keys()].slice(-5)) {
        expect((await call(first.url, 'POST', `/pay/${uuid}/pay`)).status).toBe(303);
        acknowledged.set(uuid, 'PAID');
      }
    } finally {
      await killHard(first.child);
    }

    const second = await spawnSandbox(file);
    try {
      const kept = new Map((await sandboxOrders(second.url)).map((o) => [o.uuid, o.status]));
      const lost = [...acknowledged].filter(([uuid, status]) => kept.get(uuid) !== status);
      expect(lost, `${lost.length} of ${acknowledged.size} acknowledged orders lost`).toEqual([]);
      expect(kept.size).toBe(acknowledged.size);
    } finally {
      await killHard(second.child);
    }
  });

  it('keeps the orders before an append that a crash cut short', async () => {
    const file = join(tempDir('payorder-state-'), 'state.json');
    const first = await startedBeforeSunset(file);
    const token = await tokenFor(first.url);
    const order = await createOrder(first.url, token);
    await first.close();
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"version":"v2","uu`);

    const second = await startedBeforeSunset(file);
    try {
      expect((await sandboxOrders(second.url)).map((o) => o.uuid)).toEqual([order.uuid]);
    } finally {
      await second.close();
    }
  });

  it('reads a valid state file of the first format', async () => {
    const file = join(tempDir('payorder-state-'), 'state.json');
    writeFileSync(file, withOrder(ORDER));
    const sandbox = await startedBeforeSunset(file);
    try {
      const token = await tokenFor(sandbox.url);
      const found = await call(sandbox.url, 'GET', PATHS.lookup('v2', ORDER.uuid), undefined, token);
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ uuid: ORDER.uuid, amount: '1250', status: 'PENDING' });
      // The next order continues the numbering.
      const next = await createOrder(sandbox.url, token, 'v1');
      expect(next.orderNumber).toBe('100002');
    } finally {
      await sandbox.close();
    }
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!).format).toBe(2);
    expect(lines.slice(1).map((line) => JSON.parse(line).uuid)).toHaveLength(2);
  });

  it('a reset forgets the orders in the state file too', async () => {
    const file = join(tempDir('payorder-state-'), 'state.json');
    const first = await startedBeforeSunset(file);
    const token = await tokenFor(first.url);
    await createOrder(first.url, token);
    await call(first.url, 'POST', '/_sandbox/reset');
    // A reset puts the clock back to real time: before the sunset again, as the token was issued.
    await setBeforeSunset(first.url);
    const kept = await createOrder(first.url, token);
    await first.close();
    const second = await startedBeforeSunset(file);
    try {
      expect((await sandboxOrders(second.url)).map((o) => o.uuid)).toEqual([kept.uuid]);
    } finally {
      await second.close();
    }
  });

  it('a reset does not write through a temporary file another user planted as a symlink', async () => {
    const dir = tempDir('payorder-state-');
    const file = join(dir, 'state.ndjson');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'not the sandbox’s');
    // The name the temporary file once had: predictable from the process id.
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    const sandbox = await startedBeforeSunset(file);
    try {
      await createOrder(sandbox.url, await tokenFor(sandbox.url));
      expect((await call(sandbox.url, 'POST', '/_sandbox/reset')).status).toBe(200);
    } finally {
      await sandbox.close();
    }
    expect(readFileSync(victim, 'utf8')).toBe('not the sandbox’s');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/^\{"format":2,"sequence":100001\}\n$/);
  });

  it('removes at start a temporary file a crash left during compaction, and nothing else', async () => {
    const dir = tempDir('payorder-state-');
    const file = join(dir, 'state.ndjson');
    const left = [`${file}.4242.tmp`, `${file}.9f86d081884c7d65.tmp`];
    const others = [`${file}.bak`, `${file}.notes.tmp`, join(dir, 'other.ndjson.4242.tmp')];
    for (const path of [...left, ...others]) writeFileSync(path, 'x'.repeat(1000));
    const sandbox = await startedBeforeSunset(file);
    await sandbox.close();
    expect(readdirSync(dir).sort()).toEqual([
      'other.ndjson.4242.tmp',
      'state.ndjson',
      'state.ndjson.bak',
      'state.ndjson.notes.tmp',
    ]);
  });

  it('reports at start a state file it cannot write', async () => {
    const file = join(tempDir('payorder-state-'), 'no-such-folder', 'state.json');
    await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(/cannot write the state file/);
  });

  it.each([
    ['a sequence that is not a number', snapshot({ sequence: 'abc', orders: [] })],
    ['a sequence that is not a whole number', snapshot({ sequence: 1e300, orders: [] })],
    ['orders that are not a list', snapshot({ orders: 'abc' })],
    ['orders keyed by uuid instead of listed', snapshot({ orders: { [ORDER.uuid]: ORDER } })],
    ['an order that is not an object', snapshot({ orders: ['abc'] })],
    ['an order keyed __proto__', withOrder({ ...ORDER, uuid: '__proto__' })],
    [
      'an order with a __proto__ field',
      withOrder(JSON.parse(`{"__proto__":{"x":1},${JSON.stringify(ORDER).slice(1)}`)),
    ],
    ['an order missing fields', withOrder(orderMissingFields)],
    ['an order with a field of the wrong type', withOrder({ ...ORDER, amountCents: 1250 })],
    ['an order of no version', withOrder({ ...ORDER, version: 'v3' })],
    ['an order with an unknown field', withOrder({ ...ORDER, secret: 'x' })],
    ['a header of the second format with a bad sequence', '{"format":2,"sequence":"abc"}\n'],
    [
      'a line of the second format that is not an order',
      `{"format":2,"sequence":100001}\n"abc"\n${JSON.stringify(ORDER)}\n`,
    ],
    [
      'a broken line of the second format that is not the last',
      `{"format":2,"sequence":100001}\n{"ver\n${JSON.stringify(ORDER)}\n`,
    ],
    ['an empty file', ''],
  ])('refuses a state file with %s, and leaves it as it is', async (_, text) => {
    const file = join(tempDir('payorder-state-'), 'state.json');
    writeFileSync(file, text);
    await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(/corrupt/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

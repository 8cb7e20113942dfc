/**
 * `order create --qr` and `--web`: the payment link as a QR code (decoded back from the printed
 * blocks and compared with the QR library's own matrix for that link), on stdout with the table for a
 * person and on stderr when stdout carries data; and the link opened through $BROWSER as gh does.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { orderOutputSchema } from '../../../src/contract/schemas.js';
import { showPaymentLink } from '../../../src/output/payment-link.js';
import { BIN, type CliOptions, onTerminal, orderFlags, SHOP } from '../../helpers/cli.js';
import { runInProcess, testContext, virtualTime } from '../../helpers/context.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, journal } from '../../helpers/sandbox.js';
import { describeWithTools } from '../../helpers/tools.js';

const e2e = useE2E();
const ORDER = orderFlags({ amount: '12.50' });
const createWith = (options: CliOptions, ...args: string[]) =>
  e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER, ...args], options);
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Each block character as the two modules it draws, top then bottom (true: dark). */
const HALVES: Record<string, [boolean, boolean]> = {
  ' ': [false, false],
  '▀': [true, false],
  '▄': [false, true],
  '█': [true, true],
};
const isBlockLine = (line: string) => line.length > 0 && [...line].every((char) => char in HALVES);

/**
 * The QR code printed in `text` (the lines made only of block characters), read back as rows of
 * modules, with the quiet zone around the symbol measured and then cut off.
 */
function readQr(text: string): { modules: boolean[][]; quiet: number } {
  const lines = text.replace(ESCAPES, '').split('\n').filter(isBlockLine);
  expect(lines.length, 'a QR code was printed').toBeGreaterThan(0);
  const grid = lines.flatMap((line) => {
    const halves = [...line].map((char) => HALVES[char]!);
    return [halves.map(([top]) => top), halves.map(([, bottom]) => bottom)];
  });
  const darkRows = grid.map((row, r) => (row.some(Boolean) ? r : -1)).filter((r) => r >= 0);
  const darkCols = grid[0]!.map((_, c) => (grid.some((row) => row[c]) ? c : -1)).filter((c) => c >= 0);
  const [top, left] = [darkRows[0]!, darkCols[0]!];
  const size = darkCols.at(-1)! - left + 1;
  return {
    modules: grid.slice(top, top + size).map((row) => row.slice(left, left + size)),
    quiet: Math.min(top, left, grid[0]!.length - left - size),
  };
}

/** The QR library's own matrix for `link`, as rows of modules (true: dark). */
function expectedModules(link: string): boolean[][] {
  const { modules } = QRCode.create(link);
  return Array.from({ length: modules.size }, (_, r) =>
    Array.from({ length: modules.size }, (_, c) => Boolean(modules.get(r, c))),
  );
}

function expectQrOf(text: string, link: string) {
  const { modules, quiet } = readQr(text);
  expect(modules).toEqual(expectedModules(link));
  // The quiet zone the standard asks for, so that a phone finds the code.
  expect(quiet).toBeGreaterThanOrEqual(4);
}

describe('order create --qr', () => {
  it('piped: stdout stays JSON, the QR code of the payment link goes to stderr', async () => {
    await e2e.loginAfresh();
    const result = await createWith({}, '--qr');
    expect(result.exitCode, result.stderr).toBe(0);
    const order = orderOutputSchema.parse(JSON.parse(result.stdout));
    expect(order.links.checkout).toBe(`${e2e.sb.url}/pay/${order.uuid}`);
    expectQrOf(result.stderr, order.links.checkout!);
    expect(result.stdout).not.toMatch(/[▀▄█]/);
  });

  it('--field links.checkout prints the link alone on stdout, the code on stderr', async () => {
    await e2e.loginAfresh();
    const result = await createWith({}, '--qr', '--field', 'links.checkout');
    expect(result.exitCode, result.stderr).toBe(0);
    const link = result.stdout.trim();
    expect(link).toMatch(new RegExp(`^${e2e.sb.url}/pay/[0-9a-f-]{36}$`));
    expectQrOf(result.stderr, link);
  });

  it('-o table piped: the code follows the table on stdout (a file to print)', async () => {
    await e2e.loginAfresh();
    const result = await createWith({}, '--qr', '-o', 'table');
    expect(result.exitCode, result.stderr).toBe(0);
    const [uuid] = (await e2e.orders()).map((order) => order.uuid);
    expect(result.stdout).toContain(uuid);
    expectQrOf(result.stdout, `${e2e.sb.url}/pay/${uuid}`);
    expect(result.stderr).not.toMatch(/[▀▄█]/);
  });

  it('on a terminal with colors: drawn black on white, so it scans on a dark terminal too', async () => {
    await e2e.loginAfresh();
    const result = await runInProcess(['order', 'create', '--env', 'sandbox', ...ORDER, '--qr'], {
      env: e2e.env({ TERM: 'xterm-256color' }),
      stdoutIsTTY: true,
      stderrIsTTY: true,
      columns: 100,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const [order] = await e2e.orders();
    const qrLines = result.stdout.split('\n').filter((line) => isBlockLine(line.replace(ESCAPES, '')));
    expect(qrLines.length).toBeGreaterThan(10);
    for (const line of qrLines) expect(line).toMatch(/^\u001b\[30m\u001b\[47m.*\u001b\[49m\u001b\[39m$/);
    expectQrOf(result.stdout, `${e2e.sb.url}/pay/${order.uuid}`);
  });

  it('a terminal narrower than the code gets a warning', async () => {
    await e2e.loginAfresh();
    const result = await runInProcess(['order', 'create', '--env', 'sandbox', ...ORDER, '--qr'], {
      env: e2e.env({ NO_COLOR: '1' }),
      stdoutIsTTY: true,
      stderrIsTTY: true,
      columns: 30,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warning: the QR code is \d+ columns wide and the terminal 30/);
  });

  it('with --wait, the code is shown before the wait: the payer scans it while payorder waits', async () => {
    await e2e.loginAfresh();
    const time = virtualTime(new Date(), async () => {
      const [order] = await e2e.orders();
      await call(e2e.sb.url, 'POST', `/pay/${order.uuid}/pay`);
    });
    const result = await runInProcess(['order', 'create', '--env', 'sandbox', ...ORDER, '--qr', '--wait'], {
      env: e2e.env(),
      time,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'PAID' });
    const [order] = await e2e.orders();
    const waitingLine = result.stderr.indexOf('waiting up to');
    expect(waitingLine).toBeGreaterThan(0);
    expectQrOf(result.stderr.slice(0, waitingLine), `${e2e.sb.url}/pay/${order.uuid}`);
  });

  it('--qr and --web go with one order: refused with --input and --dry-run, nothing sent', async () => {
    await e2e.loginAfresh();
    const dry = await createWith({}, '--qr', '--dry-run');
    expect(dry.exitCode).toBe(2);
    expect(dry.stderr).toContain(
      'error: --qr shows the payment link of the order created; it does not go with --dry-run',
    );
    const batch = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', 'orders.csv', '--web']);
    expect(batch.exitCode).toBe(2);
    expect(batch.stderr).toContain(
      'error: --web shows the payment link of the order created; it does not go with --input',
    );
    expect(await journal(e2e.sb.url)).toEqual([]);
  });
});

describeWithTools(['script'], 'order create --qr on a pseudo-terminal', () => {
  it('the table, then the code of its payment link, on the screen', async () => {
    await e2e.loginAfresh();
    const command = `"${process.execPath}" "${BIN}" order create --env sandbox ${ORDER.map((a) => `'${a}'`).join(' ')} --qr`;
    const result = await onTerminal(command, e2e.env({ NO_COLOR: '1' }));
    expect(result.exitCode).toBe(0);
    const [order] = await e2e.orders();
    const link = `${e2e.sb.url}/pay/${order.uuid}`;
    expect(result.stdout).toContain(`payment link\n${link}\n`);
    expectQrOf(result.stdout.slice(result.stdout.indexOf(link)), link);
  });
});

describe('order create --web', () => {
  /** A browser that records the arguments it is started with, one per line, in `record`. */
  function recordingBrowser(name = 'browser') {
    const script = join(e2e.dir, name);
    const record = join(e2e.dir, `${name}.args`);
    writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\necho "browser says hi"\n`);
    chmodSync(script, 0o755);
    return { script, args: () => readFileSync(record, 'utf8').split('\n').slice(0, -1), record };
  }

  it('opens the payment link with $BROWSER (split like a shell, link last); stdout stays data', async () => {
    await e2e.loginAfresh();
    const browser = recordingBrowser('my browser');
    const result = await createWith({ env: { BROWSER: `'${browser.script}' --new-window` } }, '--web');
    expect(result.exitCode, result.stderr).toBe(0);
    const order = orderOutputSchema.parse(JSON.parse(result.stdout));
    expect(browser.args()).toEqual(['--new-window', order.links.checkout]);
    expect(result.stderr).toContain(`Opening ${order.links.checkout} in your browser.`);
    // What the browser command prints is not payorder's data.
    expect(result.stderr).toContain('browser says hi');
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
  });

  it('a browser that fails or cannot be run is a warning with the link: exit 0, the order sent once', async () => {
    await e2e.loginAfresh();
    const failing = join(e2e.dir, 'failing-browser');
    writeFileSync(failing, '#!/bin/sh\nexit 3\n');
    chmodSync(failing, 0o755);
    const failed = await createWith({ env: { BROWSER: failing } }, '--web', '--field', 'links.checkout');
    expect(failed.exitCode, failed.stderr).toBe(0);
    const link = failed.stdout.trim();
    expect(failed.stderr).toContain(
      `warning: the BROWSER command ${failing} exited with 3; open the payment link yourself: ${link}`,
    );
    const missing = await createWith({ env: { BROWSER: join(e2e.dir, 'no-such-browser') } }, '--web');
    expect(missing.exitCode, missing.stderr).toBe(0);
    expect(missing.stderr).toMatch(
      /^warning: BROWSER names .*no-such-browser, which cannot be run \(ENOENT\); open the payment link yourself: http/m,
    );
    const unterminated = await createWith({ env: { BROWSER: "'browser" } }, '--web');
    expect(unterminated.stderr).toContain("warning: BROWSER has an unterminated ' quote");
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(3);
  });

  it("the browser does not get payorder's credentials from the environment", async () => {
    await e2e.loginAfresh();
    const script = join(e2e.dir, 'env-browser');
    const record = join(e2e.dir, 'env-browser.env');
    writeFileSync(script, `#!/bin/sh\nenv > '${record}'\n`);
    chmodSync(script, 0o755);
    const result = await createWith(
      {
        env: {
          BROWSER: script,
          PAYORDER_USERNAME: SHOP.username,
          PAYORDER_CLIENT_ID: SHOP.clientId,
          PAYORDER_CLIENT_SECRET_ID: SHOP.clientSecretId,
        },
      },
      '--web',
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const seen = readFileSync(record, 'utf8');
    expect(seen).not.toContain(SHOP.clientSecretId);
    expect(seen).not.toMatch(/^PAYORDER_CLIENT_/m);
  });

  it('without --web nothing is opened', async () => {
    await e2e.loginAfresh();
    const browser = recordingBrowser();
    const result = await createWith({ env: { BROWSER: browser.script } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(browser.record)).toBe(false);
  });
});

// The reader itself: it reads the library's own rendering back, and tells two links apart.
it('a link too long for a QR code is a warning that gives the link: the order exists, exit 0', async () => {
  const { ctx, stdout, stderr } = testContext();
  const link = `https://pay.example/${'x'.repeat(3_000)}`;
  await showPaymentLink(ctx, link, { qr: true, web: false }, { stdoutIsData: true });
  expect(stdout()).toBe('');
  expect(stderr()).toMatch(/^warning: no QR code \(.*\); the payment link: https:\/\/pay\.example\/x+\n$/);
});

it('the QR reader reads a code back and tells one link from another', async () => {
  const text = await QRCode.toString('https://a.example/pay/1', { type: 'utf8' });
  expectQrOf(text, 'https://a.example/pay/1');
  expect(readQr(text).modules).not.toEqual(expectedModules('https://a.example/pay/2'));
});

describe('order get --qr and --web, as on create', () => {
  const newOrder = async () => {
    await e2e.loginAfresh();
    const created = await e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER, '--field', 'uuid']);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    return created.stdout.trim();
  };

  it('--qr: the JSON on stdout, the code of the payment link on stderr', async () => {
    const uuid = await newOrder();
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--qr']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).uuid).toBe(uuid);
    expectQrOf(result.stderr, `${e2e.sb.url}/pay/${uuid}`);
  });

  it('--web opens the payment link with $BROWSER; several ids are refused', async () => {
    const uuid = await newOrder();
    const script = join(e2e.dir, 'browser');
    const record = join(e2e.dir, 'browser.args');
    writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\n`);
    chmodSync(script, 0o755);
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--web'], {
      env: { BROWSER: script },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(record, 'utf8')).toBe(`${e2e.sb.url}/pay/${uuid}\n`);
    expect(result.stderr).toContain(`Opening ${e2e.sb.url}/pay/${uuid} in your browser.`);
    const several = await e2e.run(['order', 'get', uuid, uuid, '--env', 'sandbox', '--web']);
    expect(several.exitCode).toBe(2);
    expect(several.stderr).toContain('--web shows the payment link of one order');
    expect(await journal(e2e.sb.url, 'lookup')).toHaveLength(1);
  });

  it('with --wait, the code is shown at the first answer, before the wait', async () => {
    const uuid = await newOrder();
    const time = virtualTime(new Date(), () => call(e2e.sb.url, 'POST', `/pay/${uuid}/pay`).then(() => {}));
    const result = await runInProcess(['order', 'get', uuid, '--env', 'sandbox', '--qr', '--wait'], {
      env: e2e.env(),
      time,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'PAID' });
    expectQrOf(result.stderr.slice(0, result.stderr.indexOf('waiting up to')), `${e2e.sb.url}/pay/${uuid}`);
  });
});

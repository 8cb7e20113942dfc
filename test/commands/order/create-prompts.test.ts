/**
 * `order create` with fields missing: one message naming all of them without a terminal or with
 * --no-input, and on a terminal a form that checks each answer by the flags' rules and, for
 * production, shows the request and asks before sending it. The questions are answered in process by
 * a scripted Prompter; one test types into the real prompts on a pseudo-terminal (`script`).
 */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, expectNoLeak } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/context.js';
import { SHOP_ENV, useE2E } from '../../helpers/e2e.js';
import { type Answer, CANCEL, scriptedPrompter } from '../../helpers/prompter.js';
import { journal } from '../../helpers/sandbox.js';
import { describeWithTools } from '../../helpers/tools.js';

const e2e = useE2E();
const LINKS = ['--success', 'https://shop.example/ok', '--fail', 'https://shop.example/ko'];
const MISSING_ALL =
  'error: missing --amount, --description, --success, --fail (no prompts without a terminal or with --no-input)';
/** Backspaces over a refused answer, which stays on the prompt's line to be edited. */
const erase = (typed: string) => '\u007f'.repeat(typed.length);
/** A terminal that edits lines (with TERM=dumb, Node's line editor takes a backspace as text). */
const A_TERMINAL = { TERM: 'xterm-256color', NO_COLOR: '1' };
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * `payorder ARGS` on a pseudo-terminal that a test types into: `waitFor` a text on the screen,
 * `type` keys (Enter is \r), then `done` for the exit code and the whole screen, escapes removed.
 */
function onTerminalTyping(args: string, env: Record<string, string | undefined>) {
  const child = execa('script', ['-qefc', `"${process.execPath}" "${BIN}" ${args}`, '/dev/null'], {
    env,
    extendEnv: false,
    reject: false,
    timeout: 20_000,
  });
  let screen = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
  });
  const plain = () => screen.replace(ESCAPES, '').replace(/\r/g, '');
  return {
    screen: plain,
    waitFor: (text: string) =>
      expect
        .poll(() => plain().includes(text), {
          timeout: 10_000,
          interval: 20,
          message: `waiting for "${text}"`,
        })
        .toBe(true),
    type: (keys: string) => child.stdin!.write(keys),
    async done() {
      const result = await child;
      const shown = plain();
      expectNoLeak({ exitCode: result.exitCode ?? -1, stdout: shown, stderr: '' });
      return { exitCode: result.exitCode ?? -1, screen: shown };
    },
  };
}

describe('missing flags without prompts', () => {
  it('are named together in one message, exit 2, and nothing is sent (no terminal)', async () => {
    await e2e.loginAfresh();
    const result = await e2e.run(['order', 'create', '--env', 'sandbox']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(MISSING_ALL);
    const some = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      '--amount',
      '5',
      '--fail',
      'https://s.example/ko',
    ]);
    expect(some.stderr.split('\n')[0]).toBe(
      'error: missing --description, --success (no prompts without a terminal or with --no-input)',
    );
    const json = await e2e.run(['order', 'create', '--env', 'sandbox', '--description', 'Tea', '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ kind: 'usage', exit_code: 2, field: '--amount' });
    expect(JSON.parse(json.stderr).error.message).toContain('missing --amount, --success, --fail');
    expect(await journal(e2e.sb.url)).toEqual([]);
  });

  it('stdin alone on a terminal is not enough: prompts need stderr on one too', async () => {
    await e2e.loginAfresh();
    const result = await runInProcess(['order', 'create', '--env', 'sandbox'], {
      env: e2e.env(),
      stdinIsTTY: true,
      stderrIsTTY: false,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(MISSING_ALL);
    expect(await journal(e2e.sb.url)).toEqual([]);
  });
});

/**
 * `payorder ARGS` in process with stdin and stderr on a terminal, its questions answered by `answers`:
 * the exit code, stdout, stderr and the questions asked.
 */
async function answering(args: string[], answers: Answer[], env: Record<string, string | undefined>) {
  const { prompter, asked } = scriptedPrompter(answers);
  const result = await runInProcess(args, {
    env: { ...env, NO_COLOR: '1' },
    stdinIsTTY: true,
    stderrIsTTY: true,
    prompter,
  });
  expectNoLeak(result);
  return { ...result, asked };
}

describe('order create on a terminal, answered in process', () => {
  it('--no-input: the one message, no question asked, nothing sent', async () => {
    await e2e.loginAfresh();
    const result = await answering(['order', 'create', '--env', 'sandbox', '--no-input'], [], e2e.env());
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(MISSING_ALL);
    expect(result.asked).toEqual([]);
    expect(await journal(e2e.sb.url)).toEqual([]);
  });

  it('asks for each missing field in turn, refusing answers by the flags’ rules', async () => {
    await e2e.loginAfresh();
    const result = await answering(
      ['order', 'create', '--env', 'sandbox', '--json'],
      [
        '1.999',
        '0',
        '12.50',
        'Boots, size 42',
        'ftp://shop.example/ok',
        'https://shop.example/ok',
        'https://shop.example/ko',
      ],
      e2e.env(),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.asked.map(({ kind, message }) => [kind, message])).toEqual([
      ['input', 'Amount (major units, e.g. 12.50):'],
      ['input', 'Description:'],
      ['input', 'Link after a successful payment:'],
      ['input', 'Link after a failed payment:'],
    ]);
    expect(result.asked[0]!.refused).toEqual([
      expect.stringMatching(/^amount: /),
      'amount: must be greater than zero',
    ]);
    expect(result.asked[2]!.refused).toEqual(['success: must be an absolute http(s) URL, got a ftp URL']);
    expect(JSON.parse(result.stdout).uuid).toBe((await e2e.orders())[0].uuid);
  });

  it('asks only for what is missing, and says what is wrong with the flags before asking anything', async () => {
    await e2e.loginAfresh();
    const refused = await answering(
      ['order', 'create', '--env', 'sandbox', '--amount', '1.999', ...LINKS],
      ['Gift wrap'],
      e2e.env(),
    );
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('error: --amount:');
    expect(refused.asked).toEqual([]);
    const result = await answering(
      ['order', 'create', '--env', 'sandbox', '--amount', '7', ...LINKS, '--field', 'amount'],
      ['Gift wrap'],
      e2e.env(),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.asked.map(({ message }) => message)).toEqual(['Description:']);
    expect(result.stdout).toBe('7.00\n');
    expect((await journal(e2e.sb.url, 'checkout')).map((entry) => entry.body.description)).toEqual([
      'Gift wrap',
    ]);
  });

  it('production: shows the request and sends nothing when it is not confirmed', async () => {
    const result = await answering(
      ['order', 'create', '--env', 'production', '--amount', '19.99', ...LINKS],
      ['Invoice 42', false],
      e2e.env(SHOP_ENV),
    );
    expect(result.exitCode).toBe(2);
    expect(result.asked.map(({ kind, message }) => [kind, message])).toEqual([
      ['input', 'Description:'],
      ['confirm', 'Create this order in production?'],
    ]);
    expect(result.stderr).toContain(`POST ${e2e.sb.url}/v2/api/checkout`);
    expect(result.stderr).toContain('authorization: Bearer ***');
    expect(result.stderr).toContain('"amount": "1999"');
    expect(result.stderr).toContain('error: not confirmed; nothing was sent');
    expect(result.stdout).toBe('');
    // Not even a token was asked for.
    expect(await journal(e2e.sb.url)).toEqual([]);
  });

  it('production: sends the order once it is confirmed', async () => {
    const result = await answering(
      ['order', 'create', '--env', 'production', '--description', 'Tea', ...LINKS, '--field', 'uuid'],
      ['3', true],
      e2e.env(SHOP_ENV),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const orders = await e2e.orders();
    expect(orders).toHaveLength(1);
    expect(result.stdout).toBe(`${orders[0].uuid}\n`);
    expect((await journal(e2e.sb.url, 'checkout')).map((entry) => entry.body.amount)).toEqual(['300']);
  });

  it('Ctrl-C in a prompt cancels: exit 130, nothing sent', async () => {
    await e2e.loginAfresh();
    const result = await answering(['order', 'create', '--env', 'sandbox'], [CANCEL], e2e.env());
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain('cancelled; nothing was sent');
    expect(await journal(e2e.sb.url)).toEqual([]);
  });

  it('a command line that gives every field is never asked anything, on production neither', async () => {
    const result = await answering(
      [
        'order',
        'create',
        '--env',
        'production',
        '--amount',
        '1',
        '--description',
        'Tea',
        ...LINKS,
        '--field',
        'amount',
      ],
      [],
      e2e.env(SHOP_ENV),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.asked).toEqual([]);
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
  });
});

// The one test through the real prompts: keys typed on a pseudo-terminal, each answer checked as typed.
describeWithTools(['script'], 'order create on a terminal', () => {
  it('asks for each missing field, refusing answers by the flags’ rules, then creates the order', async () => {
    await e2e.loginAfresh();
    const session = onTerminalTyping('order create --env sandbox --json', e2e.env(A_TERMINAL));
    await session.waitFor('Amount (major units, e.g. 12.50):');
    session.type('1.999\r');
    await session.waitFor('amount: ');
    session.type(`${erase('1.999')}0\r`);
    await session.waitFor('amount: must be greater than zero');
    session.type(`${erase('0')}12.50\r`);
    await session.waitFor('Description:');
    session.type('Boots, size 42\r');
    await session.waitFor('Link after a successful payment:');
    session.type('ftp://shop.example/ok\r');
    await session.waitFor('success: must be an absolute http(s) URL, got a ftp URL');
    session.type(`${erase('ftp://shop.example/ok')}https://shop.example/ok\r`);
    await session.waitFor('Link after a failed payment:');
    session.type('https://shop.example/ko\r');
    const { exitCode, screen } = await session.done();
    expect(exitCode, screen).toBe(0);
    // The same rule text as the flag's (--amount 1.999), and no confirmation outside production.
    const flag = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      '--amount',
      '1.999',
      '--description',
      'x',
      ...LINKS,
    ]);
    const rule = flag.stderr.split('\n')[0]!.replace('error: --amount: ', '');
    expect(screen).toContain(`amount: ${rule}`);
    expect(screen).not.toContain('production?');
    const sent = await journal(e2e.sb.url, 'checkout');
    expect(sent.map((entry) => entry.body)).toEqual([
      {
        amount: '1250',
        description: 'Boots, size 42',
        callback_success: 'https://shop.example/ok',
        callback_fail: 'https://shop.example/ko',
      },
    ]);
    expect(screen).toContain(`"uuid": "${(await e2e.orders())[0].uuid}"`);
  });
});

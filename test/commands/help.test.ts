import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { BIN, cliEnv, cliFor, onTerminal, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';

const run = cliFor({ configDir: tempDir() });
const COMMANDS = [
  [],
  ['login'],
  ['logout'],
  ['status'],
  ['token'],
  ['config'],
  ['config', 'get'],
  ['config', 'set'],
  ['config', 'unset'],
  ['config', 'list'],
  ['order'],
  ['order', 'create'],
  ['order', 'get'],
  ['migrate-check'],
  ['completion'],
  ['man'],
  ['sandbox'],
  ['sandbox', 'pay'],
  ['sandbox', 'orders'],
  ['sandbox', 'listen'],
];
const ESC = '\u001b[';

describe('help', () => {
  it('payorder alone is the overview, with workflows and the exit codes, on stdout', async () => {
    // `payorder` alone has every command registered; --help and -h the groups without their
    // subcommands, which the overview does not list: the same text.
    const alone = await run([]);
    const help = await run(['--help']);
    const short = await run(['-h']);
    expect([alone.exitCode, help.exitCode, short.exitCode]).toEqual([0, 0, 0]);
    expect(alone.stdout).toBe(help.stdout);
    expect(short.stdout).toBe(help.stdout);
    expect(help.stdout).toContain('Common workflows:');
    expect(help.stdout).toMatch(
      /Exit codes:\n {2}0 {4}success\n {2}1 .*\n {2}2 .*\n {2}4 .*\n {2}5 .*\n {2}6 .*\n {2}7 .*\n {2}8 .*\n {2}129 .*\n {2}130 /,
    );
    expect(help.stderr).toBe('');
  });

  it.each(COMMANDS.filter((c) => c.length > 0))(
    'payorder %s --help: description, options, examples (one a pipeline)',
    async (...command) => {
      const result = await run([...command, '--help']);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(/^Usage: payorder /);
      expect(result.stdout).toContain('Options:');
      const examples = result.stdout.split('Examples:\n')[1] ?? '';
      const commands = examples.split('\n').filter((line) => line.startsWith('  $ '));
      expect(commands.length).toBeGreaterThanOrEqual(2);
      expect(commands.some((line) => /\||\$\(|<\(| < /.test(line))).toBe(true);
    },
  );

  it.each(COMMANDS)('help snapshot: payorder %s', async (...command) => {
    const result = await run([...command, '--help']);
    expect(result.stdout).toMatchSnapshot();
  });

  it.each(['order create', 'order get', 'config set', 'order'])(
    'payorder help %s shows the help of that command',
    async (words) => {
      const command = words.split(' ');
      const asked = await run(['help', ...command]);
      const flag = await run([...command, '--help']);
      expect(asked.exitCode).toBe(0);
      expect(asked.stdout).toMatch(new RegExp(`^Usage: payorder ${command.join(' ')} `));
      expect(asked).toEqual(flag);
    },
  );

  it('payorder help with a word that names no command refuses it with a suggestion', async () => {
    expect(await run(['help', 'order', 'creat'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "error: unknown command 'creat'\n(Did you mean create?)\n(run with --help for usage)\n",
    });
    expect(await run(['help', 'ordr'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "error: unknown command 'ordr'\n(Did you mean order?)\n(run with --help for usage)\n",
    });
    expect((await run(['help'])).stdout).toBe((await run(['--help'])).stdout);
  });

  it('shows defaults', async () => {
    const flat = async (args: string[]) => (await run(args)).stdout.replace(/\s+/g, ' ');
    expect(await flat(['sandbox', '--help'])).toContain('(default: "4010")');
    expect(await flat(['order', 'create', '--help'])).toContain('(default: "4")');
  });

  // A command runs with only its own part of the tree registered; any other first word gets every
  // command, so that it is refused with a suggestion, the name of an object's own property included.
  it('a first word that names no command is refused whatever it is, with every command to suggest from', async () => {
    for (const word of ['constructor', '__proto__', 'toString'])
      expect(await run([word])).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `error: unknown command '${word}'\n(run with --help for usage)\n`,
      });
    expect((await run(['help', 'login'])).stdout).toContain('Usage: payorder login');
  });

  it('suggests the nearest command and flag', async () => {
    expect(await run(['ordr'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "error: unknown command 'ordr'\n(Did you mean order?)\n(run with --help for usage)\n",
    });
    expect(await run(['order', 'create', '--amout', '5'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "error: unknown option '--amout'\n(Did you mean --amount?)\n(run with --help for usage)\n",
    });
    expect(await run(['config', 'sett'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "error: unknown command 'sett'\n(Did you mean set?)\n(run with --help for usage)\n",
    });
  });

  // A real process and a real pipe: the entry point, not the command, handles the closed pipe (EPIPE).
  it('a reader that goes away early is no error (payorder … | head -1)', async () => {
    const result = await execa(
      'bash',
      ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" order create --help | head -1`],
      { reject: false },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Usage: payorder order create [options]');
    expect(result.stderr).toBe('');
  });

  it('--version prints the version alone', async () => {
    for (const args of [['--version'], ['-V'], ['--version', '--quiet']])
      expect(await run(args)).toEqual({ exitCode: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  // The build sets the version from package.json: only the built binary has it.
  it('the built binary reports the package version', async () => {
    const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8'));
    for (const args of [['--version'], ['-V'], ['--version', '--quiet']]) {
      const result = await run(args, { spawn: true });
      expect(result.stdout).toBe(`${version}\n`);
    }
  });
});

describe('colors and quiet', () => {
  const fixtures = resolve(import.meta.dirname, '../fixtures/migrate/shop-js');

  it('no escape codes when stdout is not a terminal, or with NO_COLOR; FORCE_COLOR forces them', async () => {
    expect((await run(['migrate-check', fixtures])).stdout).not.toContain(ESC);
    expect((await run(['migrate-check', fixtures], { env: { FORCE_COLOR: '1' } })).stdout).toContain(ESC);
    expect(
      (await run(['migrate-check', fixtures], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout,
    ).not.toContain(ESC);
    expect((await run(['--help'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toContain(ESC);
  });

  it('stdout on a terminal: colors, except with NO_COLOR, TERM=dumb or --no-color', async () => {
    const screen = async (env: Record<string, string>, args: string[] = []) =>
      (
        await runInProcess(['migrate-check', fixtures, ...args], {
          env: { ...cliEnv({ configDir: tempDir() }), TERM: 'xterm-256color', ...env },
          stdoutIsTTY: true,
        })
      ).stdout;
    expect(await screen({})).toContain(ESC);
    expect(await screen({ NO_COLOR: '1' })).not.toContain(ESC);
    expect(await screen({ TERM: 'dumb' })).not.toContain(ESC);
    expect(await screen({}, ['--no-color'])).not.toContain(ESC);
  });

  it('on a pseudo-terminal, the binary sees the terminal: colors, except with NO_COLOR, TERM=dumb or --no-color', async () => {
    const screen = async (extra: Record<string, string>, args = '') => {
      const env = { PATH: process.env.PATH!, HOME: tempDir(), TERM: 'xterm-256color', ...extra };
      return (await onTerminal(`"${process.execPath}" "${BIN}" migrate-check "${fixtures}" ${args}`, env))
        .stdout;
    };
    expect(await screen({})).toContain(ESC);
    expect(await screen({ NO_COLOR: '1' })).not.toContain(ESC);
    expect(await screen({ TERM: 'dumb' })).not.toContain(ESC);
    expect(await screen({}, '--no-color')).not.toContain(ESC);
  });

  it('--quiet leaves only data and errors', async () => {
    const dir = tempDir();
    const quiet = cliFor({ configDir: dir });
    const set = await quiet(['config', 'set', 'default-api', 'v2', '--quiet']);
    expect([set.exitCode, set.stdout, set.stderr]).toEqual([0, '', '']);
    const get = await quiet(['config', 'get', 'default-api', '--quiet']);
    expect(get.stdout).toBe('v2\n');
    const failing = await quiet(['config', 'get', 'default-env', '--quiet']);
    expect(failing).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'error: default-env is not set\nhint: payorder config set default-env VALUE\n',
    });
  });
});

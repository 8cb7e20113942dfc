import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cliFor, tempDir } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FILES = {
  bash: 'payorder.bash',
  zsh: '_payorder',
  fish: 'payorder.fish',
  powershell: 'payorder.ps1',
} as const;
const run = cliFor({ configDir: tempDir() });
const script = (file: string) => resolve(ROOT, 'completions', file);

describe('completion scripts', () => {
  it.each(Object.entries(FILES))(
    'completions/%s is what `payorder completion` prints (no drift from the command tree)',
    async (shell, file) => {
      const result = await run(['completion', shell]);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(readFileSync(script(file), 'utf8'));
    },
  );

  it('refuses an unknown shell', async () => {
    const result = await run(['completion', 'tcsh']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Allowed choices are bash, zsh, fish, powershell');
  });
});

/** Each case: the words typed so far (the last one is being completed) and what must be offered. */
const CASES: Array<[string[], string[], string[]]> = [
  [['payorder', 'or'], ['order'], ['login']],
  [
    ['payorder', 'order', ''],
    ['create', 'get'],
    ['login', '--amount'],
  ],
  [['payorder', 'order', 'create', '--env', ''], ['production', 'stage', 'test', 'sandbox'], ['create']],
  [
    ['payorder', 'order', 'create', '--'],
    ['--amount', '--description', '--input', '--journal', '--env', '--api', '--output'],
    ['--port', '--client-id', '--all'],
  ],
  [['payorder', 'order', 'create', '-o', ''], ['table', 'json', 'ndjson', 'tsv'], []],
  [['payorder', 'login', '--api', ''], ['v1', 'v2'], []],
  [['payorder', 'completion', ''], ['bash', 'zsh', 'fish', 'powershell'], []],
];

describe('in real shells', () => {
  it.each(CASES)('bash: %j', async (words, offered, notOffered) => {
    const quoted = words.map((w) => `'${w}'`).join(' ');
    const { stdout } = await execa('bash', [
      '-c',
      `source '${script(FILES.bash)}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _payorder; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ]);
    const got = stdout.split('\n');
    for (const word of offered) expect(got).toContain(word);
    for (const word of notOffered) expect(got).not.toContain(word);
  });

  it.each(CASES)('zsh: %j', async (words, offered, notOffered) => {
    const quoted = words.map((w) => `'${w}'`).join(' ');
    // compadd and _files stand in for zsh's completion system, which filters by the typed prefix.
    const harness = `compdef() { :; }
compadd() { while [[ $# -gt 0 && "$1" != "--" ]]; do shift; done; shift; local w; for w in "$@"; do [[ "$w" == "\${words[CURRENT]}"* ]] && print -r -- "$w"; done; }
_files() { print -r -- "<files>"; }
source '${script(FILES.zsh)}'
words=(${quoted}); CURRENT=${words.length}; _payorder; true`;
    const { stdout } = await execa('zsh', ['-f', '-c', harness]);
    const got = stdout.split('\n');
    for (const word of offered) expect(got).toContain(word);
    for (const word of notOffered) expect(got).not.toContain(word);
  });

  it.each(CASES)('fish: %j', async (words, offered, notOffered) => {
    const { stdout } = await execa('fish', [
      '--no-config',
      '-c',
      `source '${script(FILES.fish)}'; complete -C '${words.join(' ')}'`,
    ]);
    const got = stdout.split('\n').map((line) => line.split('\t')[0]);
    for (const word of offered) expect(got).toContain(word);
    for (const word of notOffered) expect(got).not.toContain(word);
  });

  it('files for --input and migrate-check paths', async () => {
    const bash = await execa('bash', [
      '-c',
      `cd '${ROOT}'; source '${script(FILES.bash)}'; COMP_WORDS=(payorder order create --input test/demo/or); COMP_CWORD=4; _payorder; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ]);
    expect(bash.stdout).toBe('test/demo/orders.ndjson');
    const fish = await execa('fish', [
      '--no-config',
      '-c',
      `cd '${ROOT}'; source '${script(FILES.fish)}'; complete -C 'payorder migrate-check test/demo/or'`,
    ]);
    expect(fish.stdout).toContain('test/demo/orders.ndjson');
  });

  it('PowerShell: the script registers a native completer with every command path (no pwsh here to run it)', () => {
    const text = readFileSync(script(FILES.powershell), 'utf8');
    expect(text).toContain('Register-ArgumentCompleter -Native -CommandName payorder');
    for (const path of ['', 'order', 'order create', 'order get', 'config set', 'migrate-check', 'sandbox'])
      expect(text).toContain(`'${path}' = @{`);
    expect(text).toContain("'--env' = 'choices production stage test sandbox'");
  });
});

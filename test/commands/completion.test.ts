import { readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, SECRET, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';
import { describeWithTools } from '../helpers/tools.js';
import { emptyStoreFolder, STORED_WITH_PROFILES, storeFolder } from '../store/store-folder.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FILES = {
  bash: 'payorder.bash',
  zsh: '_payorder',
  fish: 'payorder.fish',
  powershell: 'payorder.ps1',
} as const;
const script = (file: string) => resolve(ROOT, 'completions', file);

describe('completion scripts', () => {
  it.each(Object.entries(FILES))(
    'completions/%s is what `payorder completion` prints (no drift from the command tree)',
    async (shell, file) => {
      expect(await runInProcess(['completion', shell])).toEqual({
        exitCode: 0,
        stdout: readFileSync(script(file), 'utf8'),
        stderr: '',
      });
    },
  );

  it('refuses an unknown shell', async () => {
    expect(await runInProcess(['completion', 'tcsh'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        "error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish, powershell.\n" +
        '(run with --help for usage)\n',
    });
  });

  it('needs a shell', async () => {
    expect(await runInProcess(['completion'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "error: missing required argument 'shell'\n(run with --help for usage)\n",
    });
  });
});

/** Each case: the words typed so far (the last one is being completed) and what must be offered. */
const CASES: Array<[string[], string[], string[]]> = [
  [['payorder', 'or'], ['order'], ['login']],
  // The command the scripts call back is for them alone.
  [['payorder', ''], ['login', 'order', 'completion', 'man', 'sandbox'], ['__complete']],
  [['payorder', '__'], [], ['__complete']],
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
  // Config keys for the key, and nothing of them for the value that follows it.
  [
    ['payorder', 'config', 'set', ''],
    ['default-env', 'default-output', 'stage.v2.auth-url', 'sandbox.v2.checkout-url'],
    ['get', '--debug'],
  ],
  [
    ['payorder', 'config', 'set', 'sand'],
    ['sandbox.v2.checkout-url', 'sandbox.v1.auth-url'],
    ['stage.v2.auth-url'],
  ],
  [['payorder', 'config', 'set', '--quiet', 'default-o'], ['default-output'], []],
  [['payorder', 'config', 'set', 'default-env', ''], [], ['default-env', 'stage.v2.auth-url']],
  [['payorder', 'config', 'get', ''], ['default-api', 'production.v1.checkout-url'], []],
  [
    ['payorder', 'config', 'unset', 'stage.v'],
    ['stage.v1.auth-url', 'stage.v2.checkout-url'],
    ['default-env'],
  ],
  // The sandbox's own commands, and a subcommand's own options.
  [['payorder', 'sandbox', ''], ['pay', 'fail', 'refund', 'orders', 'listen'], ['--port']],
  [
    ['payorder', 'sandbox', 'listen', '--'],
    ['--forward-to', '--port'],
    ['--openapi', '--state'],
  ],
];

/**
 * The profile names, which the scripts ask `payorder __complete profiles` for as they complete: each
 * case says which config folder the shell's PAYORDER_CONFIG_DIR names (one whose store has two named
 * profiles, or one without a store), the words typed, and what must and must not be offered.
 */
const PROFILE_CASES: Array<['two profiles' | 'no store', string[], string[], string[]]> = [
  ['two profiles', ['payorder', 'status', '--profile', ''], ['default', 'acme', 'shop-b'], ['--json']],
  [
    'two profiles',
    ['payorder', 'order', 'create', '--env', 'stage', '--profile', 'sh'],
    ['shop-b'],
    ['acme'],
  ],
  ['two profiles', ['payorder', 'logout', '--all', '--profile', 'a'], ['acme'], ['default', 'shop-b']],
  // The word after the profile's is not a profile.
  ['two profiles', ['payorder', 'token', '--profile', 'acme', '--'], ['--env', '--api'], ['acme', 'default']],
  ['no store', ['payorder', 'login', '--profile', ''], ['default'], ['acme', 'shop-b']],
];

/**
 * The environment a shell completes in for PROFILE_CASES: `payorder` on PATH is the built CLI, and
 * PAYORDER_CONFIG_DIR names the case's config folder.
 */
function useProfileShell(): (folder: (typeof PROFILE_CASES)[number][0]) => Record<string, string> {
  const envs = new Map<string, Record<string, string>>();
  beforeAll(() => {
    const bin = tempDir('payorder-bin-');
    writeFileSync(join(bin, 'payorder'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, {
      mode: 0o755,
    });
    const path = `${bin}${delimiter}${process.env.PATH ?? ''}`;
    envs.set('two profiles', { PATH: path, PAYORDER_CONFIG_DIR: storeFolder(STORED_WITH_PROFILES).dir });
    envs.set('no store', { PATH: path, PAYORDER_CONFIG_DIR: emptyStoreFolder().dir });
  });
  return (folder) => envs.get(folder)!;
}

/** What a shell offered (one word a line) holds `offered`, none of `notOffered`, and never the secret. */
function expectOffers(stdout: string, offered: string[], notOffered: string[]): void {
  const got = stdout.split('\n').map((line) => line.split('\t')[0]);
  for (const word of offered) expect(got).toContain(word);
  for (const word of notOffered) expect(got).not.toContain(word);
  expect(stdout).not.toContain(SECRET);
}

describe('in real shells', () => {
  const envFor = useProfileShell();

  describeWithTools(['bash'], 'bash', () => {
    const bash = async (words: string[], env?: Record<string, string>) => {
      const quoted = words.map((w) => `'${w}'`).join(' ');
      const { stdout } = await execa(
        'bash',
        [
          '-c',
          `source '${script(FILES.bash)}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _payorder; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { env },
      );
      return stdout;
    };
    it.each(CASES)('%j', async (words, offered, notOffered) => {
      expectOffers(await bash(words), offered, notOffered);
    });

    it.each(PROFILE_CASES)('profiles, %s: %j', async (folder, words, offered, notOffered) => {
      expectOffers(await bash(words, envFor(folder)), offered, notOffered);
    });

    it('files for every migrate-check path, after options and their values too', async () => {
      const { stdout } = await execa('bash', [
        '-c',
        `cd '${ROOT}'; source '${script(FILES.bash)}'; COMP_WORDS=(payorder migrate-check --format sarif README.md test/demo/or); COMP_CWORD=5; _payorder; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ]);
      expect(stdout).toBe('test/demo/orders.ndjson');
    });

    it('files for --input', async () => {
      const { stdout } = await execa('bash', [
        '-c',
        `cd '${ROOT}'; source '${script(FILES.bash)}'; COMP_WORDS=(payorder order create --input test/demo/or); COMP_CWORD=4; _payorder; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ]);
      expect(stdout).toBe('test/demo/orders.ndjson');
    });
  });

  describeWithTools(['zsh'], 'zsh', () => {
    const zsh = async (words: string[], env?: Record<string, string>) => {
      const quoted = words.map((w) => `'${w}'`).join(' ');
      // compadd and _files stand in for zsh's completion system, which filters by the typed prefix.
      const harness = `compdef() { :; }
compadd() { while [[ $# -gt 0 && "$1" != "--" ]]; do shift; done; shift; local w; for w in "$@"; do [[ "$w" == "\${words[CURRENT]}"* ]] && print -r -- "$w"; done; }
_files() { print -r -- "<files>"; }
source '${script(FILES.zsh)}'
words=(${quoted}); CURRENT=${words.length}; _payorder; true`;
      const { stdout } = await execa('zsh', ['-f', '-c', harness], { env });
      return stdout;
    };
    it.each(CASES)('%j', async (words, offered, notOffered) => {
      expectOffers(await zsh(words), offered, notOffered);
    });

    it.each(PROFILE_CASES)('profiles, %s: %j', async (folder, words, offered, notOffered) => {
      expectOffers(await zsh(words, envFor(folder)), offered, notOffered);
    });
  });

  describeWithTools(['fish'], 'fish', () => {
    const fish = async (words: string[], env?: Record<string, string>) => {
      const { stdout } = await execa(
        'fish',
        ['--no-config', '-c', `source '${script(FILES.fish)}'; complete -C '${words.join(' ')}'`],
        { env },
      );
      return stdout;
    };
    it.each(CASES)('%j', async (words, offered, notOffered) => {
      expectOffers(await fish(words), offered, notOffered);
    });

    it.each(PROFILE_CASES)('profiles, %s: %j', async (folder, words, offered, notOffered) => {
      expectOffers(await fish(words, envFor(folder)), offered, notOffered);
    });

    it('files for migrate-check paths', async () => {
      const { stdout } = await execa('fish', [
        '--no-config',
        '-c',
        `cd '${ROOT}'; source '${script(FILES.fish)}'; complete -C 'payorder migrate-check test/demo/or'`,
      ]);
      expect(stdout).toContain('test/demo/orders.ndjson');
    });
  });

  it('PowerShell: the script registers a native completer with every command path (no pwsh here to run it)', () => {
    const text = readFileSync(script(FILES.powershell), 'utf8');
    expect(text).toContain('Register-ArgumentCompleter -Native -CommandName payorder');
    for (const path of ['', 'order', 'order create', 'order get', 'config set', 'migrate-check', 'sandbox'])
      expect(text).toContain(`'${path}' = @{`);
    expect(text).toContain("'--env' = 'choices production stage test sandbox'");
    // config set: its key from the config keys, its value free; migrate-check: files, as many as given.
    expect(text).toMatch(
      /'config set' = @\{.*Args = @\('choices default-env default-api default-output batch-window default-success default-fail default-description ledger production\.v1\.auth-url [^']*', 'any'\); Variadic = \$false \}/,
    );
    expect(text).toMatch(/'migrate-check' = @\{.*Args = @\('files'\); Variadic = \$true \}/);
    // --profile: the names payorder prints as it completes, its errors dropped; never the command itself.
    expect(text).toMatch(/'status' = @\{.*'--profile' = 'dynamic profiles'/);
    expect(text).toContain(
      "elseif ($value -like 'dynamic *') { try { @(payorder __complete $value.Substring(8) 2>$null) } catch { @() } }",
    );
    expect(text).not.toMatch(/Subs = @\([^)]*__complete/);
  });
});

/**
 * The manual page payorder(1): generated from the command tree (completions/payorder.1 is what
 * `payorder man` prints, so it cannot drift), installed by npm through package.json's `man`, and
 * read by groff without a warning.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/context.js';
import { describeWithTools } from '../helpers/tools.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGE = resolve(ROOT, 'completions/payorder.1');

describe('payorder man', () => {
  it('completions/payorder.1 is what `payorder man` prints (no drift from the command tree)', async () => {
    expect(await runInProcess(['man'])).toEqual({
      exitCode: 0,
      stdout: readFileSync(PAGE, 'utf8'),
      stderr: '',
    });
  });

  it('package.json installs it as a man page and packs it', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8'));
    // npm's bin-links installs man pages only from an array; a string is silently ignored.
    expect(pkg.man).toEqual(['./completions/payorder.1']);
    expect(pkg.files).toContain('completions/');
    expect(pkg.scripts.completions).toContain('node bin/payorder.js man > completions/payorder.1');
  });

  it('has every command with its options, arguments and examples, and the exit codes', async () => {
    const { stdout } = await runInProcess(['man']);
    expect(stdout).toMatch(/^\.\\" payorder\(1\); generated /);
    expect(stdout).toContain('.TH PAYORDER 1 "" "payorder" "User Commands"');
    for (const command of ['order create', 'order get', 'config set', 'sandbox pay', 'sandbox listen', 'man'])
      expect(stdout).toContain(`.SS "payorder ${command}"`);
    expect(stdout).toContain('.B \\-\\-forward\\-to <url>');
    expect(stdout).toContain(
      '.B \\-\\-env <name>\nenvironment (default: PAYORDER_ENV, the configured default, else stage) (one of: production, stage, test, sandbox)',
    );
    expect(stdout).toContain('\\fBpayorder sandbox \\-\\-port 0 \\-\\-json | head \\-1 | jq \\-r .url\\fR');
    const exitStatus = stdout.split('.SH "EXIT STATUS"\n')[1]?.split('\n.SH ')[0] ?? '';
    expect(exitStatus).toMatch(/^\.nf\n0 {4}success\n/);
    for (const code of [1, 2, 4, 5, 6, 7, 8, 129, 130, 141])
      expect(exitStatus).toMatch(new RegExp(`^${code} +\\S`, 'm'));
    expect(stdout.split('.SH OVERVIEW')[1]).toContain('Docs: README.md');
    // Nothing beyond ASCII, and no line a formatter would take for a request.
    expect(stdout).not.toMatch(/[^\x00-\x7f]/);
    expect(stdout).not.toMatch(/^'/m);
  });
});

describeWithTools(['groff'], 'the page as man shows it', () => {
  it('groff reads it without a warning, and shows the commands', async () => {
    const checked = await execa('groff', ['-man', '-Tutf8', '-ww', '-z', PAGE]);
    expect(checked.stderr).toBe('');
    const shown = await execa('groff', ['-man', '-Tascii', '-P', '-cbou', PAGE]);
    expect(shown.stdout).toContain('payorder sandbox listen');
    expect(shown.stdout).toContain('--forward-to <url>');
    expect(shown.stdout).toMatch(/NAME\n\s+payorder +- Create and look up payment orders/);
  });
});

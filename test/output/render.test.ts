/**
 * The one format rule and the shared renderers: which format a command's result takes (asked,
 * stored, terminal or pipe), how a result is printed in it, and how an error looks on stderr.
 */
import { describe, expect, it } from 'vitest';
import { CliError, EXIT, usageError } from '../../src/errors.js';
import type { OutputFormat } from '../../src/output/formats.js';
import { chooseFormat, type FormatRule, render, renderError } from '../../src/output/render.js';
import { testContext } from '../helpers/context.js';

const onTerminal = () => testContext({ stdoutIsTTY: true, stderrIsTTY: true, env: { NO_COLOR: '1' } });
const piped = () => testContext();

describe('chooseFormat', () => {
  const ALL: OutputFormat[] = ['table', 'json', 'ndjson', 'tsv'];

  it('what -o/--json asked for wins over anything stored, on a terminal and in a pipe', () => {
    for (const { ctx } of [onTerminal(), piped()])
      for (const asked of ALL)
        for (const stored of [undefined, ...ALL])
          expect(chooseFormat(ctx, { asked, stored, whenPiped: 'ndjson' }), `${asked} over ${stored}`).toBe(
            asked,
          );
  });

  it.each<[string, FormatRule, OutputFormat]>([
    ['nothing stored', {}, 'table'],
    ['nothing stored, a streaming command', { whenPiped: 'ndjson' }, 'table'],
    ['stored table', { stored: 'table' }, 'table'],
    ['stored json', { stored: 'json' }, 'json'],
    ['stored ndjson', { stored: 'ndjson' }, 'ndjson'],
    ['stored tsv', { stored: 'tsv' }, 'tsv'],
  ])('on a terminal, %s → %s', (_, rule, expected) => {
    expect(chooseFormat(onTerminal().ctx, rule)).toBe(expected);
  });

  it.each<[string, FormatRule, OutputFormat]>([
    ['nothing stored', {}, 'json'],
    ['nothing stored, a streaming command', { whenPiped: 'ndjson' }, 'ndjson'],
    // A table is for people: a pipe gets the command's data format instead.
    ['stored table', { stored: 'table' }, 'json'],
    ['stored table, a streaming command', { stored: 'table', whenPiped: 'ndjson' }, 'ndjson'],
    ['stored json, a streaming command', { stored: 'json', whenPiped: 'ndjson' }, 'json'],
    ['stored ndjson', { stored: 'ndjson' }, 'ndjson'],
    ['stored tsv', { stored: 'tsv' }, 'tsv'],
  ])('in a pipe, %s → %s', (_, rule, expected) => {
    expect(chooseFormat(piped().ctx, rule)).toBe(expected);
  });
});

describe('render', () => {
  const result = {
    json: { name: 'stage', ready: true },
    human: (paint: { bold(text: string): string }) => `${paint.bold('stage')} is ready`,
  };

  it('json is indented, ndjson one line, both on stdout', () => {
    for (const [format, text] of [
      ['json', '{\n  "name": "stage",\n  "ready": true\n}\n'],
      ['ndjson', '{"name":"stage","ready":true}\n'],
    ] as const) {
      const { ctx, stdout, stderr } = piped();
      render(ctx, format, result);
      expect([stdout(), stderr()]).toEqual([text, '']);
    }
  });

  it('table is the text for people, colored only where they look', () => {
    const plain = onTerminal();
    render(plain.ctx, 'table', result);
    expect(plain.stdout()).toBe('stage is ready\n');
    const colored = testContext({ stdoutIsTTY: true });
    render(colored.ctx, 'table', result);
    expect(colored.stdout()).toBe('\u001b[1mstage\u001b[22m is ready\n');
  });

  it('text meant as a message goes to stderr, and --quiet silences it; empty text prints nothing', () => {
    const message = { ...result, humanTo: 'stderr' as const };
    const shown = onTerminal();
    render(shown.ctx, 'table', message);
    expect([shown.stdout(), shown.stderr()]).toEqual(['', 'stage is ready\n']);
    const quiet = onTerminal();
    quiet.ctx.flags.quiet = true;
    render(quiet.ctx, 'table', message);
    expect(quiet.stderr()).toBe('');
    const empty = onTerminal();
    render(empty.ctx, 'table', { json: null, human: () => '' });
    expect(empty.stdout()).toBe('');
  });

  it('tsv is refused as bad usage: it exists only for orders', () => {
    const { ctx, stdout } = piped();
    let thrown: unknown;
    try {
      render(ctx, 'tsv', result);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CliError);
    expect((thrown as CliError).exitCode).toBe(EXIT.usage);
    expect((thrown as CliError).details.field).toBe('--output');
    expect((thrown as CliError).message).toBe('-o tsv shows orders; choose json, ndjson or table here');
    expect(stdout()).toBe('');
  });
});

describe('renderError', () => {
  const error = new CliError('not_found', 'order abc not found on stage (v2)', {
    status: 404,
    hint: 'check the id',
  });

  it('one line on stderr, then the hint on a line of its own', () => {
    const { ctx, stdout, stderr } = piped();
    renderError(ctx, error);
    expect([stdout(), stderr()]).toEqual([
      '',
      'error: order abc not found on stage (v2)\nhint: check the id\n',
    ]);
  });

  it('no hint line when there is no hint', () => {
    const { ctx, stderr } = piped();
    renderError(ctx, usageError('--amount: is required', { field: '--amount' }));
    expect(stderr()).toBe('error: --amount: is required\n');
  });

  it('colored for a person on a terminal', () => {
    const { ctx, stderr } = testContext({ stderrIsTTY: true });
    renderError(ctx, error);
    expect(stderr()).toBe(
      '\u001b[31merror:\u001b[39m order abc not found on stage (v2)\n\u001b[2mhint: check the id\u001b[22m\n',
    );
  });

  it('with --json: the documented JSON object on one line of stderr, never colored', () => {
    const { ctx, stdout, stderr } = testContext({ stderrIsTTY: true });
    ctx.flags.json = true;
    renderError(ctx, error);
    expect(stdout()).toBe('');
    expect(stderr()).toBe(
      `${JSON.stringify({
        error: {
          kind: 'not_found',
          message: 'order abc not found on stage (v2)',
          exit_code: 1,
          code: null,
          status: 404,
          field: null,
          hint: 'check the id',
        },
      })}\n`,
    );
  });
});

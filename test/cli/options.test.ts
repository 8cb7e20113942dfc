import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_CONCURRENCY,
  parseConcurrency,
  parseOutputOptions,
  parseWaitOptions,
} from '../../src/cli/options.js';
import { type CliError, EXIT } from '../../src/errors.js';
import { OUTPUT_FORMATS } from '../../src/formats.js';
import { duration, wholeNumber } from '../../src/values.js';
import { runInProcess } from '../helpers/context.js';
import { refusal } from '../helpers/refusal.js';

/** What a user sees of a refusal: its kind, exit code, message and the flag it names. */
const shown = (error: CliError) => ({
  kind: error.kind,
  exitCode: error.exitCode,
  message: error.message,
  field: error.details.field,
});

describe('wholeNumber', () => {
  const port = wholeNumber('--port', 0, 65_535);

  it('accepts the bounds and every whole number between them', () => {
    expect(port('0')).toBe(0);
    expect(port('65535')).toBe(65_535);
    expect(port('4010')).toBe(4010);
    fc.assert(fc.property(fc.integer({ min: 0, max: 65_535 }), (n) => port(String(n)) === n));
  });

  it.each([
    ['below the range', '-1'],
    ['above the range', '65536'],
    ['far above the range', '99999999999999999999'],
    ['a decimal', '1.5'],
    ['a decimal that is whole', '80.0'],
    ['a minus sign', '-0'],
    ['a plus sign', '+80'],
    ['empty', ''],
    ['blank', ' '],
    ['surrounded by spaces', ' 80 '],
    ['exponent notation', '1e3'],
    ['hexadecimal', '0x50'],
    ['a word', 'abc'],
  ])('refuses %s (%j) with a usage error naming the flag and the range', (_, value) => {
    expect(shown(refusal(() => port(value)))).toEqual({
      kind: 'usage',
      exitCode: EXIT.usage,
      message: `--port: must be a whole number from 0 to 65535, got "${value}"`,
      field: '--port',
    });
  });

  it('refuses the numbers just outside a range that does not start at 0', () => {
    const ttl = wholeNumber('--token-ttl', 1, 31_536_000);
    expect(ttl('1')).toBe(1);
    expect(ttl('31536000')).toBe(31_536_000);
    expect(refusal(() => ttl('0')).message).toBe(
      '--token-ttl: must be a whole number from 1 to 31536000, got "0"',
    );
    expect(refusal(() => ttl('31536001')).message).toBe(
      '--token-ttl: must be a whole number from 1 to 31536000, got "31536001"',
    );
  });
});

describe('parseConcurrency', () => {
  it(`accepts 1 to ${MAX_CONCURRENCY} requests in flight`, () => {
    expect(MAX_CONCURRENCY).toBe(64);
    expect(parseConcurrency('1')).toBe(1);
    expect(parseConcurrency('4')).toBe(4);
    expect(parseConcurrency('64')).toBe(64);
  });

  it.each(['0', '65', '2.5', '-4', 'many', ''])('refuses %j naming --concurrency and 1 to 64', (value) => {
    expect(shown(refusal(() => parseConcurrency(value)))).toEqual({
      kind: 'usage',
      exitCode: EXIT.usage,
      message: `--concurrency: must be a whole number from 1 to 64, got "${value}"`,
      field: '--concurrency',
    });
  });
});

describe('parseOutputOptions', () => {
  it('leaves the format to the rendering rule when nothing is asked, with headers and no raw body', () => {
    expect(parseOutputOptions({})).toEqual({
      format: undefined,
      field: undefined,
      raw: false,
      headers: true,
    });
  });

  it.each(OUTPUT_FORMATS)('-o %s is that format', (format) => {
    expect(parseOutputOptions({ output: format }).format).toBe(format);
  });

  it('--json is the json format', () => {
    expect(parseOutputOptions({ json: true })).toEqual({
      format: 'json',
      field: undefined,
      raw: false,
      headers: true,
    });
    expect(parseOutputOptions({ json: false }).format).toBeUndefined();
    expect(parseOutputOptions({ json: true, output: 'json' }).format).toBe('json');
  });

  it('refuses --json with another -o, naming both', () => {
    expect(shown(refusal(() => parseOutputOptions({ json: true, output: 'table' })))).toEqual({
      kind: 'usage',
      exitCode: EXIT.usage,
      message: '--json and -o table ask for two formats; give one',
      field: '--output',
    });
  });

  it('leaves an unknown -o to commander, which refuses it with the choices before anything runs', async () => {
    const result = await runInProcess(['order', 'get', 'x', '-o', 'xml']);
    expect(result.exitCode).toBe(EXIT.usage);
    expect(result.stderr).toContain(
      "error: option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are table, json, ndjson, tsv.",
    );
    expect(result.stdout).toBe('');
  });

  it('passes --field, --raw and --no-headers through', () => {
    expect(parseOutputOptions({ output: 'tsv', field: 'links.checkout', raw: true, headers: false })).toEqual(
      {
        format: 'tsv',
        field: 'links.checkout',
        raw: true,
        headers: false,
      },
    );
  });
});

describe('duration and --wait', () => {
  const timeout = duration('--timeout', 1, 24 * 3600);

  it.each([
    ['30s', 30_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['2m5s', 125_000],
    ['24h', 86_400_000],
  ])('%s is %i ms', (value, ms) => {
    expect(timeout(value)).toBe(ms);
  });

  it.each([
    ['30', '--timeout: needs a unit like 30s, 10m or 1h30m, got "30"'],
    ['', '--timeout: must be a duration like 30s, 10m or 1h30m, got ""'],
    ['10 m', '--timeout: must be a duration like 30s, 10m or 1h30m, got "10 m"'],
    ['5m1h', '--timeout: must be a duration like 30s, 10m or 1h30m, got "5m1h"'],
    ['-5s', '--timeout: must be a duration like 30s, 10m or 1h30m, got "-5s"'],
    ['0s', '--timeout: must be from 1s to 24h, got "0s"'],
    ['25h', '--timeout: must be from 1s to 24h, got "25h"'],
  ])('%j is refused, naming the flag', (value, message) => {
    expect(shown(refusal(() => timeout(value)))).toEqual({
      kind: 'usage',
      exitCode: EXIT.usage,
      message,
      field: '--timeout',
    });
  });

  it('--wait waits 10 minutes unless --timeout says otherwise; --timeout alone is refused', () => {
    expect(parseWaitOptions({})).toBeUndefined();
    expect(parseWaitOptions({ wait: true })).toEqual({ timeoutMs: 600_000 });
    expect(parseWaitOptions({ wait: true, timeout: '30s' })).toEqual({ timeoutMs: 30_000 });
    expect(refusal(() => parseWaitOptions({ timeout: '30s' })).message).toBe('--timeout goes with --wait');
  });
});

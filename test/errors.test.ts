import { describe, expect, it } from 'vitest';
import { CliError, type ErrorKind, EXIT, invalidField, usageError } from '../src/errors.js';

describe('CliError', () => {
  it.each<[ErrorKind, number]>([
    ['usage', EXIT.usage],
    ['config', EXIT.usage],
    ['auth', EXIT.auth],
    ['rejected', EXIT.rejected],
    ['not_found', EXIT.rejected],
    ['network', EXIT.network],
    ['outcome_unknown', EXIT.network],
    ['io', EXIT.network],
    ['interrupted', EXIT.interrupted],
    ['hung_up', 129],
    ['closed_pipe', EXIT.closedPipe],
    ['payment_failed', 6],
    ['refunded', 7],
    ['wait_timed_out', 8],
  ])('%s exits %i', (kind, code) => {
    expect(new CliError(kind, 'x').exitCode).toBe(code);
  });

  it('has one documented JSON shape, with null for what it lacks', () => {
    expect(new CliError('auth', 'no token', { code: '3006', status: 401, hint: 'log in' }).toJSON()).toEqual({
      error: {
        kind: 'auth',
        message: 'no token',
        exit_code: EXIT.auth,
        code: '3006',
        status: 401,
        field: null,
        hint: 'log in',
      },
    });
  });

  it('names the field and the rule for bad input', () => {
    const error = invalidField('--amount', 'must have at most 2 decimals');
    expect([error.kind, error.message, error.details.field]).toEqual([
      'usage',
      '--amount: must have at most 2 decimals',
      '--amount',
    ]);
    expect(usageError('give one').exitCode).toBe(EXIT.usage);
  });
});

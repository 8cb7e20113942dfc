/**
 * The typed error payorder refuses something with. The test fails when nothing is refused, and any
 * other error (which a user would see as an "unexpected failure") is thrown on as it came.
 */
import { expect } from 'vitest';
import { CliError } from '../../src/errors.js';

/** What a test failure says when nothing was refused: a text, or a function that writes it then. */
type Accepted = string | (() => string);
const said = (accepted: Accepted) => (typeof accepted === 'string' ? accepted : accepted());

/** The CliError `action` throws; `accepted` is what the failure says when it throws none. */
export function refusal(action: () => unknown, accepted: Accepted = 'it was accepted'): CliError {
  let result: unknown;
  try {
    result = action();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  // A promise would be refused later, after this had already failed the test for the wrong reason.
  if (result instanceof Promise) {
    result.catch(() => {});
    throw new Error('refusal() was given an async action: use rejection()');
  }
  return expect.unreachable(`expected a CliError, but ${said(accepted)}`);
}

/** The CliError `action` fails with, thrown or as a rejected promise. */
export async function rejection(
  action: () => unknown,
  accepted: Accepted = 'it was accepted',
): Promise<CliError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  return expect.unreachable(`expected a CliError, but ${said(accepted)}`);
}

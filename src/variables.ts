/**
 * The process's environment variables as payorder reads them, and the clock they may set. A leaf
 * module: the store, the context and the sessions all take their `Env` from here.
 */

export type Env = Readonly<Record<string, string | undefined>>;

/** The clock: real time, or PAYORDER_NOW (an ISO date) so tests and rehearsals can set the date. */
export function clockFrom(env: Env): () => Date {
  const fixed = env.PAYORDER_NOW;
  if (fixed === undefined || fixed === '') return () => new Date();
  const at = Date.parse(fixed);
  // An unreadable PAYORDER_NOW is refused before any command runs (variableProblem).
  return Number.isNaN(at) ? () => new Date() : () => new Date(at);
}

/** Whether PAYORDER_NOW sets the clock: a rehearsal of another date, whose times are not the real ones. */
export const clockIsSet = (env: Env): boolean => env.PAYORDER_NOW !== undefined && env.PAYORDER_NOW !== '';

/** Colors per clig.dev: NO_COLOR wins, then FORCE_COLOR, then TERM=dumb, then whether it is a TTY. */
export function wantsColor(env: Env, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** Seconds to wait for an answer: PAYORDER_TIMEOUT, else 30 (checkVariables refuses a bad value). */
export function timeoutSeconds(env: Env): number {
  return env.PAYORDER_TIMEOUT ? Number(env.PAYORDER_TIMEOUT) : 30;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** An ISO 8601 date or date-time that names a real day and time (no roll-over: 2026-02-30 is refused). */
export function isIsoDate(text: string): boolean {
  const match = ISO.exec(text);
  if (!match) return false;
  // The date's three parts are always there; a missing time is midnight.
  const [year = 0, month = 0, day = 0, hours = 0, minutes = 0, seconds = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  const date = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hours &&
    date.getUTCMinutes() === minutes &&
    date.getUTCSeconds() === seconds
  );
}

/** Whether PAYORDER_DEBUG turns tracing on. */
export const debugFromEnv = (env: Env) => env.PAYORDER_DEBUG === '1' || env.PAYORDER_DEBUG === 'true';

/**
 * The PAYORDER_ variables whose values have a rule, checked before a command runs: the problem
 * with the first bad one, naming the variable and the rule, or undefined when all are fine.
 * (PAYORDER_ENV and PAYORDER_API are checked where they are resolved, with the choices.)
 */
export function variableProblem(env: Env): string | undefined {
  const timeout = env.PAYORDER_TIMEOUT;
  if (timeout !== undefined && timeout !== '') {
    const seconds = Number(timeout);
    if (!/^\d+(\.\d+)?$/.test(timeout) || !(seconds > 0 && seconds <= 3600))
      return `PAYORDER_TIMEOUT: must be a number of seconds from 0 to 3600 (e.g. 30), got ${JSON.stringify(timeout)}`;
  }
  const debug = env.PAYORDER_DEBUG;
  if (debug !== undefined && !['', '0', '1', 'true', 'false'].includes(debug))
    return `PAYORDER_DEBUG: must be 1 (or true) to trace, 0 (or false) not to, got ${JSON.stringify(debug)}`;
  const now = env.PAYORDER_NOW;
  if (now !== undefined && now !== '' && !isIsoDate(now))
    return `PAYORDER_NOW: must be an ISO date like 2026-12-31 or 2026-12-31T12:00:00Z, got ${JSON.stringify(now)}`;
  return undefined;
}

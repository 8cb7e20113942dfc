/** The days and times the ledger's commands take: a day (YYYY-MM-DD, UTC) or an ISO 8601 time. */
import { invalidField } from '../errors.js';

const DAY = /^\d{4}-\d\d-\d\d$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)$/;

/**
 * The instant `value` names: the start of the day (UTC) for a day, or the time given. `endOfDay`:
 * a day means its end (the next day's start), so that --until 2026-11-26 takes in that day.
 */
export function parseDate(flag: string, value: string, { endOfDay = false } = {}): Date {
  const text = value.trim();
  const day = DAY.test(text);
  const time = day ? new Date(`${text}T00:00:00.000Z`) : TIME.test(text) ? new Date(text) : undefined;
  if (!time || Number.isNaN(time.getTime()) || (day && time.toISOString().slice(0, 10) !== text))
    throw invalidField(flag, `must be a day (YYYY-MM-DD) or a time (2026-11-26T12:00:00Z), got "${value}"`);
  if (day && endOfDay) time.setUTCDate(time.getUTCDate() + 1);
  return time;
}

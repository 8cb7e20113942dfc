/**
 * Parsers of the bounded values that flags and settings take alike (--concurrency, --timeout,
 * batch-window): whole numbers and durations. Each error names the flag or key and its range.
 */
import { usageError } from './errors.js';

/** A parser for a whole-number flag within [min, max]; the error names the flag and the range. */
export function wholeNumber(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max) {
      throw usageError(`${name}: must be a whole number from ${min} to ${max}, got "${value}"`, {
        field: name,
      });
    }
    return number;
  };
}

/** A parser for a duration flag ("30s", "10m", "1h30m") within [min, max] seconds; it gives milliseconds. */
export function duration(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const parts = value.trim() === '' ? null : /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value.trim());
    if (!parts) {
      const bare = /^\d+$/.test(value.trim());
      throw usageError(
        `${name}: ${bare ? 'needs a unit' : 'must be a duration'} like 30s, 10m or 1h30m, got "${value}"`,
        { field: name },
      );
    }
    const [hours = 0, minutes = 0, seconds = 0] = parts.slice(1).map((part) => Number(part ?? 0));
    const total = hours * 3600 + minutes * 60 + seconds;
    if (total < min || total > max)
      throw usageError(`${name}: must be from ${min}s to ${max / 3600}h, got "${value}"`, { field: name });
    return total * 1000;
  };
}

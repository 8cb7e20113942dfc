/**
 * The sandbox's clock: real time moved by an offset that the control API sets, so tokens can be
 * expired and notifications timed without waiting. The one place in the sandbox that reads real
 * time. Moves that would leave the range of dates are refused, so the clock stays usable.
 */

/** ±100 million days from 1970: the range of a JavaScript Date. */
const MAX_DATE_MS = 8.64e15;

export class SandboxClock {
  #offsetMs = 0;

  constructor(private readonly realTime: () => number = () => Date.now()) {}

  now(): Date {
    return new Date(this.realTime() + this.#offsetMs);
  }

  get offsetSeconds(): number {
    return this.#offsetMs / 1000;
  }

  /** Moves the clock by `seconds`; false (and unchanged) when that leaves the range of dates. */
  advance(seconds: number): boolean {
    return this.#moveTo(this.realTime() + this.#offsetMs + seconds * 1000);
  }

  /** Sets the clock to an ISO time; false (and unchanged) when it is not one. */
  set(iso: string): boolean {
    return this.#moveTo(Date.parse(iso));
  }

  reset(): void {
    this.#offsetMs = 0;
  }

  #moveTo(at: number): boolean {
    if (!Number.isFinite(at) || Math.abs(at) > MAX_DATE_MS) return false;
    this.#offsetMs = at - this.realTime();
    return true;
  }
}

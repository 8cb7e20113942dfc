/**
 * Forced answers: the next request(s) of a route get a chosen §7 error or a fault (latency, hang,
 * reset, malformed JSON, an HTML page, 429 with Retry-After, 503), so clients can rehearse failure.
 */
import { findCatalogEntry } from '../contract/catalog.js';

export const FAULTS = ['latency', 'hang', 'reset', 'malformed', 'html', 'rate-limit', 'unavailable'] as const;
export type FaultKind = (typeof FAULTS)[number];
export const ROUTES = ['token', 'checkout', 'lookup', '*'] as const;
export type RouteName = (typeof ROUTES)[number];

export interface Forced {
  route: RouteName;
  version?: 'v1' | 'v2';
  /** A catalog id ("3006", "1003", "expired", "unauthorized", "999", "token-500"). */
  error?: string;
  fault?: FaultKind;
  /** For latency: how long; for others, ignored. */
  ms?: number;
  /** For rate-limit and unavailable: the Retry-After header in seconds. */
  retryAfter?: number;
  /** How many requests it applies to; default 1. */
  times: number;
}

/** Checks a force request; returns the problem as text, or the entry. */
export function readForced(body: unknown): Forced | string {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const route = input.route ?? '*';
  if (!ROUTES.includes(route as RouteName)) return `route must be one of ${ROUTES.join(', ')}`;
  if (input.version !== undefined && input.version !== 'v1' && input.version !== 'v2')
    return 'version must be v1 or v2';
  if ((input.error === undefined) === (input.fault === undefined))
    return 'give exactly one of error or fault';
  if (input.error !== undefined && !findCatalogEntry(String(input.error)))
    return `unknown error id ${String(input.error)}`;
  if (input.fault !== undefined && !FAULTS.includes(input.fault as FaultKind))
    return `fault must be one of ${FAULTS.join(', ')}`;
  const times = input.times === undefined ? 1 : Number(input.times);
  if (!Number.isInteger(times) || times < 1) return 'times must be a whole number ≥ 1';
  const forced: Forced = { route: route as RouteName, times };
  if (input.version) forced.version = input.version as 'v1' | 'v2';
  if (input.error !== undefined) forced.error = String(input.error);
  if (input.fault !== undefined) forced.fault = input.fault as FaultKind;
  if (input.ms !== undefined) forced.ms = Number(input.ms);
  if (input.retry_after !== undefined) forced.retryAfter = Number(input.retry_after);
  return forced;
}

export class ForcedQueue {
  #queue: Forced[] = [];

  add(forced: Forced): void {
    this.#queue.push(forced);
  }

  /** Takes the first forced answer that applies to this request, counting it down. */
  take(route: string, version: string): Forced | undefined {
    const index = this.#queue.findIndex(
      (f) => (f.route === '*' || f.route === route) && (!f.version || f.version === version),
    );
    const forced = this.#queue[index];
    if (!forced) return undefined;
    forced.times -= 1;
    if (forced.times <= 0) this.#queue.splice(index, 1);
    return forced;
  }

  list(): Forced[] {
    return [...this.#queue];
  }

  clear(): void {
    this.#queue = [];
  }
}

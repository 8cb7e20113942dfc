/**
 * The sandbox's shared state, as the server builds it and its route modules use it. Types only,
 * and no route module imported, so routes and server can depend on it without a cycle.
 */
import type { Credentials } from '../contract/token.js';
import type { SandboxClock } from './clock.js';
import type { ForcedQueue } from './faults.js';
import type { Journal } from './journal.js';
import type { Notifier } from './notifier.js';
import type { OrderBook } from './orders.js';
import type { TokenIssuer } from './tokens.js';

/** The sandbox's shared state, handed to its route modules. */
export interface SandboxCore {
  accounts: Credentials[];
  tokenTtlSeconds: number;
  latencyMs: number;
  failRate: number;
  orders: OrderBook;
  journal: Journal;
  forced: ForcedQueue;
  tokens: TokenIssuer;
  notifier: Notifier;
  /**
   * Where every status notification goes besides an order's own notification_url: the addresses of
   * running `payorder sandbox listen` receivers, by the id each was registered under.
   */
  listeners: Map<string, string>;
  /** Host names besides the loopback ones that listeners may be on (--allow-listener-host). */
  listenerHosts: ReadonlySet<string>;
  /**
   * The address payment links and the OpenAPI document name: --public-url, else the address the
   * sandbox listens on (known once it listens).
   */
  publicUrl: string;
  clock: SandboxClock;
  /** The sandbox's time: the clock's now. */
  now(): Date;
}

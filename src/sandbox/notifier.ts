/**
 * Status notifications: each status change of an order with a notification_url POSTs the order
 * there, retried with exponential backoff. The real service's payload is not specified (spec §6);
 * the sandbox sends the order as its lookup would show it.
 */

export interface NotificationAttempt {
  url: string;
  uuid: string;
  status: string;
  attempt: number;
  /** The receiver's HTTP status, or the network error. */
  outcome: number | string;
  time: string;
}

export interface NotifierOptions {
  attempts: number;
  backoffMs: number;
  /** The sandbox's clock, for the attempts' times. */
  now: () => Date;
}

export class Notifier {
  readonly attempts: NotificationAttempt[] = [];
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly options: NotifierOptions) {}

  notify(url: string, uuid: string, status: string, payload: unknown): void {
    const delivery = this.#deliver(url, uuid, status, JSON.stringify(payload));
    this.#pending.add(delivery);
    void delivery.finally(() => this.#pending.delete(delivery));
  }

  /** Waits for deliveries under way (used when stopping). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  async #deliver(url: string, uuid: string, status: string, body: string): Promise<void> {
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      let outcome: number | string;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'payorder-sandbox' },
          body,
          signal: AbortSignal.timeout(5000),
        });
        outcome = response.status;
        await response.arrayBuffer().catch(() => undefined);
      } catch (error) {
        outcome = (error as Error).message;
      }
      this.attempts.push({ url, uuid, status, attempt, outcome, time: this.options.now().toISOString() });
      if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) return;
      if (attempt < this.options.attempts) {
        await new Promise((resolve) => setTimeout(resolve, this.options.backoffMs * 2 ** (attempt - 1)));
      }
    }
  }
}

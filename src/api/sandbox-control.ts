/**
 * The client of a running sandbox's control API (/_sandbox/, the sandbox's own, not the service's):
 * its orders, settling one (pay, fail, refund), and registering a notification listener. Answers
 * become payorder's order shape or typed errors, as the service client's do.
 */
import { type Order, parseJsonExact, readOrder } from '../contract/schemas.js';
import { API_VERSIONS, type ApiVersion } from '../contract/versions.js';
import { CliError } from '../errors.js';
import { type Answer, type Exchange, type HttpOptions, send } from './http.js';

/**
 * An order as the control API lists it: payorder's shape, the service's body, and what only the
 * sandbox knows (its owner, its description, when it was made).
 */
export interface SandboxOrderView {
  order: Order;
  /** The body the service's lookup would answer, as text (for --raw). */
  raw: string;
  owner: string;
  description: string;
  /** When the sandbox made it, as ISO 8601 (absent from a sandbox older than this payorder). */
  createdAt?: string;
}

export const CONTROL_PATH = '/_sandbox';

const START_HINT =
  'start one with: payorder sandbox (its address is sandbox.v2.checkout-url, or PAYORDER_CHECKOUT_URL for one run)';

export class SandboxControl {
  constructor(
    /** The sandbox's address, e.g. http://127.0.0.1:4010. */
    readonly base: string,
    private readonly http: HttpOptions,
  ) {}

  /** Every order the sandbox holds, oldest first. */
  async orders(): Promise<SandboxOrderView[]> {
    const answer = await this.#call('GET', '/orders');
    const orders = (this.#json(answer) as { orders?: unknown })?.orders;
    if (answer.status !== 200 || !Array.isArray(orders)) throw this.#notASandbox(answer);
    return orders.map((body) => this.#view(body, answer));
  }

  /**
   * Sets an order's status, only if it is `from` now (as the payment page's buttons do). The order
   * is found by its uuid or the last segment of its v1 id.
   */
  async settle(key: string, status: string, from: string): Promise<SandboxOrderView> {
    const answer = await this.#call('POST', `/orders/${encodeURIComponent(key)}/status`, { status, from });
    const body = this.#json(answer) as { error?: unknown; message?: unknown } | undefined;
    if (answer.status === 200) return this.#view(body, answer);
    if (answer.status === 404 && body?.message !== undefined)
      throw new CliError('not_found', `no order ${key} in the sandbox at ${this.base}`, {
        status: 404,
        hint: 'payorder sandbox orders lists the orders it holds',
      });
    if ((answer.status === 409 || answer.status === 400) && typeof body?.error === 'string')
      throw new CliError('rejected', `the sandbox refused: ${body.error}`, { status: answer.status });
    throw this.#notASandbox(answer);
  }

  /** Registers `url` to receive every status notification; returns the registration's id. */
  async addListener(url: string): Promise<string> {
    const answer = await this.#call('POST', '/listeners', { url });
    const id = (this.#json(answer) as { id?: unknown } | undefined)?.id;
    if (answer.status !== 201 || typeof id !== 'string') throw this.#notASandbox(answer);
    return id;
  }

  /** Unregisters a listener; it goes out even once Ctrl-C was pressed, since it is how a listener stops. */
  async removeListener(id: string): Promise<void> {
    await this.#call('DELETE', `/listeners/${encodeURIComponent(id)}`, undefined, {
      ...this.http,
      signal: undefined,
    });
  }

  async #call(method: Exchange['method'], path: string, body?: unknown, http = this.http): Promise<Answer> {
    try {
      return await send(
        {
          method,
          url: `${this.base}${CONTROL_PATH}${path}`,
          body,
          retryRefusals: false,
          createsSomething: false,
          issuesToken: false,
        },
        http,
      );
    } catch (error) {
      if (error instanceof CliError && error.kind === 'network')
        throw new CliError('network', `${error.message}: is a sandbox running there?`, { hint: START_HINT });
      throw error;
    }
  }

  #json(answer: Answer): unknown {
    try {
      // v1 amounts are JSON numbers: read as written, never rounded through a double.
      return parseJsonExact(answer.text);
    } catch {
      return undefined;
    }
  }

  #view(body: unknown, answer: Answer): SandboxOrderView {
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const version = fields.version as ApiVersion;
    const { version: _, owner, description, created_at: createdAt, ...serviceBody } = fields;
    const order = API_VERSIONS.includes(version) ? readOrder(version, serviceBody) : undefined;
    if (!order || typeof owner !== 'string') throw this.#notASandbox(answer);
    return {
      order,
      raw: JSON.stringify(serviceBody),
      owner,
      description: typeof description === 'string' ? description : '',
      createdAt: typeof createdAt === 'string' ? createdAt : undefined,
    };
  }

  #notASandbox(answer: Answer): CliError {
    return new CliError(
      'rejected',
      `${this.base} did not answer as a payorder sandbox does (${answer.status}: ${answer.excerpt})`,
      { status: answer.status, hint: START_HINT },
    );
  }
}

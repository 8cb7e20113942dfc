/** The HttpOptions the tests of the HTTP layer send with: a transport of their choice, 2 refusal retries. */

import { agentTransport } from '../../src/api/agent-transport.js';
import type { HttpOptions } from '../../src/api/http.js';
import { fetchTransport, type Transport } from '../../src/api/transport.js';

/** The transport of a one-shot command (as the context makes it): Node's fetch, agents on a port it refuses. */
export const oneShotTransport = (): Transport => fetchTransport(async () => agentTransport());

export const httpOptions = (transport: Transport, extra: Partial<HttpOptions> = {}): HttpOptions => ({
  timeoutMs: 5_000,
  secrets: [],
  refusalRetries: 2,
  transport,
  ...extra,
});

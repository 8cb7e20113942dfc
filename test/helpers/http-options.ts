/** The HttpOptions the tests of the HTTP layer send with: a transport of their choice, 2 refusal retries. */
import type { HttpOptions } from '../../src/api/http.js';
import type { Transport } from '../../src/api/transport.js';

export const httpOptions = (transport: Transport, extra: Partial<HttpOptions> = {}): HttpOptions => ({
  timeoutMs: 5_000,
  secrets: [],
  refusalRetries: 2,
  transport,
  ...extra,
});

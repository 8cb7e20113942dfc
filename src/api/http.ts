/**
 * The only module that speaks HTTP (through ky). It sends one exchange, traces it with --debug
 * (secrets, tokens and the Authorization header masked), and turns transport failures into typed
 * errors that name the address. Whether a request may be retried is decided by the caller.
 */
import ky, { HTTPError, TimeoutError } from 'ky';
import { maskAuthorization, maskBody, maskText } from '../contract/masking.js';
import { CliError } from '../errors.js';

export interface Exchange {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** May this exchange be retried on 429/503 (the service did not act on it)? */
  retryRefusals: boolean;
  /** Whether a lost answer leaves the outcome unknown (an order creation) or is plain unreachable. */
  createsSomething: boolean;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export interface HttpOptions {
  timeoutMs: number;
  /** Where --debug traces go; undefined when tracing is off. */
  trace?: (line: string) => void;
  /** Values to mask in traces on top of the known secret fields. */
  secrets: string[];
  signal?: AbortSignal;
  /** How many times a 429/503 answer may be retried, honoring Retry-After. */
  refusalRetries: number;
}

const REFUSALS = [429, 503];

export async function send(exchange: Exchange, options: HttpOptions): Promise<Answer> {
  const { trace } = options;
  const headers: Record<string, string> = { accept: 'application/json', ...exchange.headers };
  if (exchange.body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  if (trace) {
    trace(`→ ${exchange.method} ${exchange.url}`);
    for (const [name, value] of Object.entries(headers)) {
      trace(`→ ${name}: ${name === 'authorization' ? maskAuthorization(value) : value}`);
    }
    if (exchange.body !== undefined)
      trace(`→ ${maskText(JSON.stringify(maskBody(exchange.body)), options.secrets)}`);
  }
  try {
    const response = await ky(exchange.url, {
      method: exchange.method,
      headers,
      body: exchange.body === undefined ? undefined : JSON.stringify(exchange.body),
      timeout: options.timeoutMs,
      throwHttpErrors: (status) => REFUSALS.includes(status),
      signal: options.signal,
      retry: {
        limit: exchange.retryRefusals ? options.refusalRetries : 0,
        methods: ['get', 'post'],
        statusCodes: REFUSALS,
        afterStatusCodes: REFUSALS,
        maxRetryAfter: 30_000,
        backoffLimit: 5_000,
        retryOnTimeout: false,
        // Only answers that say the service did not act are retried; never a lost or failed exchange.
        shouldRetry: ({ error }) => error instanceof HTTPError && REFUSALS.includes(error.response.status),
      },
      hooks: trace
        ? {
            beforeRetry: [
              ({ retryCount }) =>
                trace(`↻ retry ${retryCount} of ${exchange.method} ${exchange.url} after a refusal`),
            ],
          }
        : {},
    });
    return await readAnswer(response, started, options);
  } catch (error) {
    if (error instanceof HTTPError) return await readAnswer(error.response, started, options);
    throw transportError(error, exchange, options);
  }
}

async function readAnswer(response: Response, started: number, options: HttpOptions): Promise<Answer> {
  const text = await response.text();
  if (options.trace) {
    options.trace(
      `← ${response.status} ${response.statusText} (${Math.round(performance.now() - started)} ms)`,
    );
    if (text) options.trace(`← ${maskText(maskJsonText(text), options.secrets)}`);
  }
  return { status: response.status, headers: response.headers, text };
}

function maskJsonText(text: string): string {
  try {
    return JSON.stringify(maskBody(JSON.parse(text)));
  } catch {
    return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  }
}

function transportError(error: unknown, exchange: Exchange, options: HttpOptions): CliError {
  if (options.signal?.aborted) return new CliError('interrupted', 'interrupted');
  const address = new URL(exchange.url).origin;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail =
    error instanceof TimeoutError
      ? `no answer within ${options.timeoutMs / 1000} s`
      : (cause?.code ?? cause?.message ?? (error as Error).message);
  if (exchange.createsSomething && !(cause?.code === 'ECONNREFUSED' || cause?.code === 'ENOTFOUND')) {
    return new CliError(
      'outcome_unknown',
      `outcome unknown: the request reached ${address} but no answer came back (${detail})`,
      {
        hint: 'the order may or may not exist: look it up (payorder order get) or check the merchant panel before trying again',
      },
    );
  }
  return new CliError('network', `cannot reach ${address} (${detail})`, {
    hint: 'check the address (payorder config list) and your network; nothing was changed',
  });
}

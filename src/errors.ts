/**
 * payorder's typed errors. Each carries its exit code and one human line; the entry point is the
 * only place that prints them and exits. The exit codes are documented in `payorder --help` and the README.
 */

export const EXIT = {
  ok: 0,
  /** The service rejected or failed the operation. */
  rejected: 1,
  /** Bad usage or invalid input; nothing was sent. */
  usage: 2,
  /** Authentication missing or refused. */
  auth: 4,
  /** The service could not be reached, the outcome is unknown, or a local file could not be written. */
  network: 5,
  /** --wait: the order left PENDING unpaid (FAILED, or a status other than PAID and REFUNDED). */
  paymentFailed: 6,
  /** --wait: the order left PENDING as REFUNDED. */
  refunded: 7,
  /** --wait: the order was still PENDING when --timeout ran out. */
  waitTimedOut: 8,
  /** The terminal went away (SIGHUP: a closed terminal, a dropped SSH session): 128 + 1, as a shell reports it. */
  hungUp: 129,
  interrupted: 130,
  /** stdout was closed (e.g. `| head`) before a batch was done: it stopped sending. */
  closedPipe: 141,
} as const;

export type ErrorKind =
  | 'usage'
  | 'auth'
  | 'rejected'
  | 'not_found'
  | 'network'
  | 'outcome_unknown'
  | 'interrupted'
  /** Interrupted by SIGHUP: work in flight was finished and recorded, as on SIGTERM. */
  | 'hung_up'
  | 'config'
  /** A local file (journal, store) could not be written: disk full, I/O error. */
  | 'io'
  /** stdout was closed before the work was done. */
  | 'closed_pipe'
  /** --wait: how the order left PENDING when it was not paid, or that it did not in time. */
  | 'payment_failed'
  | 'refunded'
  | 'wait_timed_out';

const EXIT_OF: Record<ErrorKind, number> = {
  usage: EXIT.usage,
  config: EXIT.usage,
  auth: EXIT.auth,
  rejected: EXIT.rejected,
  not_found: EXIT.rejected,
  network: EXIT.network,
  outcome_unknown: EXIT.network,
  io: EXIT.network,
  interrupted: EXIT.interrupted,
  hung_up: EXIT.hungUp,
  closed_pipe: EXIT.closedPipe,
  payment_failed: EXIT.paymentFailed,
  refunded: EXIT.refunded,
  wait_timed_out: EXIT.waitTimedOut,
};

export interface ErrorDetails {
  /** The service's error code or the catalog id, when the service answered with one. */
  code?: string;
  status?: number;
  /** A second line: what to do about it. */
  hint?: string;
  field?: string;
  /** The command already told the user (e.g. a report); the entry point only sets the exit code. */
  reported?: boolean;
}

export class CliError extends Error {
  readonly kind: ErrorKind;
  readonly details: ErrorDetails;

  constructor(kind: ErrorKind, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'CliError';
    this.kind = kind;
    this.details = details;
  }

  get exitCode(): number {
    return EXIT_OF[this.kind];
  }

  /** The documented JSON shape of an error on stderr with --json. */
  toJSON() {
    return {
      error: {
        kind: this.kind,
        message: this.message,
        exit_code: this.exitCode,
        code: this.details.code ?? null,
        status: this.details.status ?? null,
        field: this.details.field ?? null,
        hint: this.details.hint ?? null,
      },
    };
  }
}

export const usageError = (message: string, details?: ErrorDetails) =>
  new CliError('usage', message, details);

/** A field of the user's input broke a rule: "--amount: at most 2 decimals". */
export const invalidField = (field: string, rule: string) =>
  new CliError('usage', `${field}: ${rule}`, { field });

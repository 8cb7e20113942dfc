/**
 * What a batch of `order create --input` says when it ends: its counts, the journal it wrote, why it
 * stopped early if it did, and the one summary line and error that follow from them.
 */
import { CliError } from '../errors.js';
import { shellWord } from '../store/private-path.js';
import type { LineOutcome } from './batch-record.js';

/** The journal a batch wrote, for its summary. */
export type JournalUsed =
  | { kind: 'file'; path: string }
  | { kind: 'automatic'; path: string; window: string };

export interface BatchSummary {
  lines: number;
  seconds: number;
  counts: Record<LineOutcome, number>;
  journal: JournalUsed;
  /** Requests sent whose answer has not come yet. */
  inFlight: number;
  /** Why the batch stopped taking lines early: Ctrl-C and friends, or an error that stops it. */
  stopped?: { by: 'signal' | 'closed-pipe' } | { by: 'error'; error: CliError };
}

/** How to resume with the same journal: "rerun with --journal FILE", or for an automatic one the same command. */
export const rerun = (journal: JournalUsed) =>
  journal.kind === 'file' ? `rerun with --journal ${shellWord(journal.path)}` : 'rerun the same command';

/** The summary line of a batch, and its error when any line failed, is unknown, or it stopped early. */
export function batchOutcome(summary: BatchSummary): { line: string; error?: CliError } {
  const { counts, journal, stopped } = summary;
  const earlier =
    journal.kind === 'automatic' && counts.skipped > 0
      ? `; the ${counts.skipped} already created were created by an earlier batch of the same lines within ${journal.window} (--again creates them anew)`
      : '';
  const line = `${summary.lines} lines in ${summary.seconds.toFixed(1)} s: ${counts.created} created, ${counts.skipped} already created, ${counts.failed} failed, ${counts.unknown} outcome unknown${earlier}`;
  const resume = `; ${rerun(journal)} to resume`;
  if (stopped?.by === 'signal')
    return { line, error: new CliError('interrupted', `interrupted after ${line}${resume}`) };
  if (stopped?.by === 'closed-pipe')
    return {
      line,
      error: new CliError('closed_pipe', `stdout was closed: stopped sending after ${line}${resume}`, {
        hint: 'read the results to the end (or give -o to a file); the journal says what was done',
      }),
    };
  if (stopped?.by === 'error') {
    const { error } = stopped;
    return {
      line,
      error: new CliError(error.kind, `stopped: ${error.message}; ${line}${resume}`, {
        ...error.details,
        hint:
          error.kind === 'network'
            ? `nothing more was sent; the lines not sent are resumable: ${rerun(journal)}`
            : error.details.hint,
      }),
    };
  }
  if (counts.unknown > 0)
    return {
      line,
      error: new CliError('outcome_unknown', line, {
        hint: 'orders with an unknown outcome were not retried: check them before rerunning with --retry-unknown',
      }),
    };
  if (counts.failed > 0)
    return {
      line,
      error: new CliError('rejected', line, {
        hint: `fix the failed lines and ${rerun(journal)}: created lines are skipped`,
      }),
    };
  return { line };
}

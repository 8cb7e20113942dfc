/**
 * `order create --input`: creates one order per input line, streaming, with bounded concurrency,
 * results in input order, an optional journal to resume from, and never a blind retry of a line
 * whose outcome is unknown.
 */

import type { Context } from '../context.js';
import { type OrderDraft, orderRequestBody } from '../contract/schemas.js';
import { CliError } from '../errors.js';
import { note, warn } from '../output/messages.js';
import type { BatchRecord, LineOutcome, OrderWriter } from '../output/order-writer.js';
import type { Session } from '../session/session.js';
import { type InputLine, openInput, readBatch } from './batch-input.js';
import { BatchJournal, draftKey } from './batch-journal.js';
import { columnName, draftFrom } from './draft.js';
import { orderedPool } from './ordered-pool.js';

export interface BatchOptions {
  input: string;
  concurrency: number;
  journal?: string;
  retryUnknown?: boolean;
}

const lineError = (error: unknown) =>
  (error instanceof CliError ? error : new CliError('rejected', (error as Error).message)).toJSON().error;

export async function createBatch(
  ctx: Context,
  session: Session,
  options: BatchOptions,
  writer: OrderWriter,
): Promise<void> {
  const { target } = session;
  const journal = options.journal ? new BatchJournal(options.journal) : undefined;
  const counts: Record<LineOutcome, number> = { created: 0, skipped: 0, failed: 0, unknown: 0 };
  let warnedNotification = false;
  const started = performance.now();
  // A terminal that reports no width (a bare pseudo-terminal) would make the spinner loop forever.
  const width = (ctx.io.stderr as NodeJS.WriteStream).columns ?? 0;
  const progress =
    ctx.io.stderrIsTTY && width > 0 && !ctx.flags.quiet
      ? (await import('ora'))
          .default({ stream: ctx.io.stderr as NodeJS.WriteStream, discardStdin: false })
          .start('starting…')
      : undefined;
  const targetKey = `${target.env}/${target.version}`;

  const handle = async ({
    line,
    fields,
    problem,
  }: InputLine): Promise<{ record: BatchRecord; raw?: string }> => {
    const failed = (error: unknown): { record: BatchRecord } => ({
      record: { line, outcome: 'failed', order: null, error: lineError(error) },
    });
    if (problem) return failed(new CliError('usage', `line ${line}: ${problem}`));
    let draft: OrderDraft;
    try {
      draft = draftFrom(fields!, target.version, columnName);
    } catch (error) {
      return failed(
        new CliError('usage', `line ${line}: ${(error as Error).message}`, {
          field: (error as CliError).details?.field,
        }),
      );
    }
    if (draft.notificationUrl && target.version === 'v2' && !warnedNotification) {
      warnedNotification = true;
      warn(
        ctx,
        'the spec does not show whether v2 accepts notification_url; payorder sends it and the service may ignore it',
      );
    }
    const key = journal?.keyFor(draftKey(targetKey, draft));
    const before = key ? journal!.previous.get(key) : undefined;
    if (before?.event === 'created' && before.order)
      return { record: { line, outcome: 'skipped', order: before.order, error: null } };
    if ((before?.event === 'sending' || before?.event === 'unknown') && !options.retryUnknown) {
      const error = new CliError(
        'outcome_unknown',
        `line ${line}: outcome unknown from an earlier run (it was sent, no answer was recorded)`,
        {
          hint: 'check the merchant panel; rerun with --retry-unknown only if the order does not exist',
        },
      );
      return { record: { line, outcome: 'unknown', order: null, error: error.toJSON().error } };
    }
    const at = () => ctx.clock().toISOString();
    journal?.write({ key: key!, line, event: 'sending', at: at() });
    try {
      const body = orderRequestBody(target.version, draft, session.credentials.username);
      const { order, raw } = await session.authorized((token) => session.client.createOrder(token, body));
      journal?.write({ key: key!, line, event: 'created', at: at(), order });
      return { record: { line, outcome: 'created', order, error: null }, raw };
    } catch (error) {
      const unknown = error instanceof CliError && error.kind === 'outcome_unknown';
      journal?.write({
        key: key!,
        line,
        event: unknown ? 'unknown' : 'failed',
        at: at(),
        error: (error as Error).message,
      });
      const record = lineError(
        new CliError(
          unknown ? 'outcome_unknown' : ((error as CliError).kind ?? 'rejected'),
          `line ${line}: ${(error as Error).message}`,
          (error as CliError).details,
        ),
      );
      return { record: { line, outcome: unknown ? 'unknown' : 'failed', order: null, error: record } };
    }
  };

  let done = 0;
  try {
    const lines = readBatch(
      openInput(options.input, ctx.io.stdin),
      options.input === '-' ? 'stdin' : options.input,
    );
    for await (const { record, raw } of orderedPool(lines, handle, {
      concurrency: options.concurrency,
      stopped: () => ctx.signal.aborted,
    })) {
      counts[record.outcome]++;
      done++;
      writer.record(record, raw);
      if (progress) {
        const rate = done / ((performance.now() - started) / 1000);
        progress.text = `${done} lines: ${counts.created} created, ${counts.skipped} skipped, ${counts.failed} failed, ${counts.unknown} unknown (${rate.toFixed(1)}/s)`;
      }
      if (!progress && record.error && !ctx.flags.json && writer.format !== 'table')
        note(ctx, `${record.error.message}`);
    }
  } finally {
    progress?.stop();
    journal?.close();
    await writer.end();
  }
  const seconds = (performance.now() - started) / 1000;
  const summary = `${done} lines in ${seconds.toFixed(1)} s: ${counts.created} created, ${counts.skipped} already created, ${counts.failed} failed, ${counts.unknown} outcome unknown`;
  if (ctx.signal.aborted)
    throw new CliError(
      'interrupted',
      `interrupted after ${summary}${journal ? `; rerun with --journal ${journal.path} to resume` : ''}`,
    );
  if (counts.unknown > 0)
    throw new CliError('outcome_unknown', summary, {
      hint: 'orders with an unknown outcome were not retried: check them before rerunning with --retry-unknown',
    });
  if (counts.failed > 0)
    throw new CliError('rejected', summary, {
      hint: journal
        ? `fix the failed lines and rerun with --journal ${journal.path}: created lines are skipped`
        : 'fix the failed lines; add --journal FILE to make reruns skip created lines',
    });
  note(ctx, summary);
}

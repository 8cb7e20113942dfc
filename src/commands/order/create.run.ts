/**
 * `payorder order create`, the work: parse the flags into options (every check before any request),
 * run (one order, a dry run, or a batch), and render through the shared order writer.
 */

import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { WireRequest } from '../../api/http.js';
import type { Target } from '../../api/service.js';
import { type OutputFlags, parseConcurrency, parseOutputOptions } from '../../cli/options.js';
import { type Context, withConnections } from '../../context.js';
import { type Order, type OrderDraft, orderRequestBody } from '../../contract/schemas.js';
import { CliError, usageError } from '../../errors.js';
import { type BatchRun, batchOutcome, startBatch } from '../../orders/batch.js';
import { draftFrom, flagName, NOTIFICATION_V2_WARNING, type OrderFields } from '../../orders/draft.js';
import type { OutputFormat, OutputOptions } from '../../output/formats.js';
import { note, warn } from '../../output/messages.js';
import { createOrderWriter } from '../../output/order-writer.js';
import { createProgress } from '../../output/progress.js';
import { chooseFormat, render, renderError } from '../../output/render.js';
import { findCredentials, requireCredentials } from '../../session/credentials.js';
import { openSession } from '../../session/session.js';
import { resolveTarget, type TargetFlags } from '../../session/target.js';

export interface OrderCreateFlags extends TargetFlags, OutputFlags {
  amount?: string;
  description?: string;
  success?: string;
  fail?: string;
  notificationUrl?: string;
  externalReference?: string;
  /** A file to read, or false for --no-input (which shares the name: never prompt). */
  input?: string | false;
  concurrency: string;
  journal?: string;
  retryUnknown?: boolean;
  dryRun?: boolean;
}

export interface BatchSource {
  input: string;
  concurrency: number;
  journal?: string;
  retryUnknown: boolean;
}

export interface OrderCreateOptions {
  target: Target;
  output: OutputOptions;
  /** The stored default-output. */
  storedOutput?: OutputFormat;
  /** One order from flags, checked; absent for a batch. */
  draft?: OrderDraft;
  batch?: BatchSource;
  dryRun: boolean;
}

export type OrderCreateResult =
  | { kind: 'order'; order: Order; raw: string }
  | { kind: 'dry-run'; request: WireRequest }
  | { kind: 'batch'; run: BatchRun };

/** The journal is written as the batch goes: its folder must exist before the first line is sent. */
function checkJournalFolder(journal: string): void {
  const folder = dirname(resolve(journal));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw usageError(`--journal: the folder ${folder} does not exist`, { field: '--journal' });
  if (existsSync(journal) && statSync(journal).isDirectory())
    throw usageError(
      `--journal: ${journal} is a folder; give a file in it, e.g. ${join(journal, 'orders.journal')}`,
      {
        field: '--journal',
      },
    );
}

export async function parseOrderCreateOptions(
  flags: OrderCreateFlags,
  ctx: Context,
): Promise<OrderCreateOptions> {
  const fields: OrderFields = {
    amount: flags.amount,
    description: flags.description,
    success: flags.success,
    fail: flags.fail,
    notification_url: flags.notificationUrl,
    external_reference: flags.externalReference,
  };
  const input = typeof flags.input === 'string' ? flags.input : undefined;
  const given = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (input !== undefined && given.length > 0) {
    throw usageError(
      `--input takes every field from the file; drop ${given.map(([k]) => flagName(k as keyof OrderFields)).join(', ')}`,
    );
  }
  const concurrency = parseConcurrency(flags.concurrency);
  if (input === undefined && (flags.journal || flags.retryUnknown))
    throw usageError('--journal and --retry-unknown go with --input');
  if (flags.journal !== undefined) checkJournalFolder(flags.journal);
  if (input !== undefined && flags.dryRun)
    throw usageError('--dry-run shows a single request; it does not go with --input');
  const output = parseOutputOptions(flags);
  if (flags.dryRun && (output.field !== undefined || output.raw || output.format === 'tsv'))
    throw usageError('--dry-run shows the request; --field, --raw and -o tsv apply to orders', {
      field: '--dry-run',
    });
  const data = (await ctx.store()).read();
  const target = resolveTarget(ctx, flags, data);
  const options: OrderCreateOptions = {
    target,
    output,
    storedOutput: data.defaults?.output,
    dryRun: Boolean(flags.dryRun),
  };
  if (input !== undefined) {
    options.batch = { input, concurrency, journal: flags.journal, retryUnknown: Boolean(flags.retryUnknown) };
    return options;
  }
  options.draft = draftFrom(fields, target.version, flagName);
  if (!options.dryRun) requireCredentials(ctx, data, target.env);
  return options;
}

export async function runOrderCreate(options: OrderCreateOptions, ctx: Context): Promise<OrderCreateResult> {
  const { target } = options;
  if (options.batch) {
    const session = await openSession(withConnections(ctx, options.batch.concurrency), target, {
      interruptible: false,
    });
    return { kind: 'batch', run: startBatch(ctx, session, options.batch) };
  }
  const draft = options.draft!;
  if (draft.notificationUrl && target.version === 'v2') warn(ctx, NOTIFICATION_V2_WARNING);
  if (options.dryRun) {
    const data = (await ctx.store()).read();
    const username =
      findCredentials(ctx, data, target.env)?.credentials.username ?? '<username of the login>';
    const client = await ctx.client(target);
    return {
      kind: 'dry-run',
      request: client.dryRunCreateOrder(orderRequestBody(target.version, draft, username)),
    };
  }
  const session = await openSession(ctx, target);
  const body = orderRequestBody(target.version, draft, session.credentials.username);
  const { order, raw } = await session.authorized((token) => session.client.createOrder(token, body));
  return { kind: 'order', order, raw };
}

export async function renderOrderCreate(
  result: OrderCreateResult,
  options: OrderCreateOptions,
  ctx: Context,
): Promise<void> {
  const { output, storedOutput } = options;
  if (result.kind === 'dry-run') {
    const { request } = result;
    render(ctx, chooseFormat(ctx, { asked: output.format }), {
      json: request,
      human: () =>
        [
          `${request.method} ${request.url}`,
          ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`),
          '',
          JSON.stringify(request.body, null, 2),
        ].join('\n'),
    });
    return;
  }
  if (result.kind === 'order') {
    const format = chooseFormat(ctx, { asked: output.format, stored: storedOutput });
    const writer = createOrderWriter(ctx, output, format, { single: true, batch: false });
    writer.order(result.order, result.raw);
    await writer.end();
    return;
  }
  // A batch streams: NDJSON is the piped default so results can be read as they come.
  const format = chooseFormat(ctx, { asked: output.format, stored: storedOutput, whenPiped: 'ndjson' });
  const writer = createOrderWriter(ctx, output, format, { single: false, batch: true });
  const progress = await createProgress(ctx);
  const { run } = result;
  const onStop = () => {
    if (ctx.signal.reason === 'EPIPE') return;
    progress?.stop();
    const { inFlight } = run.summary();
    note(
      ctx,
      `stopping: no new line is sent; finishing ${inFlight} request${inFlight === 1 ? '' : 's'} in flight (Ctrl-C again to abort at once)`,
    );
  };
  // On a second Ctrl-C payorder ends at once: say what was done and what is left unknown.
  const onForced = () => {
    const summary = run.summary();
    const { line } = batchOutcome(summary);
    renderError(
      ctx,
      new CliError(
        'interrupted',
        `aborted after ${line}; ${summary.inFlight} request${summary.inFlight === 1 ? '' : 's'} in flight: their outcome is unknown`,
        {
          hint: summary.journal
            ? `rerun with --journal ${summary.journal}: lines in flight are reported unknown, never sent again`
            : 'look the orders up before sending those lines again',
        },
      ),
    );
  };
  ctx.signal.addEventListener('abort', onStop, { once: true });
  ctx.forced.addEventListener('abort', onForced, { once: true });
  try {
    for await (const { record, raw } of run.records) {
      writer.record(record, raw);
      if (progress && !ctx.signal.aborted) {
        progress.update(() => {
          const { lines, counts, seconds } = run.summary();
          return `${lines} lines: ${counts.created} created, ${counts.skipped} skipped, ${counts.failed} failed, ${counts.unknown} unknown (${(lines / seconds).toFixed(1)}/s)`;
        });
      }
      // Per-line errors go to stderr as they happen unless the table or the progress shows them.
      if (!progress && record.error && !ctx.flags.json && format !== 'table') note(ctx, record.error.message);
      // A slow reader holds the batch back: no further line is sent until stdout takes this one.
      await writer.ready();
    }
  } finally {
    ctx.signal.removeEventListener('abort', onStop);
    ctx.forced.removeEventListener('abort', onForced);
    progress?.stop();
    await writer.end();
  }
  const { line, error } = batchOutcome(run.summary());
  if (error) throw error;
  note(ctx, line);
}

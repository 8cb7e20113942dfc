/**
 * `payorder order create`, the work: parse the flags into options (every check before any request),
 * run (one order, a dry run, or a batch), and render through the shared order writer.
 */

import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { WireRequest } from '../../api/http.js';
import type { Target } from '../../api/service.js';
import {
  type OutputFlags,
  parseConcurrency,
  parseOutputOptions,
  parseWaitOptions,
  type WaitFlags,
} from '../../cli/options.js';
import { type Context, withConnections } from '../../context.js';
import { type Order, type OrderDraft, orderRequestBody } from '../../contract/schemas.js';
import { CliError, usageError } from '../../errors.js';
import { type LedgerChoice, type LedgerFlags, ledgerChoice } from '../../ledger/choice.js';
import { type BatchOptions, type BatchRun, type JournalChoice, startBatch } from '../../orders/batch.js';
import { batchOutcome, rerun } from '../../orders/batch-outcome.js';
import {
  checkGivenFields,
  draftFrom,
  flagName,
  missingFields,
  NOTIFICATION_V2_WARNING,
  type OrderFields,
  type RequiredField,
} from '../../orders/draft.js';
import type { Waited, WaitPlan } from '../../orders/wait.js';
import type { OutputFormat, OutputOptions } from '../../output/formats.js';
import { note, warn } from '../../output/messages.js';
import { createOrderWriter } from '../../output/order-writer.js';
import { type LinkRequests, showPaymentLink } from '../../output/payment-link.js';
import { createProgress, whileWaiting } from '../../output/progress.js';
import { chooseFormat, render, renderError } from '../../output/render.js';
import { batchWindow } from '../../session/config-keys.js';
import { findCredentials, requireCredentials } from '../../session/credentials.js';
import { openSession } from '../../session/session.js';
import { resolveTarget, type TargetFlags } from '../../session/target.js';

export interface OrderCreateFlags extends TargetFlags, OutputFlags, WaitFlags, LedgerFlags {
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
  again?: boolean;
  dryRun?: boolean;
  web?: boolean;
  qr?: boolean;
}

export interface OrderCreateOptions {
  target: Target;
  output: OutputOptions;
  /** The stored default-output. */
  storedOutput?: OutputFormat;
  /** One order from flags, checked; absent for a batch. */
  draft?: OrderDraft;
  batch?: BatchOptions;
  dryRun: boolean;
  /** Show the request and ask before sending it: an order asked for on a terminal, for production. */
  confirm: boolean;
  /** --web and --qr: where the payment link goes once the order exists. */
  link: LinkRequests;
  /** --wait: once created, wait until the order leaves PENDING, for at most this long. */
  wait?: WaitPlan;
  /** Whether the order ledger records the orders, and refuses a reference in use. */
  ledger: LedgerChoice;
}

export type OrderCreateResult =
  | { kind: 'order'; order: Order; raw: string; waited?: Waited; waitFailure?: unknown }
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

/** Every required flag that is missing, in one message: a script learns them all in one run. */
function missingFlags(missing: RequiredField[]): CliError {
  return usageError(
    `missing ${missing.map(flagName).join(', ')} (no prompts without a terminal or with --no-input)`,
    {
      field: flagName(missing[0]!),
      hint: 'payorder order create --amount 12.50 --description "Invoice 42" --success https://shop.example/ok --fail https://shop.example/ko',
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
  if (input === undefined && (flags.journal || flags.retryUnknown || flags.again))
    throw usageError('--journal, --retry-unknown and --again go with --input');
  if (flags.journal !== undefined) checkJournalFolder(flags.journal);
  if (flags.journal !== undefined && flags.again)
    throw usageError(
      '--again goes with the journal payorder keeps itself; with --journal, give a new journal file to create every line anew',
      { field: '--again' },
    );
  if (input !== undefined && flags.dryRun)
    throw usageError('--dry-run shows a single request; it does not go with --input');
  const link = { web: Boolean(flags.web), qr: Boolean(flags.qr) };
  if ((link.web || link.qr) && (input !== undefined || flags.dryRun))
    throw usageError(
      `${link.web ? '--web' : '--qr'} shows the payment link of the order created; it does not go with ${input !== undefined ? '--input' : '--dry-run'}`,
      { field: link.web ? '--web' : '--qr' },
    );
  const wait = parseWaitOptions(flags);
  if (wait && (input !== undefined || flags.dryRun))
    throw usageError(
      `--wait follows the one order created; it does not go with ${input !== undefined ? '--input' : '--dry-run'}`,
      {
        field: '--wait',
      },
    );
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
    confirm: false,
    link,
    wait,
    ledger: ledgerChoice(flags, data),
  };
  if (input !== undefined) {
    const journal: JournalChoice =
      flags.journal !== undefined
        ? { kind: 'file', path: flags.journal }
        : { kind: 'automatic', ...batchWindow(data), again: Boolean(flags.again) };
    options.batch = { input, concurrency, journal, retryUnknown: Boolean(flags.retryUnknown) };
    return options;
  }
  const missing = missingFields(fields);
  if (missing.length > 0) {
    if (!ctx.flags.interactive) throw missingFlags(missing);
    // What is wrong, or no login, is said before a person fills anything in.
    checkGivenFields(fields, target.version, flagName);
    if (!options.dryRun) requireCredentials(ctx, data, target);
    const { askOrderFields } = await import('./create.form.js');
    Object.assign(fields, await askOrderFields(ctx, missing));
    options.confirm = target.env === 'production' && !options.dryRun;
  }
  options.draft = draftFrom(fields, target.version, flagName);
  if (!options.dryRun) requireCredentials(ctx, data, target);
  return options;
}

/** The request as it would be sent, the token masked: what --dry-run prints and production confirms. */
async function previewRequest(target: Target, draft: OrderDraft, ctx: Context): Promise<WireRequest> {
  const data = (await ctx.store()).read();
  const username = findCredentials(ctx, data, target)?.credentials.username ?? '<username of the login>';
  const client = await ctx.client(target);
  return client.dryRunCreateOrder(orderRequestBody(target.version, draft, username));
}

/** A request as a person reads it: the request line, the headers, a blank line and the body. */
function requestText(request: WireRequest): string {
  return [
    `${request.method} ${request.url}`,
    ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`),
    '',
    JSON.stringify(request.body, null, 2),
  ].join('\n');
}

/** --qr and --web for the order created: the QR code on stdout when stdout shows a table, else on stderr. */
function showLink(
  order: Order,
  { output, storedOutput, link }: OrderCreateOptions,
  ctx: Context,
): Promise<void> {
  const format = chooseFormat(ctx, { asked: output.format, stored: storedOutput });
  const stdoutIsData = format !== 'table' || output.field !== undefined || output.raw;
  return showPaymentLink(ctx, order.links.checkout, link, { stdoutIsData });
}

export async function runOrderCreate(options: OrderCreateOptions, ctx: Context): Promise<OrderCreateResult> {
  const { target } = options;
  if (options.batch) {
    const session = await openSession(withConnections(ctx, options.batch.concurrency), target, {
      interruptible: false,
    });
    const { creationLedger } = await import('../../ledger/recording.js');
    const ledger = await creationLedger(ctx, target, options.ledger);
    return { kind: 'batch', run: startBatch(ctx, session, { ...options.batch, ledger }) };
  }
  const draft = options.draft!;
  if (draft.notificationUrl && target.version === 'v2') warn(ctx, NOTIFICATION_V2_WARNING);
  if (options.dryRun) return { kind: 'dry-run', request: await previewRequest(target, draft, ctx) };
  if (options.confirm) {
    const { confirmSending } = await import('./create.form.js');
    await confirmSending(ctx, requestText(await previewRequest(target, draft, ctx)));
  }
  const { creationLedger, outcomeOf } = await import('../../ledger/recording.js');
  const ledger = await creationLedger(ctx, target, options.ledger);
  const created = await whileWaiting(ctx, 'creating the order…', async () => {
    const recording = ledger?.sending(draft, 'create', '--external-reference');
    try {
      const session = await openSession(ctx, target);
      const body = orderRequestBody(target.version, draft, session.credentials.username);
      const { order, raw } = await session.authorized((token) => session.client.createOrder(token, body));
      recording?.created(order);
      return { kind: 'order' as const, order, raw };
    } catch (error) {
      recording?.failed(outcomeOf(error), error);
      throw error;
    }
  }).finally(() => ledger?.close());
  if (!options.wait) return created;
  // From here on the order exists: whatever ends the wait (Ctrl-C, an answer the lookup cannot
  // use), the order is still printed, and only then the failure is raised (renderOrderCreate).
  try {
    // The payer needs the link (its QR code, the browser) while payorder waits: shown before waiting.
    await showLink(created.order, options, ctx);
    const session = await openSession(ctx, target);
    // Waiting (its spinner and timing) is loaded only for --wait.
    const { orderLookup, waitForPayment } = await import('../../orders/wait.js');
    const lookup = orderLookup(session, created.order.uuid);
    const waited = await waitForPayment(ctx, lookup, { ...options.wait, showLink: true }, created);
    if (options.ledger.keep) await noteSeen(ctx, target, waited.order);
    return { kind: 'order', order: waited.order, raw: waited.raw, waited };
  } catch (error) {
    return { ...created, waitFailure: error };
  }
}

/** The status --wait saw last, for the ledger. */
async function noteSeen(ctx: Context, target: Target, order: Order): Promise<void> {
  const seen = (await import('../../ledger/seen.js')).seenStatuses(ctx);
  await seen.note(target, order);
  seen.close();
}

/** A failure after the order was created, saying so: a script must not create it again. */
function afterCreation(error: unknown, uuid: string): unknown {
  if (!(error instanceof CliError)) return error;
  const created = `order ${uuid} was created: do not create it again; look it up with payorder order get ${uuid}`;
  return new CliError(error.kind, error.message, {
    ...error.details,
    hint: error.details.hint ? `${created}. ${error.details.hint}` : created,
  });
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
      human: () => requestText(request),
    });
    return;
  }
  if (result.kind === 'order') {
    const format = chooseFormat(ctx, { asked: output.format, stored: storedOutput });
    const writer = await createOrderWriter(ctx, output, format, { single: true, batch: false });
    writer.order(result.order, result.raw);
    await writer.end();
    if (result.waitFailure !== undefined) throw afterCreation(result.waitFailure, result.order.uuid);
    if (!result.waited) await showLink(result.order, options, ctx);
    const unpaid =
      result.waited && (await import('../../orders/wait.js')).waitError(result.waited, options.wait!);
    if (unpaid) throw unpaid;
    return;
  }
  await renderBatch(result.run, options, ctx);
}

/** A batch's records as they come, its progress on a terminal, what Ctrl-C leaves, and its summary. */
async function renderBatch(run: BatchRun, options: OrderCreateOptions, ctx: Context): Promise<void> {
  const { output, storedOutput } = options;
  // A batch streams: NDJSON is the piped default so results can be read as they come.
  const format = chooseFormat(ctx, { asked: output.format, stored: storedOutput, whenPiped: 'ndjson' });
  const writer = await createOrderWriter(ctx, output, format, { single: false, batch: true });
  const progress = await createProgress(ctx);
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
          hint: `${rerun(summary.journal)}: lines in flight are reported unknown, never sent again`,
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

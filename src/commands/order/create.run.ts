/**
 * `payorder order create`, the work: parse the flags into a request (pure), resolve it with the
 * store and, for fields left out, a person's answers (every check before any request), run (one
 * order, a dry run, or a batch), and render through the shared order writer.
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
import { commandLine } from '../../command-line.js';
import { type Context, withConnections } from '../../context.js';
import { type Order, type OrderDraft, orderRequestBody } from '../../contract/schemas.js';
import { CliError, usageError } from '../../errors.js';
import { type LedgerChoice, type LedgerFlags, ledgerChoice } from '../../ledger/choice.js';
import { type BatchOptions, type BatchRun, type JournalChoice, startBatch } from '../../orders/batch.js';
import { batchOutcome, rerun } from '../../orders/batch-outcome.js';
import type { PreviewLine } from '../../orders/batch-preview.js';
import {
  checkField,
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
import { createOrderWriter } from '../../output/order-writer.js';
import { type LinkRequests, showPaymentLink } from '../../output/payment-link.js';
import { chooseFormat, render, renderError } from '../../output/render.js';
import { batchWindow } from '../../session/config-keys.js';
import { findCredentials, requireCredentials } from '../../session/credentials.js';
import { openSession } from '../../session/session.js';
import { resolveTarget, type TargetFlags } from '../../session/target.js';
import type { StoreData } from '../../store/profile-data.js';
import { note, warn } from '../../terminal/messages.js';
import { createProgress, whileWaiting } from '../../terminal/progress.js';
import { escapeControl } from '../../terminal/terminal-text.js';

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

/** What every kind of order create shares: where it goes and how it is shown. */
interface CreateCommon {
  target: Target;
  output: OutputOptions;
  /** The stored default-output. */
  storedOutput?: OutputFormat;
  /** Whether the order ledger records the orders, and refuses a reference in use. */
  ledger: LedgerChoice;
}

/** One order from flags, checked. */
export interface SingleOrderOptions extends CreateCommon {
  kind: 'order';
  draft: OrderDraft;
  /** Show the request and ask before sending it: an order asked for on a terminal, for production. */
  confirm: boolean;
  /** --web and --qr: where the payment link goes once the order exists. */
  link: LinkRequests;
  /** --wait: once created, wait until the order leaves PENDING, for at most this long. */
  wait?: WaitPlan;
}

/** What order create does: one order, one order's request shown (--dry-run), or a batch (--input). */
export type OrderCreateOptions =
  | SingleOrderOptions
  | (CreateCommon & { kind: 'dry-run'; draft: OrderDraft })
  | (CreateCommon & { kind: 'batch'; batch: BatchOptions })
  | (CreateCommon & { kind: 'batch-dry-run'; batch: BatchOptions });

export type OrderCreateResult =
  | {
      kind: 'order';
      order: Order;
      raw: string;
      waited?: Waited;
      /** What ended the wait before the order left PENDING (Ctrl-C, an answer the lookup cannot use). */
      waitFailure?: unknown;
      /** The order left PENDING unpaid, or was still PENDING at the timeout. */
      unpaid?: CliError;
    }
  | { kind: 'dry-run'; request: WireRequest }
  | { kind: 'batch-dry-run'; lines: AsyncGenerator<PreviewLine> }
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

/** The fields a batch line takes from the flags, or the config defaults, when its file has none. */
const LINE_DEFAULTS = ['description', 'success', 'fail'] as const;

/** Every required flag that is missing, in one message: a script learns them all in one run. */
function missingFlags(missing: RequiredField[]): CliError {
  const [first] = missing;
  return usageError(
    `missing ${missing.map(flagName).join(', ')} (no prompts without a terminal or with --no-input)`,
    {
      field: first === undefined ? undefined : flagName(first),
      hint: 'payorder order create --amount 12.50 --description "Invoice 42" --success https://shop.example/ok --fail https://shop.example/ko',
    },
  );
}

/**
 * What the flags ask for, every check that needs neither the store nor the network done: one order
 * (its fields perhaps incomplete, for a person to fill in) or a batch.
 */
export type OrderCreateRequest = {
  targetFlags: TargetFlags;
  ledgerFlags: LedgerFlags;
  output: OutputOptions;
} & (
  | {
      kind: 'order';
      fields: OrderFields;
      dryRun: boolean;
      link: LinkRequests;
      wait?: WaitPlan;
    }
  | {
      kind: 'batch';
      input: string;
      /** --dry-run: every line checked and its request shown; nothing sent. */
      dryRun: boolean;
      /** --description, --success, --fail: for the lines that have none. */
      lineFields: Pick<OrderFields, (typeof LINE_DEFAULTS)[number]>;
      concurrency: number;
      /** --journal; without it payorder keeps a journal of its own, --again ignoring what it holds. */
      journal?: string;
      again: boolean;
      retryUnknown: boolean;
    }
);

/** The order's fields as the flags give them, by their names in the spec. */
const fieldsOf = (flags: OrderCreateFlags): OrderFields => ({
  amount: flags.amount,
  description: flags.description,
  success: flags.success,
  fail: flags.fail,
  notification_url: flags.notificationUrl,
  external_reference: flags.externalReference,
});

/** The flags of a batch (--input) against those of one order, and against each other. */
function checkBatchFlags(flags: OrderCreateFlags, fields: OrderFields, input: string | undefined): void {
  // A batch takes --description, --success and --fail for the lines that have none; the rest of an
  // order is each line's own.
  const given = Object.entries(fields).filter(
    ([k, v]) => v !== undefined && !(input !== undefined && (LINE_DEFAULTS as readonly string[]).includes(k)),
  );
  if (input !== undefined && given.length > 0) {
    throw usageError(
      `--input takes the amount and the references from the file; drop ${given.map(([k]) => flagName(k as keyof OrderFields)).join(', ')} (only --description, --success and --fail go with it, for the lines without them)`,
    );
  }
  if (input === undefined && (flags.journal || flags.retryUnknown || flags.again))
    throw usageError('--journal, --retry-unknown and --again go with --input');
  if (flags.journal !== undefined && flags.again)
    throw usageError(
      '--again goes with the journal payorder keeps itself; with --journal, give a new journal file to create every line anew',
      { field: '--again' },
    );
}

/** --web, --qr and --wait follow the one order created: not a batch's, not a dry run's. */
function checkFollowUps(
  link: LinkRequests,
  wait: WaitPlan | undefined,
  input: string | undefined,
  dryRun: boolean,
): void {
  if ((link.web || link.qr) && (input !== undefined || dryRun))
    throw usageError(
      `${link.web ? '--web' : '--qr'} shows the payment link of the order created; it does not go with ${input !== undefined ? '--input' : '--dry-run'}`,
      { field: link.web ? '--web' : '--qr' },
    );
  if (wait && (input !== undefined || dryRun))
    throw usageError(
      `--wait follows the one order created; it does not go with ${input !== undefined ? '--input' : '--dry-run'}`,
      {
        field: '--wait',
      },
    );
}

/** The flags as a request: pure, every check that needs no store, file or network. */
export function parseOrderCreateFlags(flags: OrderCreateFlags): OrderCreateRequest {
  const fields = fieldsOf(flags);
  const input = typeof flags.input === 'string' ? flags.input : undefined;
  checkBatchFlags(flags, fields, input);
  const concurrency = parseConcurrency(flags.concurrency);
  const dryRun = Boolean(flags.dryRun);
  const link = { web: Boolean(flags.web), qr: Boolean(flags.qr) };
  const wait = parseWaitOptions(flags);
  checkFollowUps(link, wait, input, dryRun);
  const output = parseOutputOptions(flags);
  if (dryRun && (output.field !== undefined || output.raw || output.format === 'tsv'))
    throw usageError('--dry-run shows the request; --field, --raw and -o tsv apply to orders', {
      field: '--dry-run',
    });
  const common = { targetFlags: flags, ledgerFlags: flags, output };
  if (input === undefined) return { ...common, kind: 'order', fields, dryRun, link, wait };
  return {
    ...common,
    kind: 'batch',
    input,
    dryRun,
    lineFields: { description: fields.description, success: fields.success, fail: fields.fail },
    concurrency,
    journal: flags.journal,
    again: Boolean(flags.again),
    retryUnknown: Boolean(flags.retryUnknown),
  };
}

/**
 * The request made whole with what payorder keeps: the target, the stored output and batch window,
 * the credentials checked; fields missing from one order are asked for (ctx.prompter) when a person
 * can answer, else refused together.
 */
export async function resolveOrderCreate(
  request: OrderCreateRequest,
  ctx: Context,
): Promise<OrderCreateOptions> {
  if (request.kind === 'batch' && request.journal !== undefined) checkJournalFolder(request.journal);
  const data = (await ctx.store()).read();
  const target = resolveTarget(ctx, request.targetFlags, data);
  const common = {
    target,
    output: request.output,
    storedOutput: data.defaults?.output,
    ledger: ledgerChoice(request.ledgerFlags, data),
  };
  if (request.kind === 'batch') {
    const { input, concurrency, retryUnknown } = request;
    const journal: JournalChoice =
      request.journal !== undefined
        ? { kind: 'file', path: request.journal }
        : { kind: 'automatic', ...batchWindow(data), again: request.again };
    // Flags first, then the config defaults; each checked now, before any line is read.
    const lineDefaults: BatchOptions['lineDefaults'] = {};
    for (const field of LINE_DEFAULTS) {
      const given = request.lineFields[field];
      const value = given ?? data.defaults?.[field];
      if (value === undefined) continue;
      checkField(field, value, given !== undefined ? flagName : (f) => `default-${f}`);
      lineDefaults[field] = value;
    }
    const batch = { input, concurrency, journal, retryUnknown, lineDefaults };
    return request.dryRun ? { ...common, kind: 'batch-dry-run', batch } : { ...common, kind: 'batch', batch };
  }
  const { fields, dryRun, link, wait } = request;
  const confirm = await completeFields(fields, { ctx, data, target, dryRun });
  const draft = draftFrom(fields, target.version, flagName);
  if (dryRun) return { ...common, kind: 'dry-run', draft };
  requireCredentials(ctx, data, target);
  return { ...common, kind: 'order', draft, confirm, link, wait };
}

/**
 * Fills in the fields the flags left out, asking a person for them; or refuses them all in one
 * message when nobody can answer. Whether the order then needs a confirmation: one asked for on a
 * terminal, for production.
 */
async function completeFields(
  fields: OrderFields,
  { ctx, data, target, dryRun }: { ctx: Context; data: StoreData; target: Target; dryRun: boolean },
): Promise<boolean> {
  const missing = missingFields(fields);
  if (missing.length === 0) return false;
  if (!ctx.flags.interactive) throw missingFlags(missing);
  // What is wrong, or no login, is said before a person fills anything in.
  checkGivenFields(fields, target.version, flagName);
  if (!dryRun) requireCredentials(ctx, data, target);
  const { askOrderFields } = await import('./create.form.js');
  Object.assign(fields, await askOrderFields(ctx, missing));
  return target.env === 'production' && !dryRun;
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
  { output, storedOutput, link }: SingleOrderOptions,
  ctx: Context,
): Promise<void> {
  const format = chooseFormat(ctx, { asked: output.format, stored: storedOutput });
  const stdoutIsData = format !== 'table' || output.field !== undefined || output.raw;
  return showPaymentLink(ctx, order.links.checkout, link, { stdoutIsData });
}

export async function runOrderCreate(options: OrderCreateOptions, ctx: Context): Promise<OrderCreateResult> {
  const { target } = options;
  if (options.kind === 'batch-dry-run') {
    const data = (await ctx.store()).read();
    const username = findCredentials(ctx, data, target)?.credentials.username ?? '<username of the login>';
    const { previewBatch } = await import('../../orders/batch-preview.js');
    return {
      kind: 'batch-dry-run',
      lines: previewBatch(ctx, await ctx.client(target), target, options.batch, username),
    };
  }
  if (options.kind === 'batch') {
    const session = await openSession(withConnections(ctx, options.batch.concurrency), target, {
      interruptible: false,
    });
    const { creationLedger } = await import('../../ledger/recording.js');
    const ledger = await creationLedger(ctx, target, options.ledger);
    return { kind: 'batch', run: startBatch(ctx, session, { ...options.batch, ledger }) };
  }
  const { draft } = options;
  if (draft.notificationUrl && target.version === 'v2') warn(ctx, NOTIFICATION_V2_WARNING);
  if (options.kind === 'dry-run')
    return { kind: 'dry-run', request: await previewRequest(target, draft, ctx) };
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
    const { orderLookup, waitError, waitForPayment } = await import('../../orders/wait.js');
    const lookup = orderLookup(session, created.order.uuid);
    const plan = { ...options.wait, showLink: true, target };
    const waited = await waitForPayment(ctx, lookup, plan, { first: created });
    if (options.ledger.keep) await noteSeen(ctx, target, waited.order);
    return {
      kind: 'order',
      order: waited.order,
      raw: waited.raw,
      waited,
      unpaid: waitError(waited, plan),
    };
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
function afterCreation(error: unknown, uuid: string, target: Target): unknown {
  if (!(error instanceof CliError)) return error;
  const created = `order ${uuid} was created: do not create it again; look it up with ${commandLine(['order', 'get', uuid], target)}`;
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
  if (result.kind === 'batch-dry-run') return renderBatchPreview(result.lines, options, ctx);
  if (result.kind === 'order') {
    const format = chooseFormat(ctx, { asked: output.format, stored: storedOutput });
    const writer = await createOrderWriter(ctx, output, format, { of: 'orders', single: true });
    writer.order(result.order, result.raw);
    await writer.end();
    if (result.waitFailure !== undefined)
      throw afterCreation(result.waitFailure, result.order.uuid, options.target);
    if (!result.waited && options.kind === 'order') await showLink(result.order, options, ctx);
    if (result.unpaid) throw result.unpaid;
    return;
  }
  await renderBatch(result.run, options, ctx);
}

/**
 * A batch's dry run: each line's request (NDJSON by default when piped, -o json an array, a
 * terminal the requests as text), then on stderr whether every line would be sent. Exit 2 when one
 * would not: the file needs fixing first.
 */
async function renderBatchPreview(
  lines: AsyncGenerator<PreviewLine>,
  { output }: OrderCreateOptions,
  ctx: Context,
): Promise<void> {
  const format = chooseFormat(ctx, { asked: output.format, whenPiped: 'ndjson' });
  let count = 0;
  const invalid: number[] = [];
  for await (const preview of lines) {
    if (preview.error) invalid.push(preview.line);
    if (format === 'ndjson') ctx.io.stdout.write(`${JSON.stringify(preview)}\n`);
    else if (format === 'json')
      ctx.io.stdout.write(
        `${count === 0 ? '[\n' : ',\n'}${JSON.stringify(preview, null, 2).replace(/^/gm, '  ')}`,
      );
    else if (preview.request)
      ctx.io.stdout.write(`# line ${preview.line}\n${requestText(preview.request)}\n\n`);
    else ctx.io.stdout.write(`# line ${preview.line}: not sent: ${escapeControl(preview.error.message)}\n\n`);
    count++;
  }
  if (format === 'json') ctx.io.stdout.write(count === 0 ? '[]\n' : '\n]\n');
  if (invalid.length > 0)
    throw usageError(
      `dry run: ${invalid.length} of ${count} line${count === 1 ? '' : 's'} would not be sent (line${invalid.length === 1 ? '' : 's'} ${invalid.slice(0, 10).join(', ')}${invalid.length > 10 ? ', …' : ''}); nothing was sent`,
      { field: '--input' },
    );
  note(ctx, `dry run: ${count} line${count === 1 ? '' : 's'}, each would be sent as shown; nothing was sent`);
}

/** A batch's records as they come, its progress on a terminal, what Ctrl-C leaves, and its summary. */
async function renderBatch(run: BatchRun, options: OrderCreateOptions, ctx: Context): Promise<void> {
  const { output, storedOutput } = options;
  // A batch streams: NDJSON is the piped default so results can be read as they come.
  const format = chooseFormat(ctx, { asked: output.format, stored: storedOutput, whenPiped: 'ndjson' });
  const writer = await createOrderWriter(ctx, output, format, { of: 'batch' });
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
  // On a second Ctrl-C payorder ends at once, right after this: the lines done but held back behind
  // one in flight are printed (out of order, each with its line) and counted, then what is unknown.
  // Everything here is written synchronously, before the process ends.
  let ended = false;
  const onForced = () => {
    progress?.stop();
    for (const { record, raw } of run.heldBack()) writer.record(record, raw);
    if (!ended) void writer.end();
    ended = true;
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
  let finished = false;
  let shown = 0;
  try {
    for await (const { record, raw } of run.records) {
      writer.record(record, raw);
      shown++;
      if (progress && !ctx.signal.aborted) {
        progress.update(() => {
          const { lines, counts, seconds } = run.summary();
          return `${lines} lines: ${counts.created} created, ${counts.skipped} skipped, ${counts.failed} failed, ${counts.unknown} unknown (${(lines / seconds).toFixed(1)}/s)`;
        });
      }
      // Per-line errors go to stderr as they happen unless the table or the progress shows them.
      if (!progress && record.error && !ctx.flags.json && format !== 'table') note(ctx, record.error.message);
      // A slow reader holds the batch back: no further line is read until stdout takes this one (the
      // lines already recorded still leave as slots free).
      await writer.ready();
    }
    finished = true;
  } finally {
    ctx.signal.removeEventListener('abort', onStop);
    ctx.forced.removeEventListener('abort', onForced);
    progress?.stop();
    // A batch refused before its first line (a `;` CSV, a misspelt column) prints nothing on stdout:
    // no TSV header, no empty JSON array, which a script would take for an empty result.
    if (!ended && (finished || shown > 0)) await writer.end();
    ended = true;
  }
  const { line, error } = batchOutcome(run.summary());
  if (error) throw error;
  note(ctx, line);
}

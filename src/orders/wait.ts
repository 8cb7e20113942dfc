/**
 * Waiting for payment (`order get --wait`, `order create --wait`): looks the order up again and
 * again, further apart each time, until its status leaves PENDING or the time is up, with a
 * spinner on stderr where a person is looking. How it ended becomes the exit code: 0 when paid, a
 * documented code of its own when it failed, was refunded or was still pending.
 */
import type { OrderResult } from '../api/service.js';
import { commandLine, type HintTarget } from '../command-line.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import type { Session } from '../session/session.js';
import { note } from '../terminal/messages.js';
import { createProgress } from '../terminal/progress.js';
import { escapeControl } from '../terminal/terminal-text.js';
import { truncateText } from '../terminal/text-width.js';

/** How the wait ended: the status the order left PENDING for, or the time ran out. */
export type WaitEnd = 'paid' | 'failed' | 'refunded' | 'timed_out';

export interface Waited extends OrderResult {
  end: WaitEnd;
  /** How long it waited, in milliseconds. */
  waitedMs: number;
}

export interface WaitPlan {
  timeoutMs: number;
  /** Where the order is, for the hints that give the command to wait again. */
  target?: HintTarget;
  /** Say the payment link before waiting (order create --wait: the payer needs it now). */
  showLink?: boolean;
  /** Runs once, on the first answer of a lookup (order get --wait --qr: the code before waiting). */
  onFirstAnswer?: (found: OrderResult) => Promise<void>;
}

/** The first look again comes after a second; each pause is half as long again, up to 15 seconds. */
export const FIRST_PAUSE_MS = 1000;
export const MAX_PAUSE_MS = 15_000;
const GROWTH = 1.5;

const PENDING = 'PENDING';

/** "1h 5m", "9m 58s", "30s": a duration as people read it. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const parts = [h > 0 ? `${h}h` : '', m > 0 ? `${m}m` : '', s > 0 || total === 0 ? `${s}s` : ''];
  return parts.filter((part) => part !== '').join(' ');
}

/**
 * A lookup failure that a later lookup may not have: the service unreachable, no answer in time, or
 * a server error (5xx). A lookup changes nothing, so it is safely asked again until the time is up.
 */
const passing = (error: CliError) =>
  error.kind === 'network' || error.kind === 'outcome_unknown' || (error.details.status ?? 0) >= 500;

/** Looks one order up by its key through the session (the token renewed when needed). */
export const orderLookup = (session: Session, key: string) => () =>
  session.authorized((token) => session.client.getOrder(token, key));

/**
 * Waits until the order leaves PENDING or `plan.timeoutMs` has passed, starting from `first` (an
 * order just created) or a first lookup of `key`. A lookup that fails in passing (see `passing`),
 * the first one too, is tried again until the time is up; any other error ends the wait. Ctrl-C
 * ends it with "interrupted".
 */
export async function waitForPayment(
  ctx: Context,
  lookup: () => Promise<OrderResult>,
  plan: WaitPlan,
  start: { first: OrderResult } | { key: string },
): Promise<Waited> {
  const started = ctx.clock().getTime();
  let slept = 0;
  // The clock may stand still (PAYORDER_NOW): the time slept counts too.
  const elapsed = () => Math.max(ctx.clock().getTime() - started, slept);
  let current = 'first' in start ? start.first : undefined;
  const label = () => escapeControl(current?.order.uuid ?? ('key' in start ? start.key : ''));
  let problem = '';
  let lastError: CliError | undefined;
  let progress: Awaited<ReturnType<typeof createProgress>>;
  /** One lookup: the order, or a problem to say (and the next try) when it failed in passing. */
  const lookAgain = async () => {
    try {
      current = await lookup();
      problem = '';
    } catch (error) {
      if (ctx.signal.aborted) throw stopped(ctx, label(), plan);
      if (!(error instanceof CliError && passing(error))) throw error;
      lastError = error;
      problem =
        error.kind === 'network'
          ? 'cannot reach the service; trying again'
          : 'no usable answer; trying again';
      if (!progress) note(ctx, `${error.message}; trying again`);
    }
  };
  if (!current) await lookAgain();
  let answered = false;
  const firstAnswer = async () => {
    if (answered || !current || !plan.onFirstAnswer) return;
    answered = true;
    progress?.stop();
    await plan.onFirstAnswer(current);
  };
  await firstAnswer();
  if (current && plan.showLink && current.order.links.checkout)
    note(ctx, `payment link: ${current.order.links.checkout}`);
  if (current && current.order.status !== PENDING)
    return { ...current, end: endOf(current.order.status), waitedMs: 0 };

  progress = await createProgress(ctx);
  if (!progress && current)
    note(ctx, `waiting up to ${formatDuration(plan.timeoutMs)} for order ${label()} to be paid…`);
  let pause = FIRST_PAUSE_MS;
  try {
    while (current === undefined || current.order.status === PENDING) {
      const left = plan.timeoutMs - elapsed();
      if (left <= 0) {
        if (current) return { ...current, end: 'timed_out', waitedMs: elapsed() };
        // Never an answer in all that time: the last lookup's error says why.
        throw lastError ?? new CliError('network', `no lookup of order ${label()} got an answer in time`);
      }
      progress?.update(() => spinnerText(ctx, problem || `waiting for payment: ${PENDING}`, left));
      const step = Math.min(pause, left);
      try {
        await ctx.sleep(step, ctx.signal);
      } catch {
        throw stopped(ctx, label(), plan);
      }
      slept += step;
      pause = Math.min(pause * GROWTH, MAX_PAUSE_MS);
      await lookAgain();
      await firstAnswer();
    }
  } finally {
    progress?.stop();
  }
  return { ...current, end: endOf(current.order.status), waitedMs: elapsed() };
}

/** The spinner's line, cut to the terminal's width (the spinner itself takes two columns). */
function spinnerText(ctx: Context, what: string, leftMs: number): string {
  const text = `${what} (${formatDuration(leftMs)} left, Ctrl-C to stop)`;
  return ctx.io.stderrColumns > 0 ? truncateText(text, ctx.io.stderrColumns - 3) : text;
}

function endOf(status: string): WaitEnd {
  if (status === 'PAID') return 'paid';
  if (status === 'REFUNDED') return 'refunded';
  return 'failed';
}

/** The command that waits for the order again, for as long as this wait was to last unless `timeout`. */
function waitAgain(uuid: string, plan: WaitPlan, timeout?: string): string {
  const words = [
    'order',
    'get',
    uuid,
    '--wait',
    '--timeout',
    timeout ?? formatDuration(plan.timeoutMs).replaceAll(' ', ''),
  ];
  return plan.target ? commandLine(words, plan.target) : `payorder ${words.join(' ')}`;
}

function stopped(ctx: Context, uuid: string, plan: WaitPlan): CliError {
  return ctx.signal.reason === 'EPIPE'
    ? new CliError('closed_pipe', `stdout was closed: stopped waiting for order ${uuid}`)
    : new CliError('interrupted', `interrupted: stopped waiting for order ${uuid}, still ${PENDING}`, {
        hint: `wait again with ${waitAgain(uuid, plan)}`,
      });
}

/**
 * The error that gives a wait that did not end in payment its exit code (the order has been
 * printed already); none when it was paid.
 */
export function waitError(waited: Waited, plan: WaitPlan): CliError | undefined {
  const { uuid, status } = waited.order;
  switch (waited.end) {
    case 'paid':
      return undefined;
    case 'refunded':
      return new CliError('refunded', `order ${uuid} was refunded`);
    case 'failed':
      return new CliError('payment_failed', `order ${uuid} was not paid: its status is ${status}`);
    case 'timed_out':
      return new CliError(
        'wait_timed_out',
        `order ${uuid} is still ${PENDING} after ${formatDuration(plan.timeoutMs)}`,
        { hint: `wait longer with a larger --timeout: ${waitAgain(uuid, plan, '30m')}` },
      );
  }
}

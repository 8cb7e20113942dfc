/**
 * `payorder sandbox listen`, the work: start the local receiver, register it with the running
 * sandbox, print each notification as it comes (escaped: its text is the server's, not ours), and
 * on Ctrl-C unregister and stop.
 */
import type { OutputFlags } from '../../cli/options.js';
import type { Context } from '../../context.js';
import { checkHttpUrl } from '../../contract/urls.js';
import { usageError } from '../../errors.js';
import type { OutputFormat } from '../../output/formats.js';
import { colorStatus } from '../../output/order-view.js';
import { chooseFormat, render } from '../../output/render.js';
import { type ReceivedNotification, startListener } from '../../sandbox/notification-listener.js';
import { note } from '../../terminal/messages.js';
import { escapeControl } from '../../terminal/terminal-text.js';
import { wholeNumber } from '../../values.js';
import { sandboxAddress, sandboxControl } from './shared.js';

export interface ListenFlags extends Pick<OutputFlags, 'json'> {
  forwardTo?: string;
  port: string;
  host: string;
}

export interface ListenOptions {
  forwardTo?: string;
  port: number;
  host: string;
  json: boolean;
}

export function parseListenOptions(flags: ListenFlags): ListenOptions {
  return {
    forwardTo: flags.forwardTo === undefined ? undefined : checkHttpUrl('--forward-to', flags.forwardTo),
    port: wholeNumber('--port', 0, 65_535)(flags.port),
    host: flags.host,
    json: Boolean(flags.json),
  };
}

export async function runListen(options: ListenOptions, ctx: Context): Promise<void> {
  const base = await sandboxAddress(ctx);
  const control = await sandboxControl(base, ctx);
  const format = chooseFormat(ctx, { asked: options.json ? 'ndjson' : undefined, whenPiped: 'ndjson' });
  const listener = await startListener({
    port: options.port,
    host: options.host,
    forwardTo: options.forwardTo,
    now: ctx.clock,
    onNotification: (notification) => renderNotification(notification, format, ctx),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE')
      throw usageError(`--port: ${options.port} is already in use; pick another or leave --port out`, {
        field: '--port',
      });
    if (error.code === 'EADDRNOTAVAIL')
      throw usageError(`--host: ${options.host} is not an address of this machine`, { field: '--host' });
    throw error;
  });
  let id: string;
  try {
    id = await control.addListener(listener.url);
  } catch (error) {
    await listener.close();
    throw error;
  }
  note(
    ctx,
    `Listening on ${listener.url} for the notifications of the sandbox at ${base}` +
      `${options.forwardTo ? `, forwarding them to ${options.forwardTo}` : ''}. Press Ctrl-C to stop.`,
  );
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  // The sandbox may be gone already; then there is nothing to unregister from.
  await control.removeListener(id).catch(() => undefined);
  await listener.close();
  note(ctx, 'stopped listening');
}

/** The order's uuid and status, when the notification is an order (the sandbox's are). */
function orderOf(body: unknown): { uuid: string; status: string } | undefined {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return typeof fields.uuid === 'string' && typeof fields.status === 'string'
    ? { uuid: fields.uuid, status: fields.status }
    : undefined;
}

function renderNotification(notification: ReceivedNotification, format: OutputFormat, ctx: Context): void {
  render(ctx, format, {
    json: notification,
    human: (paint) => {
      const time = notification.received_at.slice(11, 19);
      const order = orderOf(notification.body);
      const what = order
        ? `${colorStatus(paint, escapeControl(order.status))} order ${escapeControl(order.uuid)}`
        : `${escapeControl(notification.method)} ${escapeControl(notification.path)}`;
      const forwarded = notification.forwarded;
      const outcome = !forwarded
        ? ''
        : forwarded.status === null
          ? `  ${paint.red(`→ ${escapeControl(forwarded.error ?? 'failed')}`)} ${forwarded.url}`
          : `  ${(forwarded.status < 300 ? paint.green : paint.red)(`→ ${forwarded.status}`)} ${forwarded.url} (${forwarded.ms} ms)`;
      const body =
        typeof notification.body === 'string'
          ? notification.body
          : JSON.stringify(notification.body, null, 2);
      const indented = escapeControl(body, { keepNewlines: true }).replace(/^/gm, '  ');
      return `${paint.dim(time)}  ${what}${outcome}\n${paint.dim(indented)}`;
    },
  });
}

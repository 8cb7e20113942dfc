/**
 * The payment link where people need it, once an order is created: --qr prints it as a QR code,
 * --web opens it in the browser. The QR code is for people, so it goes with the text for people:
 * on stdout after the order when stdout shows it to a person (a table), and on stderr when stdout
 * carries data (JSON, NDJSON, TSV, --field, --raw), so the data stays parseable and the code is
 * still on the screen. The order exists by then: a link that cannot be shown or opened is a
 * warning, never a failure that would invite creating the order again.
 */

import type { Context } from '../context.js';
import { checkHttpUrl } from '../contract/urls.js';
import { CliError } from '../errors.js';
import { note, warn } from '../terminal/messages.js';
import { openInBrowser } from './browser.js';
import { qrCode } from './qr-code.js';

export interface LinkRequests {
  /** --web: open the link in the browser. */
  web: boolean;
  /** --qr: print the link as a QR code. */
  qr: boolean;
}

export async function showPaymentLink(
  ctx: Context,
  link: string | null,
  asked: LinkRequests,
  { stdoutIsData }: { stdoutIsData: boolean },
): Promise<void> {
  if (!asked.web && !asked.qr) return;
  if (!link) return warn(ctx, 'the service gave no payment link: there is nothing to show or open');
  try {
    // The link comes from the service: only an http(s) address is shown to a phone or a browser.
    checkHttpUrl('the payment link', link);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return warn(ctx, `${error.message}; it is neither shown as a QR code nor opened`);
  }
  if (asked.qr) {
    const [stream, color, columns] = stdoutIsData
      ? [ctx.io.stderr, ctx.io.colorErr, ctx.io.stderrColumns]
      : [ctx.io.stdout, ctx.io.colorOut, ctx.io.stdoutColumns];
    // The order exists whatever happens here: a link too long for a QR code is a warning, not a failure.
    const code = await qrCode(link, color).catch((error: Error) => {
      warn(ctx, `no QR code (${error.message}); the payment link: ${link}`);
      return undefined;
    });
    if (code) {
      if (columns > 0 && code.width > columns)
        warn(
          ctx,
          `the QR code is ${code.width} columns wide and the terminal ${columns}: widen it to scan the code`,
        );
      stream.write(`${code.text}\n`);
    }
  }
  if (asked.web) {
    note(ctx, `Opening ${link} in your browser.`);
    try {
      await openInBrowser(ctx, link);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      warn(ctx, `${error.message}; open the payment link yourself: ${link}`);
    }
  }
}

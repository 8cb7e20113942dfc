/**
 * `payorder order create`: one order from flags, or many from --input (NDJSON or CSV). Everything
 * is checked before any request; --dry-run shows the exact request and sends nothing.
 */
import type { Command } from 'commander';
import { withConventions, withExamples, withOutput, withTarget } from '../../cli/shared-options.js';
import type { Context } from '../../context.js';
import { maskAuthorization } from '../../contract/masking.js';
import { joinUrl, PATHS } from '../../contract/versions.js';
import { usageError } from '../../errors.js';
import { draftFrom, flagName, type OrderFields } from '../../orders/draft.js';
import type { OutputFlags } from '../../output/formats.js';
import { warn } from '../../output/messages.js';
import type { TargetFlags } from '../../session/target.js';

export interface CreateFlags extends TargetFlags, OutputFlags {
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

const MAX_CONCURRENCY = 64;

export async function runOrderCreate(flags: CreateFlags, ctx: Context): Promise<void> {
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
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw usageError(`--concurrency: must be a whole number from 1 to ${MAX_CONCURRENCY}`, {
      field: '--concurrency',
    });
  }
  if (input === undefined && (flags.journal || flags.retryUnknown))
    throw usageError('--journal and --retry-unknown go with --input');

  const store = await ctx.store();
  const data = store.read();
  const { resolveTarget } = await import('../../session/target.js');
  const target = resolveTarget(ctx, flags, data);
  const { createOrderWriter } = await import('../../output/order-writer.js');
  const defaultOutput = data.defaults?.output;

  if (input !== undefined) {
    if (flags.dryRun) throw usageError('--dry-run shows a single request; it does not go with --input');
    const { openSession } = await import('../../session/session.js');
    const { createBatch } = await import('../../orders/batch.js');
    const session = await openSession(ctx, flags, { interruptible: false });
    const writer = createOrderWriter(
      ctx,
      { ...flags, output: flags.output ?? (ctx.io.stdoutIsTTY || flags.json ? undefined : 'ndjson') },
      { single: false, batch: true },
      defaultOutput,
    );
    await createBatch(
      ctx,
      session,
      { input, concurrency, journal: flags.journal, retryUnknown: flags.retryUnknown },
      writer,
    );
    return;
  }

  const draft = draftFrom(fields, target.version, flagName);
  const { orderRequestBody } = await import('../../contract/schemas.js');
  if (draft.notificationUrl && target.version === 'v2') {
    warn(
      ctx,
      'the spec does not show whether v2 accepts notification_url; payorder sends it and the service may ignore it',
    );
  }
  const { requireCredentials, findCredentials } = await import('../../session/credentials.js');
  if (flags.dryRun) {
    const username =
      findCredentials(ctx, data, target.env)?.credentials.username ?? '<username of the login>';
    const request = {
      method: 'POST',
      url: joinUrl(target.checkoutBase, PATHS.checkout(target.version)),
      headers: { authorization: maskAuthorization('Bearer token'), 'content-type': 'application/json' },
      body: orderRequestBody(target.version, draft, username),
    };
    if (flags.json || flags.output === 'json' || !ctx.io.stdoutIsTTY)
      ctx.io.stdout.write(`${JSON.stringify(request, null, 2)}\n`);
    else {
      const headers = Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`);
      ctx.io.stdout.write(
        `${[`${request.method} ${request.url}`, ...headers, '', JSON.stringify(request.body, null, 2)].join('\n')}\n`,
      );
    }
    return;
  }
  requireCredentials(ctx, data, target.env);
  const { openSession } = await import('../../session/session.js');
  const session = await openSession(ctx, flags);
  const body = orderRequestBody(target.version, draft, session.credentials.username);
  const { order, raw } = await session.authorized((token) => session.client.createOrder(token, body));
  const writer = createOrderWriter(ctx, flags, { single: true, batch: false }, defaultOutput);
  writer.order(order, raw);
  await writer.end();
}

export function registerOrderCreate(order: Command, ctx: Context): void {
  const command = order
    .command('create')
    .summary('create an order and get its payment link')
    .description(
      'Create a payment order and print it with its payment link. --amount is a decimal in major units on both ' +
        'versions (payorder sends "12.50" on v1 and "1250" on v2). With --input, create one order per line of an ' +
        'NDJSON or CSV file (columns: amount or amount_cents, description, success, fail, notification_url, ' +
        'external_reference), streaming, with a resumable --journal.',
    )
    .option('--amount <decimal>', 'amount in major units, at most 2 decimals, e.g. 12.50')
    .option('--description <text>', 'what the order is for')
    .option('--success <url>', 'where the payer goes after a successful payment')
    .option('--fail <url>', 'where the payer goes after a failed payment')
    .option('--notification-url <url>', 'where status notifications go')
    .option('--external-reference <ref>', 'your own id for the order (v2 only)')
    .option('--input <file>', 'create one order per line of this NDJSON or CSV file (- for stdin)')
    .option('--concurrency <n>', 'orders in flight at once with --input', '4')
    .option('--journal <file>', 'record each line as it happens and skip lines already created on rerun')
    .option('--retry-unknown', 'with --journal: send again lines whose earlier outcome is unknown')
    .option('--dry-run', 'print the exact request (token masked) and send nothing');
  withTarget(command);
  withOutput(command);
  withConventions(command);
  withExamples(command, [
    [
      'a payment link on stage',
      'payorder order create --amount 12.50 --description "Invoice 42" --success https://shop.example/ok --fail https://shop.example/ko',
    ],
    [
      'just the link, for a script',
      'link=$(payorder order create --amount 5 --description Tea --success https://s.example/ok --fail https://s.example/ko --field links.checkout)',
    ],
    [
      'a resumable batch from CSV',
      'payorder order create --input orders.csv --journal orders.journal -o ndjson > results.ndjson',
    ],
  ]);
  command.action((flags: CreateFlags) => runOrderCreate(flags, ctx));
}

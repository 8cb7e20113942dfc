/**
 * `order create --input FILE --dry-run`: the whole file checked as a batch checks it (its header,
 * every line's fields, the defaults of --description, --success and --fail), and each line's request
 * as it would be sent, the token masked. Nothing is sent and no journal is read or written.
 */
import type { WireRequest } from '../api/http.js';
import type { ServiceClient, Target } from '../api/service.js';
import type { Context } from '../context.js';
import { orderRequestBody } from '../contract/schemas.js';
import { CliError } from '../errors.js';
import type { BatchOptions } from './batch.js';
import { readBatch } from './batch-input.js';
import { columnName, draftFrom, type OrderFields } from './draft.js';
import { openInput } from './input-file.js';

/** A line of the file: the request it would send, or why it would not be sent. */
export type PreviewLine =
  | { line: number; request: WireRequest; error?: undefined }
  | { line: number; request?: undefined; error: ReturnType<CliError['toJSON']>['error'] };

export async function* previewBatch(
  ctx: Context,
  client: ServiceClient,
  target: Target,
  batch: BatchOptions,
  username: string,
): AsyncGenerator<PreviewLine> {
  const label = batch.input === '-' ? 'stdin' : batch.input;
  for await (const input of readBatch(openInput(batch.input, ctx.io.stdin, ctx.signal), label)) {
    const { line } = input;
    try {
      if (input.problem !== undefined) throw new CliError('usage', input.problem);
      const given = Object.fromEntries(
        Object.entries(input.fields).filter(([, v]) => v !== undefined),
      ) as OrderFields;
      const draft = draftFrom({ ...batch.lineDefaults, ...given }, target.version, columnName);
      yield { line, request: client.dryRunCreateOrder(orderRequestBody(target.version, draft, username)) };
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      yield { line, error: error.toJSON().error };
    }
  }
}

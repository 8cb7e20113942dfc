/** What a batch says of each of its lines: the records `order create --input` writes, in any format. */
import type { Order } from '../contract/schemas.js';
import type { CliError } from '../errors.js';

/** What became of one input line of a batch; `order` is null unless it was created or found. */
export type LineOutcome = 'created' | 'skipped' | 'failed' | 'unknown';

/** What a batch line said: kept with every record so a failed or unknown line can be found. */
export interface BatchInput {
  amount: string | null;
  description: string | null;
  external_reference: string | null;
}

export interface BatchRecord {
  line: number;
  outcome: LineOutcome;
  order: Order | null;
  input: BatchInput;
  error: ReturnType<CliError['toJSON']>['error'] | null;
}

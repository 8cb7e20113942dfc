/**
 * Whether a command keeps the order ledger: yes unless --no-ledger or `payorder config set ledger
 * false` says no. Nothing here loads the ledger itself.
 */
import type { StoreData } from '../store/profile-data.js';

/** Whether and how a command keeps the ledger. */
export interface LedgerChoice {
  keep: boolean;
  /** --allow-duplicate-reference: create an order whose external reference another order holds. */
  allowDuplicateReference: boolean;
}

/** The flags that say it: commander gives --no-ledger as `ledger: false`. */
export interface LedgerFlags {
  ledger?: boolean;
  allowDuplicateReference?: boolean;
}

export function ledgerChoice(flags: LedgerFlags, data: StoreData): LedgerChoice {
  return {
    keep: flags.ledger !== false && data.defaults?.ledger !== false,
    allowDuplicateReference: Boolean(flags.allowDuplicateReference),
  };
}

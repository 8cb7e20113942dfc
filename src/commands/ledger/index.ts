/**
 * `payorder ledger`: the order ledger's own commands. `import FILE` adds orders payorder did not
 * create (the shop's own integration made them) so `order find` finds them too; `prune --before
 * DATE` removes the orders sent before a day. The work is in ledger.run.ts.
 */
import type { Command } from 'commander';
import { conventions, examples, jsonOption, targetOptions } from '../../cli/options.js';
import type { Context } from '../../context.js';
import type { LedgerImportFlags, LedgerPruneFlags } from './ledger.run.js';

export function registerLedger(program: Command, ctx: Context, withSubcommands = true): void {
  const ledger = program
    .command('ledger')
    .summary('import orders into the order ledger, or prune it')
    .description(
      'The order ledger records every order payorder creates (what was sent, when, the answer or outcome, the ' +
        'last status seen), in the data folder, so that `payorder order find` finds an order by its reference, ' +
        'description, amount or day. It keeps no secret and no token.',
    );
  if (!withSubcommands) return;
  const importing = ledger
    .command('import')
    .summary('add orders from a CSV, TSV or NDJSON export to the ledger')
    .description(
      "Add orders payorder did not create to the ledger: a CSV, TSV or NDJSON file with the order's uuid or v1 id " +
        'and any of external_reference, description, amount (or amount_cents), date and status, named as ' +
        "payorder's own -o ndjson / -o tsv output names them (payorder's result files are read as they are), or " +
        'mapped with --map. Every line is checked first; a file with a bad line imports nothing. An order the ' +
        'ledger holds takes what the file says of it.',
    )
    .argument('<file>', 'the file to import (- for stdin)')
    .option(
      '--map <field=column>',
      'read FIELD from COLUMN (repeatable), e.g. --map external_reference=order_ref',
      (value: string, previous: string[] = []) => [...previous, value],
    );
  targetOptions(importing);
  jsonOption(importing);
  conventions(importing);
  examples(importing, [
    [
      "the shop's own export",
      'payorder ledger import orders-export.csv --map external_reference=order_no --env production',
    ],
    ['the results of an earlier batch', 'payorder ledger import results.ndjson'],
  ]);
  importing.action(async (file: string, flags: LedgerImportFlags) => {
    const run = await import('./ledger.run.js');
    await run.ledgerImport(file, flags, ctx);
  });
  const prune = ledger
    .command('prune')
    .summary('remove the orders sent before a day')
    .description(
      'Remove from the ledger every order sent (or, imported, dated) before DATE, on every profile and environment.',
    )
    .requiredOption('--before <date>', 'a day (YYYY-MM-DD, UTC) or a time (ISO 8601)');
  jsonOption(prune);
  conventions(prune);
  examples(prune, [['keep one year', 'payorder ledger prune --before 2025-12-01']]);
  prune.action(async (flags: LedgerPruneFlags) => {
    const run = await import('./ledger.run.js');
    await run.ledgerPrune(flags, ctx);
  });
}

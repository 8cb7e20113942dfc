/**
 * `payorder ledger import` and `prune`, the work. An import reads and checks the whole file before
 * the ledger is touched, then writes it in one transaction.
 */

import type { Context } from '../../context.js';
import { CliError, usageError } from '../../errors.js';
import { ledgerChoice } from '../../ledger/choice.js';
import { parseDate } from '../../ledger/dates.js';
import { type ImportLine, parseMap, readImport } from '../../ledger/import-file.js';
import { type ImportedOrder, openLedger } from '../../ledger/ledger.js';
import { openInput } from '../../orders/input-file.js';
import { chooseFormat, render } from '../../output/render.js';
import { resolveEnv, resolveProfile, resolveVersion, type TargetFlags } from '../../session/target.js';
import { errorLine } from '../../terminal/messages.js';

export interface LedgerImportFlags extends TargetFlags {
  map?: string[];
  json?: boolean;
}

export interface LedgerPruneFlags {
  before: string;
  json?: boolean;
}

/** Problems shown one by one before the summary; more are counted. */
const SHOWN_PROBLEMS = 20;

async function requireLedgerOn(ctx: Context): Promise<void> {
  const data = (await ctx.store()).read();
  if (!ledgerChoice({}, data).keep)
    throw new CliError('config', 'the order ledger is off (config ledger false)', {
      field: 'ledger',
      hint: 'payorder config set ledger true keeps it from now on',
    });
}

export async function ledgerImport(file: string, flags: LedgerImportFlags, ctx: Context): Promise<void> {
  const map = parseMap(flags.map ?? []);
  await requireLedgerOn(ctx);
  const data = (await ctx.store()).read();
  const profile = resolveProfile(ctx, flags);
  const env = resolveEnv(ctx, flags, data);
  const version = resolveVersion(ctx, flags, data, env);
  const label = file === '-' ? 'stdin' : file;
  const orders: Array<ImportedOrder & { version?: 'v1' | 'v2' }> = [];
  const problems: Array<Extract<ImportLine, { problem: string }>> = [];
  let skipped = 0;
  try {
    for await (const line of readImport(openInput(file, ctx.io.stdin, ctx.signal), label, map)) {
      if ('problem' in line) problems.push(line);
      else if ('skipped' in line) skipped++;
      else orders.push(line.order);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw usageError(`cannot read ${label} (${code ?? (error as Error).message})`, { field: 'file' });
  }
  for (const { line, problem } of problems.slice(0, SHOWN_PROBLEMS))
    errorLine(ctx, `${label} line ${line}: ${problem}`);
  if (problems.length > 0)
    throw usageError(
      `${problems.length} line${problems.length === 1 ? '' : 's'} of ${label} ${problems.length === 1 ? 'is' : 'are'} not valid; nothing was imported`,
      {
        field: 'file',
        hint: 'fix those lines (or map the columns with --map FIELD=COLUMN) and import the file again',
      },
    );
  const ledger = await openLedger(ctx, { create: true });
  let counts = { added: 0, updated: 0 };
  try {
    for (const api of ['v1', 'v2'] as const) {
      const these = orders.filter((order) => (order.version ?? version) === api);
      if (these.length === 0) continue;
      const done = ledger.import({ profile, env, version: api }, these, ctx.clock());
      counts = { added: counts.added + done.added, updated: counts.updated + done.updated };
    }
  } finally {
    ledger.close();
  }
  const result = { file: label, ...counts, skipped };
  render(ctx, chooseFormat(ctx, { asked: flags.json ? 'json' : undefined }), {
    json: result,
    human: () =>
      `${label}: ${counts.added} order${counts.added === 1 ? '' : 's'} added, ${counts.updated} updated` +
      (skipped > 0 ? `, ${skipped} line${skipped === 1 ? '' : 's'} without an order left out` : ''),
  });
}

export async function ledgerPrune(flags: LedgerPruneFlags, ctx: Context): Promise<void> {
  const before = parseDate('--before', flags.before);
  const ledger = await openLedger(ctx, { create: false });
  let pruned = 0;
  try {
    pruned = ledger?.prune(before) ?? 0;
  } finally {
    ledger?.close();
  }
  render(ctx, chooseFormat(ctx, { asked: flags.json ? 'json' : undefined }), {
    json: { before: before.toISOString(), pruned },
    human: () =>
      `${pruned} order${pruned === 1 ? '' : 's'} sent before ${before.toISOString()} removed from the ledger`,
  });
}

/**
 * `payorder migrate-check`: is this integration ready for v2? Reads bodies, HAR captures, source
 * code and payorder's own setup; reports what breaks on v2 and exactly how to fix it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { type Command, Option } from 'commander';
import { readAll } from '../cli/read-all.js';
import { withConventions, withExamples } from '../cli/shared-options.js';
import type { Context } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { note, painter } from '../output/messages.js';
import { ENV_CHOICES, normalizeEnv } from '../session/environments.js';
import { VERSION } from '../version.js';

export interface MigrateFlags {
  config?: boolean;
  live?: string;
  json?: boolean;
  format?: 'text' | 'json' | 'sarif';
  fix?: boolean;
  write?: boolean;
  rules?: boolean;
}

function serialize(format: string, items: unknown[]): string {
  if (format === 'ndjson') return items.map((item) => `${JSON.stringify(item)}\n`).join('');
  if (format === 'json') return `${JSON.stringify(items[0] ?? null, null, 2)}\n`;
  return `${JSON.stringify(items, null, 2)}\n`;
}

/** "orders.ndjson" → "orders.v2.ndjson"; a HAR becomes JSON request records. */
function v2Name(file: string, format: string): string {
  const ext = format === 'har' ? '.json' : extname(file);
  return join(dirname(file), `${basename(file, extname(file))}.v2${ext}`);
}

export async function runMigrateCheck(paths: string[], flags: MigrateFlags, ctx: Context): Promise<void> {
  const { RULES } = await import('../migrate/rules.js');
  if (flags.rules) {
    if (flags.json) ctx.io.stdout.write(`${JSON.stringify(RULES, null, 2)}\n`);
    else
      for (const rule of RULES)
        ctx.io.stdout.write(
          `${rule.id}  ${rule.severity.padEnd(7)}  ${rule.name.padEnd(20)}  ${rule.summary}\n`,
        );
    return;
  }
  if (paths.length === 0 && !flags.config && !flags.live) {
    throw usageError('give files or folders to check (- for stdin), --config or --live ENV', {
      hint: 'payorder migrate-check src/ --config',
    });
  }
  if (flags.write && !flags.fix) throw usageError('--write goes with --fix');
  const live = flags.live === undefined ? undefined : normalizeEnv(flags.live);
  if (flags.live !== undefined && !live)
    throw usageError(`--live: unknown environment "${flags.live}"; choose one of ${ENV_CHOICES.join(', ')}`);

  const { scan } = await import('../migrate/scan.js');
  const stdinText = paths.includes('-') ? await readAll(ctx.io.stdin) : undefined;
  const result = scan(paths, { fix: Boolean(flags.fix), stdinText });
  const setup = await import('../migrate/setup.js');
  if (flags.config) result.findings.push(...(await setup.checkConfig(ctx)));
  if (live) result.findings.push(...(await setup.checkLive(ctx, live)));

  if (flags.fix) {
    if (result.fixed.length === 0)
      throw usageError('--fix converts bodies and HAR captures; none were given');
    for (const fixed of result.fixed) {
      const text = serialize(fixed.format === 'har' ? 'array' : fixed.format, fixed.items);
      if (fixed.skipped > 0)
        note(
          ctx,
          `${fixed.file}: ${fixed.skipped} item${fixed.skipped === 1 ? '' : 's'} could not be converted (see the findings); left out`,
        );
      if (!flags.write) {
        ctx.io.stdout.write(text);
        continue;
      }
      if (fixed.file === '<stdin>') throw usageError('--write needs files, not stdin');
      const target = v2Name(fixed.file, fixed.format);
      if (existsSync(target))
        throw usageError(`--write: ${target} already exists; payorder never writes over a file`);
      writeFileSync(target, text);
      note(ctx, `wrote ${target}`);
    }
  }

  const { summarize, renderHuman, renderJson, renderSarif } = await import('../migrate/report.js');
  const summary = summarize(result.findings, result.files, ctx.clock());
  const format = flags.format ?? (flags.json ? 'json' : 'text');
  const report =
    format === 'sarif'
      ? renderSarif(result.findings, VERSION)
      : format === 'json'
        ? renderJson(result.findings, summary)
        : renderHuman(result.findings, summary, painter(ctx.io.colorOut));
  // With --fix on stdout, the converted bodies are the data; the report goes to stderr.
  (flags.fix && !flags.write ? ctx.io.stderr : ctx.io.stdout).write(report);
  if (!summary.ready) {
    throw new CliError(
      'rejected',
      `not ready for v2: ${summary.counts.error} error${summary.counts.error === 1 ? '' : 's'}`,
      {
        reported: true,
      },
    );
  }
}

export function registerMigrateCheck(program: Command, ctx: Context): void {
  const command = program
    .command('migrate-check')
    .summary('is this v1 integration ready for v2?')
    .description(
      'Check an integration for what breaks on API v2 before v1 is switched off on 2026-12-31: request ' +
        'bodies (JSON, arrays, NDJSON), request records, HAR captures, source code in any language (honoring ' +
        '.gitignore), and your payorder setup. Exit 0 when ready (no error), 1 when not, 2 on bad usage.',
    )
    .argument('[paths...]', 'files or folders to check; - for stdin')
    .option('--config', "check payorder's own setup: v2 addresses for every environment you are logged into")
    .addOption(
      new Option('--live <env>', 'make a real v2 token request with the stored credentials').choices(
        ENV_CHOICES,
      ),
    )
    .option('--json', 'print the report as JSON')
    .addOption(new Option('--format <format>', 'report format').choices(['text', 'json', 'sarif']))
    .option('--fix', 'print the v2 equivalents of bodies and HAR entries (source code is never changed)')
    .option('--write', 'with --fix: write them next to each source as NAME.v2.EXT, never over a file')
    .option('--rules', 'list the rules');
  withConventions(command);
  withExamples(command, [
    ['check a shop and your payorder setup', 'payorder migrate-check src/ --config'],
    ['in CI code scanning', 'payorder migrate-check . --format sarif > migrate.sarif'],
    ['v2 bodies from recorded v1 ones', 'payorder migrate-check orders.ndjson --fix > orders.v2.ndjson'],
    [
      'only the errors, as a list',
      'payorder migrate-check src/ --json | jq -r \'.findings[] | select(.severity == "error") | .location.file\' | sort -u',
    ],
  ]);
  command.action((paths: string[], flags: MigrateFlags) => runMigrateCheck(paths, flags, ctx));
}

/**
 * `payorder migrate-check`, the work: check the paths (and payorder's own setup), convert bodies
 * with --fix, and report in text, JSON or SARIF. Exit 1 when not ready is the report's verdict.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { readAll } from '../cli/read-all.js';
import type { Context } from '../context.js';
import { type EnvName, normalizeEnv } from '../contract/environments.js';
import { CliError, usageError } from '../errors.js';
import { renderHuman, renderJson, renderSarif, summarize } from '../migrate/report.js';
import { type Finding, RULES } from '../migrate/rules.js';
import { type ScanResult, scan } from '../migrate/scan.js';
import { checkConfig, checkLive } from '../migrate/setup.js';
import { note, painter } from '../output/messages.js';
import { chooseFormat, render } from '../output/render.js';
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

export interface MigrateOptions {
  paths: string[];
  config: boolean;
  live?: EnvName;
  report: 'text' | 'json' | 'sarif';
  fix: boolean;
  write: boolean;
  rulesOnly: boolean;
  json: boolean;
}

export function parseMigrateOptions(paths: string[], flags: MigrateFlags): MigrateOptions {
  const options: MigrateOptions = {
    paths,
    config: Boolean(flags.config),
    live: flags.live === undefined ? undefined : normalizeEnv(flags.live),
    report: flags.format ?? (flags.json ? 'json' : 'text'),
    fix: Boolean(flags.fix),
    write: Boolean(flags.write),
    rulesOnly: Boolean(flags.rules),
    json: Boolean(flags.json),
  };
  if (options.rulesOnly) return options;
  if (paths.length === 0 && !options.config && !options.live)
    throw usageError('give files or folders to check (- for stdin), --config or --live ENV', {
      hint: 'payorder migrate-check src/ --config',
    });
  if (options.write && !options.fix) throw usageError('--write goes with --fix');
  return options;
}

export type MigrateResult = { kind: 'rules' } | { kind: 'report'; result: ScanResult; findings: Finding[] };

export async function runMigrateCheck(options: MigrateOptions, ctx: Context): Promise<MigrateResult> {
  if (options.rulesOnly) return { kind: 'rules' };
  const stdinText = options.paths.includes('-') ? await readAll(ctx.io.stdin) : undefined;
  const result = scan(options.paths, { fix: options.fix, stdinText });
  if (options.fix && result.fixed.length === 0)
    throw usageError('--fix converts bodies and HAR captures; none were given');
  const findings = [...result.findings];
  if (options.config) findings.push(...(await checkConfig(ctx)));
  if (options.live) findings.push(...(await checkLive(ctx, options.live)));
  return { kind: 'report', result, findings };
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

function writeFixed(result: ScanResult, options: MigrateOptions, ctx: Context): void {
  for (const fixed of result.fixed) {
    const text = serialize(fixed.format === 'har' ? 'array' : fixed.format, fixed.items);
    if (fixed.skipped > 0)
      note(
        ctx,
        `${fixed.file}: ${fixed.skipped} item${fixed.skipped === 1 ? '' : 's'} could not be converted (see the findings); left out`,
      );
    if (!options.write) {
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

export function renderMigrateCheck(outcome: MigrateResult, options: MigrateOptions, ctx: Context): void {
  if (outcome.kind === 'rules') {
    render(ctx, chooseFormat(ctx, { asked: options.json ? 'json' : undefined, whenPiped: 'table' }), {
      json: RULES,
      human: () =>
        RULES.map(
          (rule) => `${rule.id}  ${rule.severity.padEnd(7)}  ${rule.name.padEnd(20)}  ${rule.summary}`,
        ).join('\n'),
    });
    return;
  }
  const { result, findings } = outcome;
  if (options.fix) writeFixed(result, options, ctx);
  const summary = summarize(findings, result.files, ctx.clock());
  const report =
    options.report === 'sarif'
      ? renderSarif(findings, VERSION)
      : options.report === 'json'
        ? renderJson(findings, summary)
        : renderHuman(findings, summary, painter(ctx.io.colorOut));
  // With --fix on stdout, the converted bodies are the data; the report goes to stderr.
  (options.fix && !options.write ? ctx.io.stderr : ctx.io.stdout).write(report);
  if (!summary.ready)
    throw new CliError(
      'rejected',
      `not ready for v2: ${summary.counts.error} error${summary.counts.error === 1 ? '' : 's'}`,
      { reported: true },
    );
}

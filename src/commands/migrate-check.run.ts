/**
 * `payorder migrate-check`, the work: check the paths (and payorder's own setup), convert bodies
 * with --fix, and report in text, JSON or SARIF. Exit 1 when not ready is the report's verdict.
 */
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { readAll } from '../cli/read-all.js';
import type { Context } from '../context.js';
import { type EnvName, normalizeEnv } from '../contract/environments.js';
import { CliError, usageError } from '../errors.js';
import { configuredAddresses } from '../migrate/codemod/configured.js';
import { planCodemod, type UnitPlan } from '../migrate/codemod/plan.js';
import { renderCodemod } from '../migrate/codemod/report.js';
import type { AddressKind, V2Addresses } from '../migrate/codemod/v2-addresses.js';
import { writeInPlace } from '../migrate/codemod/write.js';
import { applyBaseline, readBaseline, writeBaseline } from '../migrate/gate.js';
import { type Outcome, renderHuman, renderJson, renderSarif, summarize } from '../migrate/report.js';
import type { Finding } from '../migrate/rules.js';
import { rulesDoc, rulesText } from '../migrate/rules-doc.js';
import { type FixedFile, scan } from '../migrate/scan.js';
import { checkConfig, checkLive } from '../migrate/setup.js';
import { chooseFormat, render } from '../output/render.js';
import { note, painter } from '../terminal/messages.js';
import { VERSION } from '../version.js';

export interface MigrateFlags {
  config?: boolean;
  live?: string;
  profile?: string;
  json?: boolean;
  format?: 'text' | 'json' | 'sarif';
  fix?: boolean;
  write?: boolean;
  rules?: boolean;
  exclude?: string[];
  baseline?: string;
  baselineUpdate?: boolean;
  force?: boolean;
  v2AuthUrl?: string;
  v2CheckoutUrl?: string;
}

export interface MigrateOptions {
  paths: string[];
  config: boolean;
  live?: EnvName;
  /** --profile as given: whose login --live uses (checked when it is resolved). */
  profile?: string;
  report: 'text' | 'json' | 'sarif';
  fix: boolean;
  write: boolean;
  rulesOnly: boolean;
  json: boolean;
  /** --exclude patterns, in .gitignore syntax. */
  exclude: string[];
  /** The baseline file, and whether to write it anew from this run (--baseline-update). */
  baseline?: { path: string; update: boolean };
  /** --force: --write in place outside git, or over uncommitted changes. */
  force: boolean;
  /** --v2-auth-url / --v2-checkout-url: the v2 addresses that replace v1 ones in code and configuration. */
  v2: Partial<Record<AddressKind, string>>;
}

function v2Flag(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`${flag} needs an http(s) address, not "${value}"`, { field: flag });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw usageError(`${flag} needs an http(s) address, not "${value}"`, { field: flag });
  return value;
}

export function parseMigrateOptions(paths: string[], flags: MigrateFlags): MigrateOptions {
  const options: MigrateOptions = {
    paths,
    config: Boolean(flags.config),
    live: flags.live === undefined ? undefined : normalizeEnv(flags.live),
    profile: flags.profile,
    report: flags.format ?? (flags.json ? 'json' : 'text'),
    fix: Boolean(flags.fix),
    write: Boolean(flags.write),
    rulesOnly: Boolean(flags.rules),
    json: Boolean(flags.json),
    exclude: flags.exclude ?? [],
    baseline:
      flags.baseline === undefined
        ? undefined
        : { path: flags.baseline, update: Boolean(flags.baselineUpdate) },
    force: Boolean(flags.force),
    v2: Object.fromEntries(
      Object.entries({
        auth: v2Flag(flags.v2AuthUrl, '--v2-auth-url'),
        checkout: v2Flag(flags.v2CheckoutUrl, '--v2-checkout-url'),
      }).filter(([, value]) => value !== undefined),
    ),
  };
  if (options.rulesOnly) return options;
  if (paths.length === 0 && !options.config && !options.live)
    throw usageError('give files or folders to check (- for stdin), --config or --live ENV', {
      hint: 'payorder migrate-check src/ --config',
    });
  if (options.write && !options.fix) throw usageError('--write goes with --fix');
  if (options.force && !options.write)
    throw usageError('--force goes with --fix --write', { field: '--force' });
  if (Object.keys(options.v2).length > 0 && !options.fix)
    throw usageError('--v2-auth-url and --v2-checkout-url go with --fix', { field: '--v2-auth-url' });
  if (options.profile !== undefined && !options.live)
    throw usageError('--profile goes with --live', { field: '--profile' });
  if (flags.baselineUpdate && !options.baseline)
    throw usageError('--baseline-update goes with --baseline FILE', { field: '--baseline-update' });
  return options;
}

export type MigrateResult =
  | { kind: 'rules' }
  | ({
      kind: 'report';
      fixed: FixedFile[];
      /** --fix: the codemod's plan for source and configuration, by integration unit. */
      units: UnitPlan[];
      /** --fix --write: whether the unblocked units were written in place. */
      written: boolean;
      baselineWritten?: { path: string; findings: number };
      /** payorder-ignore comments that suppress nothing. */
      unusable: Array<{ file: string; line: number }>;
    } & Outcome);

export async function runMigrateCheck(options: MigrateOptions, ctx: Context): Promise<MigrateResult> {
  if (options.rulesOnly) return { kind: 'rules' };
  const stdinText = options.paths.includes('-') ? await readAll(ctx.io.stdin) : undefined;
  const result = await scan(options.paths, {
    fix: options.fix,
    stdinText,
    exclude: options.exclude,
    baseline: options.baseline?.path,
  });
  const units = options.fix
    ? await planCodemod(result.findings, {
        given: options.paths.filter((path) => path !== '-'),
        addresses: { given: options.v2, known: await configuredAddresses(ctx) } satisfies V2Addresses,
        bodies: new Set(result.fixed.map((file) => file.file)),
        cwd: process.cwd(),
        exclude: options.exclude,
      })
    : [];
  if (options.fix && result.fixed.length === 0 && units.length === 0)
    throw usageError(
      '--fix found nothing to convert or change: no body, capture, source or configuration with findings',
    );
  const ready = units.filter((unit) => unit.blocked.length === 0);
  if (options.write && ready.length > 0)
    writeInPlace(
      ready.flatMap((unit) => unit.files),
      options.force,
    );
  // Once written, a unit's findings are those of its files as they are now.
  const writtenFiles = new Set(
    options.write ? ready.flatMap((unit) => unit.files.map((file) => file.file)) : [],
  );
  const findings = options.write
    ? [
        ...result.findings.filter(
          (finding) => !ready.some((unit) => isUnder(finding.location.file, unit.root)),
        ),
        ...ready.flatMap((unit) => unit.remaining),
      ]
    : result.findings;
  const setup = options.config ? await checkConfig(ctx) : [];
  const notChecked: string[] = [];
  if (options.live) {
    const live = await checkLive(ctx, options.live, options.profile);
    setup.push(...live.findings);
    if (live.notChecked) notChecked.push(live.notChecked);
  }
  const gate = baselined(findings, options.baseline);
  return {
    kind: 'report',
    fixed: result.fixed,
    units,
    written: writtenFiles.size > 0,
    unusable: result.unusable,
    findings: gate.fresh,
    setup,
    files: result.files,
    serviceFiles: result.serviceFiles,
    suppressed: result.suppressed,
    excluded: result.excluded,
    baselined: gate.baselined,
    baselineUsed: options.baseline !== undefined,
    notChecked,
    ...(gate.written ? { baselineWritten: gate.written } : {}),
  };
}

/**
 * The findings the baseline accepts, and the new ones. With no baseline file yet (or
 * --baseline-update), this run's findings become the baseline and are all accepted.
 */
function baselined(
  findings: Finding[],
  baseline: MigrateOptions['baseline'],
): { fresh: Finding[]; baselined: Finding[]; written?: { path: string; findings: number } } {
  if (!baseline) return { fresh: findings, baselined: [] };
  const entries = baseline.update ? undefined : readBaseline(baseline.path);
  if (entries) return applyBaseline(baseline.path, entries, findings);
  try {
    writeBaseline(baseline.path, findings);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) throw error;
    throw new CliError('io', `--baseline: cannot write ${baseline.path} (${code})`, { field: '--baseline' });
  }
  return { fresh: [], baselined: findings, written: { path: baseline.path, findings: findings.length } };
}

/** Whether `file` lies in the folder `root` (both as shown, relative to the working folder or absolute). */
function isUnder(file: string, root: string): boolean {
  const relativePath = relative(resolve(root), resolve(file));
  return relativePath === '' || (!relativePath.startsWith('..') && !isAbsolute(relativePath));
}

/** "orders.ndjson" → "orders.v2.ndjson", "checkout.har" → "checkout.v2.har". */
function v2Name(file: string): string {
  return join(dirname(file), `${basename(file, extname(file))}.v2${extname(file)}`);
}

/** Creates `target` with `text`; never over an existing file, even one that appeared a moment ago. */
function createFile(target: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(target, 'wx');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw usageError(`--write: ${target} already exists; payorder never writes over a file`);
    throw new CliError('io', `--write: cannot create ${target} (${code ?? (error as Error).message})`);
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

function writeFixed(fixed: FixedFile[], options: MigrateOptions, ctx: Context): void {
  if (options.write) {
    if (fixed.some((file) => file.file === '<stdin>')) throw usageError('--write needs files, not stdin');
    // Refuse before writing anything when a target is there already.
    for (const file of fixed) {
      const target = v2Name(file.file);
      if (existsSync(target))
        throw usageError(`--write: ${target} already exists; payorder never writes over a file`);
    }
  }
  for (const file of fixed) {
    for (const line of file.notes) note(ctx, line);
    if (!options.write) {
      ctx.io.stdout.write(file.text);
      continue;
    }
    const target = v2Name(file.file);
    createFile(target, file.text);
    note(ctx, `wrote ${target}`);
  }
}

export function renderMigrateCheck(outcome: MigrateResult, options: MigrateOptions, ctx: Context): void {
  if (outcome.kind === 'rules') {
    render(ctx, chooseFormat(ctx, { asked: options.json ? 'json' : undefined, whenPiped: 'table' }), {
      json: rulesDoc(),
      human: rulesText,
    });
    return;
  }
  if (options.fix) {
    writeFixed(outcome.fixed, options, ctx);
    renderCodemod(outcome.units, { write: options.write, written: outcome.written }, ctx);
  }
  for (const { file, line } of outcome.unusable)
    note(
      ctx,
      `${file}:${line}: this payorder-ignore suppresses nothing: it needs a rule id and a reason (payorder-ignore PO107: why)`,
    );
  if (outcome.baselineWritten)
    note(
      ctx,
      `recorded ${outcome.baselineWritten.findings} finding${outcome.baselineWritten.findings === 1 ? '' : 's'} as the baseline in ${outcome.baselineWritten.path}`,
    );
  const summary = summarize(outcome, ctx.clock());
  const findings = [...outcome.findings, ...outcome.setup];
  const report =
    options.report === 'sarif'
      ? renderSarif(
          {
            findings,
            suppressed: outcome.suppressed,
            baselined: outcome.baselined,
            baselineUsed: outcome.baselineUsed,
          },
          VERSION,
        )
      : options.report === 'json'
        ? renderJson(findings, summary)
        : renderHuman(findings, summary, painter(ctx.io.colorOut));
  // With --fix on stdout, the converted bodies are the data; the report goes to stderr.
  (options.fix && !options.write ? ctx.io.stderr : ctx.io.stdout).write(report);
  if (summary.ready === false)
    throw new CliError(
      'rejected',
      `not ready for v2: ${summary.counts.error} error${summary.counts.error === 1 ? '' : 's'}`,
      { reported: true },
    );
  // Exit 5: the service could not be reached, so there is no verdict either way.
  if (summary.ready === null)
    throw new CliError('network', `could not check: ${summary.not_checked.join('; ')}`, { reported: true });
}

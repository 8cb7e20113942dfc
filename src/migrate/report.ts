/**
 * How migrate-check reports: text for people (grouped by file, with a summary and the sunset),
 * JSON for scripts, and SARIF 2.1.0 for code-scanning in CI.
 */
import type { ChalkInstance } from 'chalk';
import { daysUntilSunset, V1_SUNSET } from '../contract/versions.js';
import type { Suppressed } from './gate.js';
import { type Finding, type Location, RULES, type Severity } from './rules.js';

export interface Summary {
  /** True with no error; false with one; null when nothing was wrong but something could not be checked. */
  ready: boolean | null;
  /** Files read. */
  files: number;
  /** Files read that have a finding. */
  files_with_findings: number;
  /** Files read that talk to the service (the others get info at most). */
  service_files: number;
  /** Findings set aside by a `payorder-ignore` comment (not in counts). */
  suppressed: number;
  /** Files and folders left out by --exclude and .payorderignore. */
  excluded: number;
  /** Findings the baseline holds (not in counts). */
  baselined: number;
  /** Findings about payorder's own setup (--config, --live). */
  setup_findings: number;
  counts: Record<Severity, number>;
  sunset: { date: string; days_left: number };
  /** What could not be checked, and why (the service unreachable for --live). */
  not_checked: string[];
}

export interface Outcome {
  /** Findings in the files read. */
  findings: Finding[];
  /** Findings about payorder's own setup. */
  setup: Finding[];
  files: number;
  serviceFiles: number;
  suppressed: Suppressed[];
  excluded: number;
  baselined: Finding[];
  /** Whether a baseline was given: SARIF then marks each result new or unchanged. */
  baselineUsed: boolean;
  notChecked: string[];
}

export function summarize(outcome: Outcome, now: Date): Summary {
  const { findings, setup, files, serviceFiles, notChecked } = outcome;
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  for (const f of setup) counts[f.severity]++;
  return {
    ready: counts.error > 0 ? false : notChecked.length > 0 ? null : true,
    files,
    files_with_findings: new Set(findings.map((f) => f.location.file)).size,
    service_files: serviceFiles,
    suppressed: outcome.suppressed.length,
    excluded: outcome.excluded,
    baselined: outcome.baselined.length,
    setup_findings: setup.length,
    counts,
    sunset: { date: V1_SUNSET, days_left: daysUntilSunset(now) },
    not_checked: notChecked,
  };
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function where(location: Location): string {
  if (location.line !== undefined) return `${location.line}:${location.column ?? 1}`;
  return [location.item, location.pointer].filter(Boolean).join(' ');
}

export function renderHuman(findings: Finding[], summary: Summary, paint: ChalkInstance): string {
  const lines: string[] = [];
  // Grouped with one push per finding: copying a file's list for each finding made a file with many
  // findings take time quadratic in their number.
  const byFile = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byFile.get(f.location.file);
    if (list) list.push(f);
    else byFile.set(f.location.file, [f]);
  }
  const color = { error: paint.red, warning: paint.yellow, info: paint.blue };
  for (const [file, list] of byFile) {
    lines.push(paint.underline(file));
    const width = list.reduce((widest, f) => Math.max(widest, where(f.location).length), 0);
    for (const f of list) {
      lines.push(
        `  ${paint.dim(where(f.location).padEnd(width))}  ${color[f.severity](f.severity.padEnd(7))} ${paint.dim(f.rule)}  ${f.message}`,
      );
      lines.push(
        `  ${' '.repeat(width)}  ${' '.repeat(7)} ${' '.repeat(f.rule.length)}  ${paint.green('fix:')} ${f.fix}`,
      );
      if (f.replacement)
        lines.push(
          `  ${' '.repeat(width)}  ${' '.repeat(7)} ${' '.repeat(f.rule.length)}  ${paint.dim('→')} ${f.replacement}`,
        );
    }
    lines.push('');
  }
  const { counts } = summary;
  const tally = `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info`;
  const read = `${plural(summary.files, 'file')} read, ${summary.service_files} talking to the service`;
  const notChecked = summary.not_checked.join('; ');
  if (summary.ready === true) lines.push(paint.green(`✓ ready for v2 (${tally}; ${read})`));
  else if (summary.ready === null)
    lines.push(paint.yellow(`? could not check: ${notChecked} (${tally}; ${read})`));
  else {
    const places = [
      ...(summary.files_with_findings > 0 ? [`in ${summary.files_with_findings} of ${read}`] : []),
      ...(summary.setup_findings > 0 ? ['in your payorder setup'] : []),
    ];
    lines.push(paint.red(`✗ not ready for v2: ${tally} ${places.join(' and ')}`));
    if (notChecked) lines.push(paint.yellow(`? not checked: ${notChecked}`));
  }
  const aside = [
    ...(summary.suppressed > 0 ? [`${summary.suppressed} suppressed in the code`] : []),
    ...(summary.baselined > 0 ? [`${summary.baselined} in the baseline`] : []),
    ...(summary.excluded > 0 ? [`${plural(summary.excluded, 'path')} excluded`] : []),
  ];
  if (aside.length > 0) lines.push(paint.dim(`  not counted: ${aside.join(', ')}`));
  const { days_left: days } = summary.sunset;
  lines.push(
    days < 0
      ? paint.bold(`v1 was switched off on ${V1_SUNSET}.`)
      : paint.bold(
          `v1 is switched off on ${V1_SUNSET}: ${days === 0 ? 'today is its last day' : `${days} day${days === 1 ? '' : 's'} left`}.`,
        ),
  );
  return `${lines.join('\n')}\n`;
}

export function renderJson(findings: Finding[], summary: Summary): string {
  return `${JSON.stringify({ ...summary, findings }, null, 2)}\n`;
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

/** What SARIF reports: the findings, and those set aside, marked as such. */
export interface SarifInput {
  findings: Finding[];
  suppressed: Suppressed[];
  baselined: Finding[];
  baselineUsed: boolean;
}

export function renderSarif(input: SarifInput, version: string): string {
  const rules = RULES.map((rule) => ({
    id: rule.id,
    name: rule.name,
    shortDescription: { text: rule.summary },
    fullDescription: {
      text: 'step' in rule ? `${rule.summary} (v2 migration step: ${rule.step}).` : `${rule.summary}.`,
    },
    help: { text: rule.help },
    defaultConfiguration: { level: LEVEL[rule.severity] },
  }));
  const result = (f: Finding) => {
    const region =
      f.location.line !== undefined
        ? { region: { startLine: f.location.line, startColumn: f.location.column ?? 1 } }
        : {};
    const logical = f.location.pointer
      ? {
          logicalLocations: [
            { fullyQualifiedName: [f.location.item, f.location.pointer].filter(Boolean).join(' ') },
          ],
        }
      : {};
    return {
      ruleId: f.rule,
      ruleIndex: RULES.findIndex((rule) => rule.id === f.rule),
      level: LEVEL[f.severity],
      message: { text: `${f.message}. Fix: ${f.fix}` },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: f.location.file.replace(/\\/g, '/') }, ...region },
          ...logical,
        },
      ],
    };
  };
  const { findings, suppressed, baselined, baselineUsed } = input;
  const state = (baselineState: 'new' | 'unchanged') => (baselineUsed ? { baselineState } : {});
  const results = [
    ...findings.map((f) => ({ ...result(f), ...state('new') })),
    ...baselined.map((f) => ({ ...result(f), ...state('unchanged') })),
    ...suppressed.map((f) => ({
      ...result(f),
      ...state('new'),
      suppressions: [{ kind: 'inSource', justification: f.reason }],
    })),
  ];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'payorder migrate-check', version, semanticVersion: version, rules } },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

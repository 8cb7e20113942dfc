/**
 * The rule table as documentation: `payorder migrate-check --rules` (text and JSON) and the table in
 * the README's "Migrating to v2" section are made here from RULES, so neither can drift from the
 * rules the checker applies (a test compares the README's copy with rulesMarkdown()).
 */
import { RULES, type Rule } from './rules.js';

/** One rule as --rules --json shows it: every field, `step` null when it covers no §9.3 step. */
export interface RuleDoc {
  id: string;
  name: string;
  severity: Rule['severity'];
  step: string | null;
  summary: string;
  help: string;
  bad: string;
  good: string;
}

export function rulesDoc(): RuleDoc[] {
  return RULES.map((rule: Rule) => ({
    id: rule.id,
    name: rule.name,
    severity: rule.severity,
    step: rule.step ?? null,
    summary: rule.summary,
    help: rule.help,
    bad: rule.bad,
    good: rule.good,
  }));
}

/** --rules for people: a block per rule, its id and severity first. */
export function rulesText(): string {
  return rulesDoc()
    .map((rule) =>
      [
        `${rule.id}  ${rule.severity.padEnd(7)}  ${rule.name}${rule.step ? ` (spec §9.3: ${rule.step})` : ''}`,
        `       ${rule.summary}`,
        `       bad:  ${rule.bad}`,
        `       good: ${rule.good}`,
      ].join('\n'),
    )
    .join('\n\n');
}

/** A table cell as inline code: pipes escaped (GitHub tables split on them even inside code). */
function code(text: string): string {
  const escaped = text.replace(/\|/g, '\\|');
  return escaped.includes('`') ? `\`\` ${escaped} \`\`` : `\`${escaped}\``;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The README's rule table, as Markdown (GitHub-flavoured), ending in a newline. */
export function rulesMarkdown(): string {
  const rows = rulesDoc().map((rule) =>
    [
      `**${rule.id}** ${rule.name}`,
      rule.severity,
      rule.step ? cell(rule.step) : '—',
      cell(rule.summary),
      code(rule.bad),
      code(rule.good),
    ].join(' | '),
  );
  return [
    '| Rule | Severity | Spec step (§9.3) | What it finds | Bad | Good |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
    '',
  ].join('\n');
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/migrate/rules.js';
import { rulesDoc, rulesMarkdown } from '../../src/migrate/rules-doc.js';

const README = join(import.meta.dirname, '../../README.md');
const START = /<!-- rules:start[^>]*-->\n/;
const END = '<!-- rules:end -->';

describe('the rule table is documentation', () => {
  it('every rule has a bad and a good example, different from each other', () => {
    for (const rule of RULES) {
      expect(rule.bad.trim(), rule.id).not.toBe('');
      expect(rule.good.trim(), rule.id).not.toBe('');
      expect(rule.bad, rule.id).not.toBe(rule.good);
    }
    expect(rulesDoc().map((rule) => rule.id)).toEqual(RULES.map((rule) => rule.id));
  });

  it("the README's table is the one rulesMarkdown() makes", () => {
    const readme = readFileSync(README, 'utf8');
    const start = START.exec(readme);
    expect(start, 'README.md has no <!-- rules:start --> marker').not.toBeNull();
    const end = readme.indexOf(END, start!.index);
    expect(end, 'README.md has no <!-- rules:end --> marker').toBeGreaterThan(-1);
    const table = readme.slice(start!.index + start![0].length, end);
    const expected = rulesMarkdown();
    expect(
      table,
      `README.md's rule table differs from the rules; put this between its rules markers:\n\n${expected}`,
    ).toBe(expected);
  });

  it('a table cell keeps a pipe in an example from splitting the row', () => {
    for (const row of rulesMarkdown().trim().split('\n').slice(2))
      expect(row.split(/(?<!\\)\|/).length, row).toBe(8);
  });
});

/**
 * The gate's own rules, on its functions: which comments suppress which lines, and how a baseline is
 * written, read and matched. The end-to-end runs are in test/commands/migrate-check-gate.test.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyBaseline,
  isBaseline,
  readBaseline,
  suppressedBy,
  suppressionsOf,
  writeBaseline,
} from '../../src/migrate/gate.js';
import { type Finding, finding } from '../../src/migrate/rules.js';
import { tempDir } from '../helpers/cli.js';

const at = (file: string, line: number | undefined, rule: Finding['rule'] = 'PO107', message = 'm') =>
  finding(rule, { file, ...(line === undefined ? {} : { line, column: 1 }) }, message, 'fix');

/** Each line's directives as "LINE RULES: reason". */
const directives = (text: string) => {
  const { byLine, unusable } = suppressionsOf(text);
  const lines = [...byLine].flatMap(([line, list]) =>
    list.map((d) => `${line} ${[...d.rules].join(',')}: ${d.reason}`),
  );
  return { lines, unusable };
};

describe('suppressions', () => {
  it('a comment on a line of its own covers that line and the next; after code, only its own line', () => {
    expect(
      directives(
        [
          '// payorder-ignore PO107: our own order states',
          'if (status === "PENDING") wait();',
          'x(); // payorder-ignore PO110: our own order number',
          'y();',
          '    # payorder-ignore PO104: indented, in a block',
          '    z()',
        ].join('\n'),
      ),
    ).toEqual({
      lines: [
        '1 PO107: our own order states',
        '2 PO107: our own order states',
        '3 PO110: our own order number',
        '5 PO104: indented, in a block',
        '6 PO104: indented, in a block',
      ],
      unusable: [],
    });
  });

  it('each language’s comment opener, several rules, and a closing */ or --> left out of the reason', () => {
    expect(
      directives(
        [
          '# payorder-ignore PO101, PO106: the shop’s own routes',
          '/* payorder-ignore PO104: prices shown, not sent */',
          '<!-- payorder-ignore PO105: the docs page -->',
          '-- payorder-ignore PO110: SQL',
          "' payorder-ignore PO102: VB",
          'REM payorder-ignore PO103: batch',
          '; payorder-ignore PO108: ini',
        ].join('\n'),
      ).lines.filter((line, index, all) => all.findIndex((l) => l.slice(2) === line.slice(2)) === index),
    ).toEqual([
      '1 PO101,PO106: the shop’s own routes',
      '2 PO104: prices shown, not sent',
      '3 PO105: the docs page',
      '4 PO110: SQL',
      '5 PO102: VB',
      '6 PO103: batch',
      '7 PO108: ini',
    ]);
  });

  it('spacing inside a directive is free: none or several around the opener, the commas and the colon', () => {
    expect(
      directives(
        [
          'a(); //payorder-ignore PO107:tight',
          'b(); //   payorder-ignore   PO101 ,  PO106 :  spaced out  ',
          'c(); # payorder-ignore PO101,PO106: no spaces',
        ].join('\n'),
      ),
    ).toEqual({
      lines: ['1 PO107: tight', '2 PO101,PO106: spaced out', '3 PO101,PO106: no spaces'],
      unusable: [],
    });
  });

  it('without a reason, without a rule id, or with an unknown one, a comment suppresses nothing and is told', () => {
    expect(
      directives(
        [
          '// payorder-ignore PO107',
          '// payorder-ignore PO107:   ',
          '// payorder-ignore: no rule',
          '// payorder-ignore PO999: no such rule',
          '// payorder-ignore PO107, PO998: one unknown',
          'const word = "payorder-ignore PO107: in a string, not a comment";',
          '// payorder-ignored PO107: another word',
          '// payorder-ignore-next PO107: another directive',
        ].join('\n'),
      ),
    ).toEqual({ lines: [], unusable: [1, 2, 3, 4, 5, 8] });
  });

  it('a finding is suppressed only for the rules named, on the lines covered, with the reason given', () => {
    const suppressions = suppressionsOf('a();\n// payorder-ignore PO107: ours\nb();\nc();');
    expect(suppressedBy(at('f.js', 3, 'PO107'), suppressions)).toBe('ours');
    expect(suppressedBy(at('f.js', 2, 'PO107'), suppressions)).toBe('ours');
    expect(suppressedBy(at('f.js', 3, 'PO110'), suppressions)).toBeUndefined();
    expect(suppressedBy(at('f.js', 4, 'PO107'), suppressions)).toBeUndefined();
    expect(suppressedBy(at('f.js', 1, 'PO107'), suppressions)).toBeUndefined();
    expect(suppressedBy(at('f.js', undefined, 'PO107'), suppressions)).toBeUndefined();
    expect(suppressedBy(at('f.js', 3, 'PO107'), undefined)).toBeUndefined();
  });
});

describe('baseline', () => {
  it('is written with paths relative to its folder, sorted, without lines, and read back', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'ci'));
    const path = join(dir, 'ci', 'baseline.json');
    const item = {
      ...at(join(dir, 'src/b.js'), 9, 'PO104'),
      location: { file: '<stdin>', item: '3', pointer: '/amount' },
    };
    writeBaseline(path, [at(join(dir, 'src/b.js'), 9, 'PO110', 'z'), at(join(dir, 'src/a.js'), 4), item]);
    const text = readFileSync(path, 'utf8');
    expect(isBaseline(text)).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({
      'payorder-baseline': 1,
      findings: [
        { file: '../src/a.js', rule: 'PO107', message: 'm' },
        { file: '../src/b.js', rule: 'PO110', message: 'z' },
        { file: '<stdin>', rule: 'PO104', message: 'm', item: '3', pointer: '/amount' },
      ],
    });
    expect(readBaseline(path)).toEqual(JSON.parse(text).findings);
  });

  it('matches each entry once, wherever the finding moved; a second finding of the kind is new', () => {
    const dir = tempDir();
    const path = join(dir, 'baseline.json');
    writeBaseline(path, [at(join(dir, 'a.js'), 4)]);
    const moved = at(join(dir, 'a.js'), 40);
    const again = at(join(dir, 'a.js'), 41);
    const elsewhere = at(join(dir, 'b.js'), 4);
    const other = at(join(dir, 'a.js'), 4, 'PO107', 'another message');
    const { fresh, baselined } = applyBaseline(path, readBaseline(path)!, [moved, again, elsewhere, other]);
    expect(baselined).toEqual([moved]);
    expect(fresh).toEqual([again, elsewhere, other]);
  });

  it('a body’s finding matches only at the same item and pointer', () => {
    const dir = tempDir();
    const path = join(dir, 'baseline.json');
    const inBody = (item: string, pointer: string) => ({
      ...at('<stdin>', undefined, 'PO104'),
      location: { file: '<stdin>', item, pointer },
    });
    writeBaseline(path, [inBody('1', '/amount')]);
    const same = inBody('1', '/amount');
    const otherItem = inBody('2', '/amount');
    const otherPointer = inBody('1', '/items/0/amount');
    const { fresh, baselined } = applyBaseline(path, readBaseline(path)!, [otherItem, otherPointer, same]);
    expect(baselined).toEqual([same]);
    expect(fresh).toEqual([otherItem, otherPointer]);
  });

  it('none yet is undefined; a file that is not one, or of another version, or unreadable, is bad usage naming the flag', () => {
    const dir = tempDir();
    expect(readBaseline(join(dir, 'none.json'))).toBeUndefined();
    const bad = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    for (const path of [
      bad('other.json', '{"findings": []}'),
      bad('v2.json', '{"payorder-baseline": 2, "findings": []}'),
      bad('nolist.json', '{"payorder-baseline": 1, "findings": {}}'),
      bad('broken.json', '{"payorder-baseline": 1,'),
    ])
      expect(() => readBaseline(path)).toThrow(
        expect.objectContaining({
          kind: 'usage',
          message: `--baseline: ${path} is not a payorder baseline (version 1)`,
          details: { field: '--baseline' },
        }),
      );
    expect(() => readBaseline(dir)).toThrow(
      expect.objectContaining({
        kind: 'usage',
        message: `--baseline: cannot read ${dir} (EISDIR)`,
        details: { field: '--baseline' },
      }),
    );
    expect(isBaseline('{ "findings": [], "payorder-baseline": 1 }')).toBe(false);
    expect(isBaseline('{\n  "payorder-baseline": 1')).toBe(true);
  });
});

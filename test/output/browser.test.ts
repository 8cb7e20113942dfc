import { describe, expect, it } from 'vitest';
import { shellWords } from '../../src/output/browser.js';

describe('shellWords: $BROWSER split as a shell splits it, nothing expanded', () => {
  it.each([
    ['firefox', ['firefox']],
    ['  open  -a   Safari ', ['open', '-a', 'Safari']],
    ["'/Applications/My Browser' --new-window", ['/Applications/My Browser', '--new-window']],
    ['"C:\\\\Program Files\\\\b.exe" -x', ['C:\\Program Files\\b.exe', '-x']],
    ['a\\ b c', ['a b', 'c']],
    ['say "it\'s \\"quoted\\"" \'$HOME\'', ['say', 'it\'s "quoted"', '$HOME']],
    ['"" x', ['', 'x']],
    ['pre"fix"\'ed\'', ['prefixed']],
    ['', []],
  ])('%j → %j', (line, words) => {
    expect(shellWords(line)).toEqual(words);
  });

  it.each([
    ["'open", "'"],
    ['"open', '"'],
  ])('refuses an unterminated quote: %j', (line, quote) => {
    expect(() => shellWords(line)).toThrow(`an unterminated ${quote} quote`);
  });
});

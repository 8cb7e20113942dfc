/**
 * Text from a server or a file shown on a terminal: every control character that could retitle the
 * window, clear the screen or move the cursor becomes a visible escape; printable text is untouched.
 */
import { describe, expect, it } from 'vitest';
import { escapeControl, escapeStrings } from '../../src/terminal/terminal-text.js';

/** Sets the window title to "x", rings the bell, then clears the screen. */
const HOSTILE = '\u001b]0;x\u0007\u001b[2J';
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('escapeControl', () => {
  it('an OSC title sequence, a bell and a clear-screen become visible escapes', () => {
    expect(escapeControl(`Invoice ${HOSTILE}42`)).toBe('Invoice \\u001b]0;x\\u0007\\u001b[2J42');
  });

  it('tab, carriage return and line feed get their short names; line feeds are kept on request', () => {
    expect(escapeControl('a\tb\rc\nd')).toBe('a\\tb\\rc\\nd');
    expect(escapeControl('a\tb\rc\nd', { keepNewlines: true })).toBe('a\\tb\\rc\nd');
  });

  it('every C0 control, DEL and every C1 control (a bare 0x9b is a CSI) is escaped', () => {
    const controls = [
      ...Array.from({ length: 0x20 }, (_, i) => i),
      ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
    ].map((code) => String.fromCharCode(code));
    for (const char of controls) {
      const shown = escapeControl(`<${char}>`);
      expect(shown, `U+${char.charCodeAt(0).toString(16)}`).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(shown).toMatch(/^<\\(t|r|n|u00[0-9a-f]{2})>$/);
    }
    expect(escapeControl('\u009b2J')).toBe('\\u009b2J');
    expect(escapeControl('\u0000')).toBe('\\u0000');
    expect(escapeControl('\u007f')).toBe('\\u007f');
  });

  it('printable text is left as it is: accents, CJK, emoji, quotes and backslashes', () => {
    for (const text of [
      'Café Zürich',
      '東京 注文',
      'Gift 🎁',
      'say "hi"',
      'C:\\path\\u001b',
      ' spaced  out ',
    ])
      expect(escapeControl(text)).toBe(text);
  });
});

describe('escapeStrings', () => {
  it('escapes every string at any depth and leaves other values and the shape alone', () => {
    const order = {
      uuid: 'u-1',
      status: `PAID${HOSTILE}`,
      amount_cents: '1250',
      currency: null,
      count: 3,
      paid: true,
      links: { checkout: `https://pay.example/${HOSTILE}`, success: null },
      tags: ['ok', `\u0007bell`],
    };
    const shown = escapeStrings(order);
    expect(shown).toEqual({
      uuid: 'u-1',
      status: 'PAID\\u001b]0;x\\u0007\\u001b[2J',
      amount_cents: '1250',
      currency: null,
      count: 3,
      paid: true,
      links: { checkout: 'https://pay.example/\\u001b]0;x\\u0007\\u001b[2J', success: null },
      tags: ['ok', '\\u0007bell'],
    });
    expect(JSON.stringify(shown)).not.toMatch(RAW_CONTROL);
    // A copy: what JSON output prints is the original, exact value.
    expect(order.status).toBe(`PAID${HOSTILE}`);
  });

  it('null, undefined and plain strings', () => {
    expect(escapeStrings(null)).toBeNull();
    expect(escapeStrings(undefined)).toBeUndefined();
    expect(escapeStrings(HOSTILE)).toBe('\\u001b]0;x\\u0007\\u001b[2J');
  });
});

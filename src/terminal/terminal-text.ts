/**
 * Text from a server or a file never drives the terminal: control characters (escape sequences that
 * set the window title, clear the screen, move the cursor) are shown as visible escapes instead.
 * Line breaks are kept where a text may span lines; payorder's own colors are added afterwards.
 */

// C0 controls but the line feed, DEL, and C1 controls (a bare 0x9b starts a sequence too).
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const CONTROL_AND_NEWLINE = /[\u0000-\u001f\u007f-\u009f]/g;

const visible = (char: string) => {
  if (char === '\t') return '\\t';
  if (char === '\r') return '\\r';
  if (char === '\n') return '\\n';
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
};

/** `text` with every control character (line breaks too, unless `keepNewlines`) made visible. */
export function escapeControl(text: string, { keepNewlines = false } = {}): string {
  return text.replace(keepNewlines ? CONTROL : CONTROL_AND_NEWLINE, visible);
}

/** A copy of a JSON-like value with every string escaped: what a table may show of it. */
export function escapeStrings<T>(value: T): T {
  if (typeof value === 'string') return escapeControl(value) as T;
  if (Array.isArray(value)) return value.map(escapeStrings) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeStrings(v)])) as T;
  return value;
}

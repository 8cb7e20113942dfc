/**
 * The cheap part of the source check, in one linear pass over the text: whether a file can concern
 * the service at all, and which of its top-level statements need parsing. A light lexer finds where
 * top-level statements start (outside strings, comments and brackets); the statements that mention
 * the service, and those defining or using the names they rely on, are parsed together as included
 * ranges of one tree, so offsets stay the file's. Most of a real tree never mentions the service
 * and is never parsed.
 */
import { indexAt } from '../positions.js';
import type { LanguageId } from './languages.js';

/** Anything a source rule can fire on. Files without it are not parsed. */
export const RELEVANT =
  /\/1(?![\w.])|user_?name|checkout|order_?number|ref_?number|PENDING|REFUNDED|notification_url|callback_(?:success|fail)|grant_type|client_secret|\/order\b|pay_?order|api_?version/i;

/** Statements that matter to a rule even without the service's names: amounts being formatted. */
const FORMATTING = /toFixed|number_format|setScale|FormatFloat|\.2f|%02d|"[FN]2"|round\(|amount/i;

/** Statements parsed for what they say themselves. */
const CHOSEN = new RegExp(`${RELEVANT.source}|${FORMATTING.source}`, 'i');

/** Names worth following into other statements: addresses, clients, configuration, money. */
const FOLLOWED =
  /url|uri|host|base|api|endpoint|prefix|client|http|auth|checkout|pay|order|token|config|setting|option|format|amount|price|decimal|cents|body|payload|status/i;

interface Lexicon {
  line: string[];
  block: boolean;
  triple: boolean;
  backtick: boolean;
  heredoc: boolean;
}

const C_LIKE: Lexicon = { line: ['//'], block: true, triple: false, backtick: false, heredoc: false };
const LEXICONS: Partial<Record<LanguageId, Lexicon>> = {
  javascript: { ...C_LIKE, backtick: true },
  typescript: { ...C_LIKE, backtick: true },
  tsx: { ...C_LIKE, backtick: true },
  java: { ...C_LIKE, triple: true },
  kotlin: { ...C_LIKE, triple: true },
  c_sharp: { ...C_LIKE, triple: true },
  go: { ...C_LIKE, backtick: true },
  php: { ...C_LIKE, line: ['//', '#'], heredoc: true },
  python: { line: ['#'], block: false, triple: true, backtick: false, heredoc: false },
  ruby: { line: ['#'], block: false, triple: false, backtick: true, heredoc: true },
  // Shell scripts are parsed whole: here-documents and quoting make statements hard to cut cheaply.
  bash: undefined,
};

/** Words that continue a statement or close a block when a line starts with them. */
const CONTINUING_WORDS = /(?:end|else|elif|elsif|except|finally|rescue|ensure|when|catch|case)\b/y;
/** Characters that continue a statement when a line starts with them, or when the line before ends with them. */
const STARTS_CONTINUED = new Set('.)]}?:+-*/&|,=<>'.split('').map((c) => c.charCodeAt(0)));
const ENDS_OPEN = new Set('+-*/%=&|^,.([{:?\\>'.split('').map((c) => c.charCodeAt(0)));
/** The characters the lexer looks at; it steps over everything else. */
const INTERESTING = new Uint8Array(128);
for (const c of '"\'`/#\n(){}[]<') INTERESTING[c.charCodeAt(0)] = 1;

/**
 * Offsets where top-level statements start: line starts outside strings, comments and brackets,
 * not indented, and not continuing the line before.
 */
export function statementStarts(text: string, language: LanguageId): number[] | undefined {
  const lexicon = LEXICONS[language];
  if (!lexicon) return undefined;
  const starts = [0];
  const n = text.length;
  const lineComment = lexicon.line.includes('//');
  const hashComment = lexicon.line.includes('#');
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c >= 128 || INTERESTING[c] === 0) {
      i++;
    } else if (c === 10) {
      i++;
      if (depth === 0 && i < n && startsStatement(text, i)) starts.push(i);
    } else if (c === 34 || c === 39 || (c === 96 && lexicon.backtick)) {
      const triple = c === 34 ? '"""' : "'''";
      if (lexicon.triple && text.startsWith(triple, i)) {
        const close = text.indexOf(triple, i + 3);
        i = close < 0 ? n : close + 3;
      } else {
        i = skipQuoted(text, i, c, language === 'c_sharp' && text.charCodeAt(i - 1) === 64);
      }
    } else if (c === 47 && lexicon.block && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
    } else if (
      (c === 47 && lineComment && text.charCodeAt(i + 1) === 47) ||
      (c === 35 && hashComment && text.charCodeAt(i + 1) !== 91 && text.charCodeAt(i + 1) !== 123)
    ) {
      const close = text.indexOf('\n', i);
      i = close < 0 ? n : close;
    } else if (c === 60 && lexicon.heredoc && text.charCodeAt(i + 1) === 60) {
      i = skipHeredoc(text, i);
    } else {
      if (c === 40 || c === 91 || c === 123) depth++;
      else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
      i++;
    }
  }
  return starts;
}

/** Whether the line at `i` starts a statement: not blank, not indented, not continuing the line before. */
function startsStatement(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 10 || c === 13 || c === 32 || c === 9 || STARTS_CONTINUED.has(c)) return false;
  CONTINUING_WORDS.lastIndex = i;
  if (CONTINUING_WORDS.test(text)) return false;
  // The last character of code on the line before (comments there are rare enough to ignore).
  let j = i - 2;
  while (j >= 0 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9 || text.charCodeAt(j) === 13)) j--;
  return j < 0 || !ENDS_OPEN.has(text.charCodeAt(j));
}

function skipHeredoc(text: string, i: number): number {
  const heredoc = /<<<?[~-]?\s*['"]?([A-Za-z_]\w*)['"]?/y;
  heredoc.lastIndex = i;
  const found = heredoc.exec(text);
  if (!found) return i + 2;
  const lineEnd = text.indexOf('\n', i);
  if (lineEnd < 0) return text.length;
  const end = new RegExp(`^[ \\t]*${found[1]}\\b`, 'gm');
  end.lastIndex = lineEnd + 1;
  const close = end.exec(text);
  return close ? close.index + close[0].length : text.length;
}

function skipQuoted(text: string, start: number, quote: number, verbatim: boolean): number {
  let i = start + 1;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 92 && !verbatim) i += 2;
    else if (c === quote) {
      if (verbatim && text.charCodeAt(i + 1) === quote) i += 2;
      else return i + 1;
    } else if (c === 10 && quote !== 96 && !verbatim) return i;
    else i++;
  }
  return n;
}

/** The name a statement defines: after a declaring keyword, or assigned to (`name = …`). */
const DECLARES =
  /\s*(?:export\s+)?(?:(?:default|const|let|var|val|final|static|private|public|protected|internal|readonly|async|def|func|function|fun|class|record|struct|type|interface|object|data|my|our|local|suspend|override)\s+)+[$@]?([A-Za-z_]\w*)/y;
const ASSIGNS = /\s*[$@]?([A-Za-z_]\w*)\s*(?::[^=\n]*)?:?=(?![=>])/y;

function definedAt(text: string, start: number): string | undefined {
  DECLARES.lastIndex = start;
  const declared = DECLARES.exec(text);
  if (declared) return declared[1];
  ASSIGNS.lastIndex = start;
  return ASSIGNS.exec(text)?.[1];
}

/** A part of the file to parse, as offsets. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The spans of a file to parse: the statements a rule can fire on, with the statements that define
 * or use the names those rely on. Undefined means the whole file (it cannot be cut, or the spans
 * would be most of it); an empty list means nothing in it can concern the service.
 */
export function spansToParse(text: string, language: LanguageId): Span[] | undefined {
  const starts = statementStarts(text, language);
  if (!starts || starts.length < 4) return undefined;
  const chunkOf = (offset: number) => indexAt(starts, offset);
  const endOf = (i: number) => starts[i + 1] ?? text.length;
  const startOf = (i: number) => starts[i] ?? text.length;
  const chosen = new Set<number>();
  const mark = (pattern: RegExp) => {
    const global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
    for (const match of text.matchAll(global)) chosen.add(chunkOf(match.index));
  };
  mark(CHOSEN);
  if (chosen.size === 0) return [];
  let defined: Map<string, number[]> | undefined;
  for (let round = 0; round < 2; round++) {
    if (!defined) {
      defined = new Map();
      for (let i = 0; i < starts.length; i++) {
        const name = definedAt(text, startOf(i));
        if (!name) continue;
        // Pushed, not copied: a name defined on every line of a large file would cost its square.
        const places = defined.get(name);
        if (places) places.push(i);
        else defined.set(name, [i]);
      }
    }
    const wanted = new Set<string>();
    for (const i of chosen) {
      const own = definedAt(text, startOf(i));
      if (own && own.length > 2) wanted.add(own);
      const identifier = /[A-Za-z_]\w*/g;
      identifier.lastIndex = startOf(i);
      const end = endOf(i);
      for (let match = identifier.exec(text); match && match.index < end; match = identifier.exec(text))
        if (FOLLOWED.test(match[0]) && defined.has(match[0])) wanted.add(match[0]);
    }
    const before = chosen.size;
    for (const name of wanted) for (const i of defined.get(name) ?? []) chosen.add(i);
    // Uses of the names: where a constant or a body is used.
    const uses = [...wanted].filter((name) => name.length > 2);
    if (uses.length > 0) mark(new RegExp(`\\b(?:${uses.join('|')})\\b`));
    if (chosen.size === before) break;
  }
  const selected = [...chosen].sort((a, b) => a - b);
  const covered = selected.reduce((sum, i) => sum + endOf(i) - startOf(i), 0);
  if (covered > text.length * 0.6) return undefined;
  const spans: Span[] = [];
  for (const i of selected) {
    const last = spans.at(-1);
    if (last && last.end >= startOf(i)) last.end = endOf(i);
    else spans.push({ start: startOf(i), end: endOf(i) });
  }
  return spans;
}

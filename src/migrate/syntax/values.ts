/**
 * Folds string-building expressions into the text they make, following constants and simple
 * concatenation within a file: `HOST + API_PREFIX`, `${BASE}/checkout`, `"$base/order/$id"`,
 * `getenv('X') ?: 'default'`. Each character keeps where it came from: a literal's offset, and the
 * names it was reached through, so a finding can be put at a definition and at each of its uses.
 */
import type { Expr, Name } from './ast.js';
import { type Facts, words } from './facts.js';

/** A stand-in for text the file does not give (a parameter, an environment variable, a call). */
export const UNKNOWN = '\u0000';

export interface Origin {
  /** The file offset of this character, when it is written in a literal. */
  at?: number;
  /** The names (uses, outermost first) through which the character was reached. */
  via: Name[];
  /** For an unknown part: the name it has (variable, property, environment variable). */
  name?: string;
}

export interface Folded {
  text: string;
  origins: Origin[];
}

const DEFAULTING_CALLS =
  /^(?:get|getenv|fetch|getOrDefault|getProperty|env|config|GetValue|getString|Get|GetEnvironmentVariable|Getenv|LookupEnv|optString|getOrElse|setting|value)$/;
export const FORMAT_CALLS = /^(?:format|sprintf|Sprintf|Format|printf|Printf|formatted)$/;
const JOIN_CALLS = /^(?:urljoin|join|Combine|resolve|URL|Uri|joinpath|JoinPath|build)$/;
const MAX_DEPTH = 6;

const unknown = (name: string | undefined, via: Name[]): Folded => ({
  text: UNKNOWN,
  origins: [{ via, ...(name ? { name } : {}) }],
});

function join(parts: Folded[]): Folded {
  return { text: parts.map((p) => p.text).join(''), origins: parts.flatMap((p) => p.origins) };
}

/** The first string argument's text, as a name for what a call returns (`getenv('PAY_URL')`). */
function literalArgument(args: Expr[]): string | undefined {
  const first = args[0];
  if (first?.k !== 'str') return undefined;
  return first.parts.map((part) => ('text' in part ? part.text : '')).join('');
}

export class Folder {
  private active = new Set<string>();

  constructor(private facts: Facts) {}

  fold(expr: Expr | undefined, via: Name[] = [], depth = 0): Folded {
    if (!expr || depth > MAX_DEPTH) return unknown(undefined, via);
    switch (expr.k) {
      case 'str': {
        const parts: Folded[] = expr.parts.map((part) => {
          if (!('text' in part)) return this.fold(part.expr, via, depth + 1);
          // A Spring placeholder with a default, `${payorder.auth-url:https://…}`, is its default.
          const placeholder = /^\$\{[\w.-]+:(.*)\}$/s.exec(part.text);
          const text = placeholder?.[1] ?? part.text;
          const offset = placeholder ? part.text.indexOf(':') + 1 : 0;
          // A constant of another file (part.start < 0) is known by its text, not by where it is.
          const at = (i: number) => (part.start < 0 ? { via } : { at: part.start + offset + i, via });
          return { text, origins: [...text].map((_, i) => at(i)) };
        });
        return join(parts);
      }
      case 'num':
        return { text: expr.text, origins: [...expr.text].map((_, i) => ({ at: expr.start + i, via })) };
      case 'id':
        return this.name(expr.name.replace(/^\$/, ''), expr, via, depth);
      case 'member': {
        const use: Name = { k: 'id', name: expr.name, start: expr.start, end: expr.end };
        const folded = this.name(expr.name, use, via, depth);
        // $this->config['api_version'], CONFIG["auth_base"]: the key of a map the object was set to.
        return hasText(folded) ? folded : (this.mapKey(expr, [...via, use], depth) ?? folded);
      }
      case 'bin':
        if (expr.op === 'concat')
          return join([this.fold(expr.left, via, depth + 1), this.fold(expr.right, via, depth + 1)]);
        if (expr.op === 'alt') {
          const left = this.fold(expr.left, via, depth + 1);
          return hasText(left) ? left : this.fold(expr.right, via, depth + 1);
        }
        // "%s/order/%s" % (base, id): the placeholders filled from the tuple on the right.
        if (expr.op === 'format')
          return this.template(this.fold(expr.left, via, depth + 1), formatArguments(expr.right), via, depth);
        return unknown(undefined, via);
      case 'call':
        return this.call(expr, via, depth);
      case 'other':
        // One item is the group's value; an assignment, type or function in it folds to unknown below.
        return expr.items.length === 1
          ? this.fold(expr.items[0] as Expr, via, depth + 1)
          : unknown(undefined, via);
      default:
        return unknown(undefined, via);
    }
  }

  /** A key read from a map literal that the object was assigned: its value, folded. */
  private mapKey(member: Extract<Expr, { k: 'member' }>, via: Name[], depth: number): Folded | undefined {
    const object = member.object;
    const owner =
      object.k === 'id' ? object.name.replace(/^\$/, '') : object.k === 'member' ? object.name : undefined;
    if (!owner || this.active.has(owner)) return undefined;
    for (const value of this.facts.values.get(owner) ?? []) {
      if (value.k !== 'map') continue;
      const entry = value.entries.find((e) => e.key === member.name);
      if (!entry?.value) continue;
      this.active.add(owner);
      try {
        return this.fold(entry.value, via, depth + 1);
      } finally {
        this.active.delete(owner);
      }
    }
    return undefined;
  }

  /** A format string with its placeholders (%s, %d, {}, {0}, {name}) replaced by the arguments' values. */
  private template(format: Folded, args: Expr[], via: Name[], depth: number): Folded {
    const parts: Folded[] = [];
    let last = 0;
    let next = 0;
    for (const match of format.text.matchAll(/%[-+ #0]*\d*(?:\.\d+)?[sdvfqxi]|\{[\w.]*\}/g)) {
      parts.push({
        text: format.text.slice(last, match.index),
        origins: format.origins.slice(last, match.index),
      });
      if (match[0].includes('.') && match[0].startsWith('%'))
        parts.push({
          text: match[0],
          origins: format.origins.slice(match.index, match.index + match[0].length),
        });
      else parts.push(args[next] ? this.fold(args[next], via, depth + 1) : unknown(undefined, via));
      next++;
      last = match.index + match[0].length;
    }
    parts.push({ text: format.text.slice(last), origins: format.origins.slice(last) });
    return join(parts);
  }

  private name(name: string, use: Name, via: Name[], depth: number): Folded {
    const values = this.facts.values.get(name);
    if (!values || this.active.has(name)) return unknown(name, via);
    this.active.add(name);
    try {
      const next = [...via, use];
      let best: Folded | undefined;
      for (const value of values) {
        const folded = this.fold(value, next, depth + 1);
        if (hasText(folded)) {
          best = folded;
          break;
        }
        best ??= folded;
      }
      if (!best || !hasText(best)) return unknown(name, via);
      return best;
    } finally {
      this.active.delete(name);
    }
  }

  private call(call: Extract<Expr, { k: 'call' }>, via: Name[], depth: number): Folded {
    const { name, args } = call;
    const receiver = call.callee?.k === 'member' ? call.callee.object : undefined;
    if (FORMAT_CALLS.test(name)) {
      // "{}/checkout".format(base), "%s/1".format(x), String.format("%s/1", x), fmt.Sprintf(…)
      if (receiver?.k === 'str') return this.template(this.fold(receiver, via, depth + 1), args, via, depth);
      const at = args.findIndex((arg) => arg.k === 'str');
      if (at >= 0 && at <= 1)
        return this.template(this.fold(args[at], via, depth + 1), args.slice(at + 1), via, depth);
    }
    if (DEFAULTING_CALLS.test(name) && args.length >= 2) {
      const fallback = this.fold(args.at(-1), via, depth + 1);
      if (hasText(fallback)) return fallback;
    }
    // [base, 'order', id].join('/'): the items, joined by the separator.
    const [separator] = args;
    if (name === 'join' && args.length === 1 && separator?.k === 'str' && receiver?.k === 'other') {
      const items = receiver.items.filter(
        (item): item is Expr => item.k !== 'assign' && item.k !== 'type' && item.k !== 'func',
      );
      if (items.length >= 2) {
        const between = this.fold(separator, via, depth + 1);
        return join(
          items.flatMap((item, index) => [...(index > 0 ? [between] : []), this.fold(item, via, depth + 1)]),
        );
      }
    }
    if (JOIN_CALLS.test(name) && args.length >= 2 && call.construct) {
      // new URL(path, base)
      return join([this.fold(args[1], via, depth + 1), this.fold(args[0], via, depth + 1)]);
    }
    if (JOIN_CALLS.test(name) && args.length >= 2)
      return join(args.map((arg) => this.fold(arg, via, depth + 1)));
    return unknown(literalArgument(args) ?? name, via);
  }
}

/** The values a `%` format takes: a tuple's items, or the one value. */
function formatArguments(right: Expr): Expr[] {
  if (right.k !== 'other' || right.items.length < 2) return [right];
  return right.items.filter(
    (item): item is Expr => item.k !== 'assign' && item.k !== 'type' && item.k !== 'func',
  );
}

export const hasText = (folded: Folded) => folded.text.replace(/\u0000/g, '') !== '';

/** The names of the unknown parts of a folded text (`CHECKOUT_HOST`, `cfg.authHost` → "authHost"). */
export function unknownNames(folded: Folded): string[] {
  return folded.origins.flatMap((origin) => (origin.name ? [origin.name] : []));
}

/** Words that mark a name, host or key as the payment order service's. */
const SERVICE_WORDS = /\b(?:auth|checkout|pay|payorder|payment|payments|order|orders|token)\b/;

/** Whether a name speaks of the service: `AUTH_URL`, `checkoutBase`, `PO_HOST`. */
export function serviceName(name: string): boolean {
  return SERVICE_WORDS.test(words(name)) || /payorder|pay_order/i.test(name);
}

/** Whether a host (`auth.stage.example.com`, `pay.example.com`) speaks of the service. */
export function serviceHost(text: string): boolean {
  const host = /:\/\/([^/\u0000?#]+)/.exec(text)?.[1];
  return host !== undefined && SERVICE_WORDS.test(host.replace(/[.-]/g, ' ').toLowerCase());
}

/** A service path after a base: /auth/token, /checkout, /order/…, /orders/…. */
export const SERVICE_PATH = /^\/?(?:auth\/token|checkout(?![\w-])|orders?\/)/;

/** What may follow the /1 prefix: the end of the address, a path, a query, or the end of a quoted default. */
const END = '/?#\u0000}"\'),; \t\n';

/** Whether what follows a /1 prefix ends the address (nothing, or the end of a quoted default). */
export const endsAddress = (rest: string) => rest === '' || rest === '/' || /^\/?[}"'),;\s]/.test(rest);

/** Where the /1 version prefix is in a folded address (indexes into its text). */
export function v1Markers(folded: Folded): number[] {
  const { text } = folded;
  // An address: a URL, a path, or something built on an unknown base; not "1/1" or "2024/1/5".
  if (!/^(?:[\u0000/%]|[a-z][\w+.-]*:\/\/|\{|\$)/i.test(text) && !text.includes('://')) return [];
  const markers: number[] = [];
  for (let i = text.indexOf('/1'); i >= 0; i = text.indexOf('/1', i + 1)) {
    const after = text[i + 2];
    const before = text[i - 1];
    if (after !== undefined && !END.includes(after)) continue;
    // Not a host named 1 right after the scheme (`http://1/`); a base's own trailing slash before
    // the version (`https://auth.example.com/` + `/1/auth/token`) leaves it a version.
    if (
      text.slice(i - 2, i) === ':/' ||
      (before !== undefined && /\d/.test(before) && !/[a-z]/i.test(text.slice(0, i)))
    )
      continue;
    markers.push(i);
  }
  return markers;
}

/** Where a lookup by the v1 path (`/order/{id}`, `order/${id}`, `/order/` + id) is. */
export function lookupMarkers(folded: Folded): number[] {
  const markers: number[] = [];
  const pattern = /(^|\/)order\/(?=\u0000|\{|:|%[sd]|\$|#\{|<|$)/g;
  for (const match of folded.text.matchAll(pattern)) markers.push(match.index + (match[1] ?? '').length);
  return markers;
}

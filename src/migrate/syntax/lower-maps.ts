/**
 * Lowers map literals of every grammar into `map` nodes: objects, dicts, hashes, PHP keyed arrays,
 * C# anonymous objects and initializers, Go composite literals, Kotlin `to` pairs, Java `Map.of`.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type * as A from './ast.js';
import { literalPart } from './ast.js';
import type { Lowerer } from './lowerer.js';

type S = SyntaxNode;

const span = (n: S) => ({ start: n.startIndex, end: n.endIndex });

/** An entry without a key (a list item, a positional argument), placed where its value starts. */
const unkeyed = (node: S, value: A.Expr): A.Entry => ({
  key: '',
  keyStart: node.startIndex,
  keyEnd: node.startIndex,
  quoted: false,
  value,
});

export function keyOf(l: Lowerer, n: S): Omit<A.Entry, 'value'> | undefined {
  const lowered = l.expr(n);
  const part = lowered?.k === 'str' ? literalPart(lowered) : undefined;
  if (part) {
    const quoted = n.type !== 'simple_symbol' && n.type !== 'hash_key_symbol' && n.type !== 'word';
    return { key: part.text, keyStart: part.start, keyEnd: part.start + part.text.length, quoted };
  }
  if (lowered?.k === 'id')
    return { key: lowered.name, keyStart: lowered.start, keyEnd: lowered.end, quoted: false };
  return undefined;
}

export function pairOf(l: Lowerer, n: S): A.Entry | undefined {
  const keyNode = n.childForFieldName('key') ?? n.namedChildren[0];
  const valueNode = n.childForFieldName('value') ?? n.namedChildren[1];
  const key = keyNode ? keyOf(l, keyNode) : undefined;
  return key ? { ...key, value: l.expr(valueNode) } : undefined;
}

export function lowerMap(l: Lowerer, n: S): A.MapLit {
  const entries: A.Entry[] = [];
  for (const child of n.namedChildren) {
    if (child.type === 'pair') {
      const entry = pairOf(l, child);
      if (entry) entries.push(entry);
    } else if (child.type === 'shorthand_property_identifier') {
      const value: A.Name = { k: 'id', name: child.text, ...span(child) };
      entries.push({
        key: child.text,
        keyStart: child.startIndex,
        keyEnd: child.endIndex,
        quoted: false,
        value,
      });
    } else if (!child.type.includes('comment')) {
      const value = l.expr(child);
      if (value) entries.push(unkeyed(child, value));
    }
  }
  return { k: 'map', ...span(n), entries };
}

export function lowerPhpArray(l: Lowerer, n: S): A.MapLit {
  const entries: A.Entry[] = [];
  for (const element of n.namedChildren) {
    if (element.type !== 'array_element_initializer') continue;
    const parts = element.namedChildren.filter((c) => !c.type.includes('comment'));
    const keyed = element.children.some((c) => c.type === '=>');
    const key = keyed && parts[0] ? keyOf(l, parts[0]) : undefined;
    const value = l.expr(parts.at(-1));
    if (key) entries.push({ ...key, value });
    else if (value) entries.push(unkeyed(element, value));
  }
  return { k: 'map', ...span(n), entries };
}

/** C#: `new { a = 1 }`, `new X { A = 1, ["k"] = v, { "k", v } }`. */
export function lowerInitializer(l: Lowerer, n: S): A.MapLit {
  const entries: A.Entry[] = [];
  const children = n.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (!child) continue;
    if (child.type === 'assignment_expression') {
      const left = child.childForFieldName('left');
      const keyNode =
        left?.type === 'element_binding_expression' ? left.namedChildren[0]?.namedChildren[0] : left;
      const key = keyNode ? keyOf(l, keyNode) : undefined;
      if (key) entries.push({ ...key, value: l.expr(child.childForFieldName('right')) });
    } else if (child.type === 'initializer_expression' && child.namedChildCount === 2) {
      const [left] = child.namedChildren;
      const key = left && keyOf(l, left);
      if (key) entries.push({ ...key, value: l.expr(child.namedChildren[1]) });
    } else if (child.type === 'identifier' && children[i + 1]?.type === '=') {
      const key = keyOf(l, child);
      if (key) entries.push({ ...key, value: l.expr(children[i + 2]) });
      i += 2;
    } else if (child.isNamed && !child.type.includes('comment')) {
      const value = l.expr(child);
      if (value) entries.push(unkeyed(child, value));
    }
  }
  return { k: 'map', ...span(n), entries };
}

/** Go: `{"k": v}` and `{Field: v}`. */
export function lowerKeyed(l: Lowerer, n: S): A.MapLit {
  const entries: A.Entry[] = [];
  for (const child of n.namedChildren) {
    if (child.type === 'keyed_element') {
      const keyNode = child.childForFieldName('key') ?? child.namedChildren[0];
      const inner = keyNode?.type === 'literal_element' ? keyNode.namedChildren[0] : keyNode;
      const key = inner ? keyOf(l, inner) : undefined;
      const value = l.expr(child.childForFieldName('value') ?? child.namedChildren[1]);
      if (key) entries.push({ ...key, value });
    } else if (!child.type.includes('comment')) {
      const value = l.expr(child);
      if (value) entries.push(unkeyed(child, value));
    }
  }
  return { k: 'map', ...span(n), entries };
}

/** From the start of the first expression to the end of the last (the list is never empty here). */
function spanOf(list: readonly A.Expr[]): { start: number; end: number } {
  return { start: list[0]?.start ?? 0, end: list.at(-1)?.end ?? 0 };
}

/**
 * `mapOf("a" to 1, "b" to 2)` (each `to` lowered to a one-entry map) and `Map.of("a", 1, "b", 2)`
 * become one map argument.
 */
export function mergeEntryMaps(name: string, args: A.Expr[]): A.Expr[] {
  if (
    args.length > 1 &&
    args.every((arg) => arg.k === 'map' && arg.entries.length === 1 && arg.entries[0]?.key)
  ) {
    const maps = args as A.MapLit[];
    return [{ k: 'map', ...spanOf(maps), entries: maps.flatMap((m) => m.entries) }];
  }
  if ((name === 'of' || name === 'entry') && args.length >= 2 && args.length % 2 === 0) {
    const entries: A.Entry[] = [];
    for (let i = 0; i < args.length; i += 2) {
      const key = args[i];
      const part = key?.k === 'str' ? literalPart(key) : undefined;
      if (!part) return args;
      const { text, start } = part;
      entries.push({
        key: text,
        keyStart: start,
        keyEnd: start + text.length,
        quoted: true,
        value: args[i + 1],
      });
    }
    return [{ k: 'map', ...spanOf(args), entries }];
  }
  return args;
}

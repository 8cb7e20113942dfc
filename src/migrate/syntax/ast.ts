/**
 * The small, language-neutral syntax tree that migrate-check's rules read. Each grammar's tree is
 * lowered into it (lower.ts): strings with their interpolations, names, member reads, calls, map
 * literals, concatenations, assignments, functions and the types that model JSON. Comments never
 * reach it. Offsets are indexes into the file's text.
 */

/** A piece of a string: literal text at an offset, or an interpolated expression. */
export type Part = { text: string; start: number } | { expr: Expr };

export interface Str {
  k: 'str';
  start: number;
  end: number;
  parts: Part[];
  /** The literal's source text, quotes and format specifiers included. */
  raw: string;
}

/** A string's text when it is literal text alone (no interpolation), and where it starts; else undefined. */
export function literalPart(str: Str): { text: string; start: number } | undefined {
  const part = str.parts.length === 1 ? str.parts[0] : undefined;
  return part && 'text' in part ? part : undefined;
}

export interface Name {
  k: 'id';
  name: string;
  start: number;
  end: number;
}

/** `object.name`, `object['name']`, `$object->name`, `Object::NAME`. */
export interface Member {
  k: 'member';
  object: Expr;
  name: string;
  /** Where the name (inside its quotes, when quoted) starts. */
  start: number;
  end: number;
  quoted: boolean;
}

export interface Entry {
  key: string;
  /** Where the key's name starts (inside its quotes, when quoted). */
  keyStart: number;
  keyEnd: number;
  quoted: boolean;
  value?: Expr;
}

export interface Call {
  k: 'call';
  /** The called expression; its last name is `name`. */
  callee?: Expr;
  name: string;
  nameStart: number;
  start: number;
  end: number;
  args: Expr[];
  /** Named (keyword) arguments. */
  named: Entry[];
  /** Statements of a block or lambda passed to the call. */
  block: Node[];
  /** `new X(…)` or a constructor call. */
  construct: boolean;
}

/** An object, dict, hash, keyed array, anonymous object or initializer. */
export interface MapLit {
  k: 'map';
  start: number;
  end: number;
  entries: Entry[];
}

export interface Binary {
  k: 'bin';
  /** `concat` for string building (+, ., adjacency), `alt` for defaults (||, ??, ?:, or, ternary). */
  op: 'concat' | 'alt' | 'format' | 'compare' | 'other';
  left: Expr;
  right: Expr;
  /** A ternary's condition (`left` and `right` are its branches). */
  condition?: Expr;
  start: number;
  end: number;
}

export interface Num {
  k: 'num';
  text: string;
  start: number;
  end: number;
}

/** Anything else, kept for the expressions inside it. */
export interface Other {
  k: 'other';
  start: number;
  end: number;
  items: Node[];
}

export type Expr = Str | Name | Member | Call | MapLit | Binary | Num | Other;

/** `target = value`, declarations included; `names` for destructuring patterns. */
export interface Assign {
  k: 'assign';
  target: Expr;
  names: string[];
  value?: Expr;
  start: number;
  end: number;
}

/** A field of a type, with the JSON name an annotation, attribute, tag or alias gives it. */
export interface Field {
  name: string;
  start: number;
  end: number;
  json?: { name: string; start: number; end: number };
  /** Where an annotation naming the JSON field would go (before the field's declaration). */
  declStart: number;
  /** The declared type as written, where the declaration gives one (Go: `float64`). */
  type?: string;
  nested?: TypeDecl;
}

/** A class, record, struct, interface, data class or enum. */
export interface TypeDecl {
  k: 'type';
  name: string;
  start: number;
  end: number;
  fields: Field[];
  /** Enum members and constants declared in the type. */
  constants: Name[];
  body: Node[];
}

export interface Func {
  k: 'func';
  name: string;
  start: number;
  end: number;
  body: Node[];
  returns: Expr[];
}

export type Node = Expr | Assign | TypeDecl | Func;

/** The nodes directly inside a node, for walking the whole tree. */
export function childrenOf(node: Node): Node[] {
  switch (node.k) {
    case 'str':
      return node.parts.flatMap((part) => ('expr' in part ? [part.expr] : []));
    case 'member':
      return [node.object];
    case 'call':
      return [
        ...(node.callee ? [node.callee] : []),
        ...node.args,
        ...node.named.flatMap((entry) => (entry.value ? [entry.value] : [])),
        ...node.block,
      ];
    case 'map':
      return node.entries.flatMap((entry) => (entry.value ? [entry.value] : []));
    case 'bin':
      return node.condition ? [node.condition, node.left, node.right] : [node.left, node.right];
    case 'other':
      return node.items;
    case 'assign':
      return node.value ? [node.target, node.value] : [node.target];
    case 'type':
      return [...node.fields.flatMap((field) => (field.nested ? [field.nested] : [])), ...node.body];
    case 'func':
      return node.body;
    default:
      return [];
  }
}

/** Every node of a tree, parents before children. */
export function* walk(nodes: Node[]): Generator<Node> {
  const stack = [...nodes].reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    yield node;
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== undefined) stack.push(child);
    }
  }
}

const POSITIONS = new Set(['start', 'end', 'nameStart', 'keyStart', 'keyEnd', 'declStart']);

/** Moves every offset of a lowered tree by `offset` (it was parsed from a part of the file). */
export function shiftOffsets(nodes: unknown[], offset: number): void {
  const seen = new Set<object>();
  const stack: unknown[] = [...nodes];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const field = record[key];
      if (typeof field === 'number' && POSITIONS.has(key)) record[key] = field + offset;
      else if (typeof field === 'object') stack.push(field);
    }
  }
}

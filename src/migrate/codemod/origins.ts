/**
 * Where a value comes from, on the syntax tree, across the files of one unit: a read of the order's
 * uuid or of its v1 id (`order.uuid`, `body['id']`, `created.UUID`, jq's `.uuid`), a variable
 * assigned one of those, or a parameter of the function around it, whose callers pass the value.
 * Whether a value is the order's uuid is told by where it is set, never by the name it is kept under.
 */
import type { Node } from 'web-tree-sitter';
import * as A from '../syntax/ast.js';
import { ancestry, type ParsedFile } from './tree.js';

/** A function and the position of the parameter that carries a value. */
export interface IdParameter {
  name: string;
  index: number;
}

/**
 * What the calls of a function, in the unit's files, pass at a parameter's position: a uuid in every
 * one of them, or something else somewhere; or the function is called nowhere in the unit.
 */
export type CallersPassUuid = (parameter: IdParameter) => 'uuid' | 'other' | 'uncalled';

/** Where a value comes from. */
export type Origin =
  | { kind: 'uuid' }
  /** Reads of the order's v1 id, which give its uuid once renamed (the ranges of their key). */
  | { kind: 'id'; reads: Array<{ start: number; end: number }> }
  | { kind: 'parameter'; parameter: IdParameter }
  | { kind: 'unknown' };

const UNKNOWN: Origin = { kind: 'unknown' };

const FUNCTION =
  /^(?:function_(?:declaration|definition|item|expression)|method_(?:declaration|definition)|method|singleton_method|arrow_function|lambda)$/;

/** Calls that pass their one argument on, escaped or as text: encodeURIComponent(id), str(id), url.PathEscape(id). */
const PASS_ON = /encode|escape|quote|^(?:str|String|strval|to_s|toString|valueOf|Sprint)$/i;

/** A jq program that starts by reading uuid or id (`.uuid`, `.data.id | split("/") | last`), or a helper's key. */
const SHELL_READ = /^(?:\.\w+)*\.?(?<!\w)(uuid|id)(?![\w.[])/;
/** A key read by a call: `order.get("id")`, `field(order, "uuid")`, `body.fetch("id")`. */
const KEY = /^(?:uuid|id)$/i;
/** A method that keeps what its receiver is, or a part of it: `id.substring(…)`, `id.split('/').pop()`. */
const KEEPS_RECEIVER =
  /^(?:substring|substr|slice|split|pop|last|at|trim\w*|strip|[lr]strip|rsplit|removePrefix|substringAfterLast|toString|to_s)$/;
/** A function that keeps what its first argument is, or its last part: `path.Base(id)`, `basename($id)`. */
const KEEPS_ARGUMENT = /^(?:Base|basename|TrimPrefix|TrimSpace|last|String|str)$/;

/** The function around `offset` and its name: a declaration, or a function assigned to a name. */
function enclosing(parsed: ParsedFile, offset: number): { node: Node; name: string } | undefined {
  for (const node of ancestry(parsed.nodeAt(offset))) {
    if (!FUNCTION.test(node.type)) continue;
    const name =
      node.childForFieldName('name')?.text ??
      (node.parent?.type === 'variable_declarator' ? node.parent.childForFieldName('name')?.text : undefined);
    return name ? { node, name: name.replace(/^\$/, '') } : undefined;
  }
  return undefined;
}

/** A parameter's name: `id`, `$id`, `String id`, `id: string`, `id=None`, `id string`. */
function parameterName(node: Node): string | undefined {
  const named = node.childForFieldName('name') ?? node.childForFieldName('pattern');
  const found =
    named ??
    (/identifier|variable_name/.test(node.type)
      ? node
      : node.namedChildren.find((child) => child && /^(?:identifier|variable_name)$/.test(child.type)));
  return found?.text.replace(/^\$/, '');
}

/** The parameter of the function around `offset` named `name` (a shell function's `1` is its first). */
export function parameterOf(parsed: ParsedFile, offset: number, name: string): IdParameter | undefined {
  const fn = enclosing(parsed, offset);
  if (!fn) return undefined;
  if (parsed.language === 'bash')
    return /^[1-9]$/.test(name) ? { name: fn.name, index: Number(name) - 1 } : undefined;
  const names = (
    fn.node.childForFieldName('parameters') ??
    fn.node.namedChildren.find((child) => /parameters|parameter_list/.test(child?.type ?? ''))
  )?.namedChildren.flatMap((child) =>
    child && !child.type.includes('comment') ? [parameterName(child)] : [],
  );
  // A Python method's callers do not pass its self.
  if (parsed.language === 'python' && (names?.[0] === 'self' || names?.[0] === 'cls')) names.shift();
  const index = names?.indexOf(name) ?? -1;
  return index < 0 ? undefined : { name: fn.name, index };
}

/** The value an escaping or converting call passes on, a string that is one value alone (`"$uuid"`). */
function unwrap(value: A.Expr): A.Expr {
  let current = value;
  for (;;) {
    if (current.k === 'call' && current.args.length === 1 && PASS_ON.test(current.name))
      current = current.args[0] as A.Expr;
    else if (
      current.k === 'str' &&
      current.parts.length === 1 &&
      current.parts[0] &&
      'expr' in current.parts[0]
    )
      current = current.parts[0].expr;
    else return current;
  }
}

/** A shell command substitution that reads uuid or id from JSON: jq's path, or a helper's key. */
function shellRead(value: A.Expr): Origin | undefined {
  for (const node of A.walk([value])) {
    if (node.k !== 'call') continue;
    for (const arg of node.args) {
      const part = arg.k === 'str' ? A.literalPart(arg) : undefined;
      const read = part && SHELL_READ.exec(part.text.trim());
      if (!part || !read) continue;
      if (read[1] === 'uuid') return { kind: 'uuid' };
      const start = part.start + part.text.lastIndexOf('id');
      return { kind: 'id', reads: [{ start, end: start + 2 }] };
    }
  }
  return undefined;
}

/** The assignments of a variable in the file (not of a member, not a destructuring). */
export function assignmentsOf(parsed: ParsedFile, name: string): A.Assign[] {
  const found: A.Assign[] = [];
  for (const node of parsed.nodes)
    if (node.k === 'assign' && node.target.k === 'id' && node.target.name.replace(/^\$/, '') === name)
      found.push(node);
  return found;
}

/** Whether `name` is bound to an object's `uuid` by a destructuring: `const { uuid } = order`, `{ uuid: key }`. */
function destructuresUuid(parsed: ParsedFile, name: string): boolean {
  for (const node of parsed.root.descendantsOfType([
    'shorthand_property_identifier_pattern',
    'pair_pattern',
  ])) {
    if (node?.type === 'shorthand_property_identifier_pattern' && node.text === 'uuid' && name === 'uuid')
      return true;
    if (node?.childForFieldName('key')?.text === 'uuid' && node.childForFieldName('value')?.text === name)
      return true;
  }
  return false;
}

/** Where `value`, an expression of the file, comes from; variables are followed three deep at most. */
export function originOf(parsed: ParsedFile, value: A.Expr, depth = 0): Origin {
  const inner = unwrap(value);
  if (inner.k === 'member') {
    // A class's member is not an answer's (`SecureRandom.uuid`).
    if (inner.object.k === 'id' && /^[A-Z]/.test(inner.object.name)) return UNKNOWN;
    if (/^uuid$/i.test(inner.name)) return { kind: 'uuid' };
    if (inner.name === 'id') return { kind: 'id', reads: [{ start: inner.start, end: inner.end }] };
    return UNKNOWN;
  }
  if (inner.k === 'call') return callOrigin(parsed, inner, depth);
  // A value with a type or an index after it: `order["id"].(string)`, `id.split('/')[-1]`.
  const [first, ...after] = inner.k === 'other' ? inner.items : [];
  const typeOrIndex = (node: A.Node) =>
    node.k === 'id' ||
    node.k === 'num' ||
    (node.k === 'other' && node.items.every((item) => item.k === 'num'));
  if (first && (first.k === 'member' || first.k === 'call') && after.every(typeOrIndex))
    return originOf(parsed, first, depth + 1);
  if (parsed.language === 'bash' && inner.k !== 'id') return shellRead(inner) ?? UNKNOWN;
  if (inner.k !== 'id' || depth > 3) return UNKNOWN;
  const name = inner.name.replace(/^\$/, '');
  const parameter = parameterOf(parsed, inner.start, name);
  if (parameter) return { kind: 'parameter', parameter };
  if (destructuresUuid(parsed, name)) return { kind: 'uuid' };
  const assignments = assignmentsOf(parsed, name);
  if (assignments.length === 0) return UNKNOWN;
  const reads: Array<{ start: number; end: number }> = [];
  for (const assignment of assignments) {
    const origin = assignment.value ? originOf(parsed, assignment.value, depth + 1) : UNKNOWN;
    if (origin.kind === 'id') reads.push(...origin.reads);
    else if (origin.kind !== 'uuid') return UNKNOWN;
  }
  return reads.length > 0 ? { kind: 'id', reads } : { kind: 'uuid' };
}

/**
 * What a call gives: the key it reads (`order.get("id")`, `field(order, "uuid")`), or what it keeps of
 * its receiver or first argument (`order.get("id").substring(…)`, `path.Base(order["id"])`). Reads of
 * the same id in the call's arguments (`id.substring(id.lastIndexOf('/') + 1)`) are renamed with it.
 */
function callOrigin(parsed: ParsedFile, call: A.Call, depth: number): Origin {
  const key = call.args.at(-1);
  const part = key?.k === 'str' ? A.literalPart(key) : undefined;
  if (part && KEY.test(part.text) && call.args.length <= 2)
    return /^uuid$/i.test(part.text)
      ? { kind: 'uuid' }
      : { kind: 'id', reads: [{ start: part.start, end: part.start + part.text.length }] };
  if (parsed.language === 'bash') return shellRead(call) ?? UNKNOWN;
  const receiver =
    call.callee?.k === 'member' && KEEPS_RECEIVER.test(call.name)
      ? call.callee.object
      : KEEPS_ARGUMENT.test(call.name)
        ? call.args[0]
        : undefined;
  if (!receiver || depth > 3) return UNKNOWN;
  const origin = originOf(parsed, receiver, depth + 1);
  if (origin.kind !== 'id') return origin;
  const same = parsed.text.slice(receiver.start, receiver.end);
  const again = call.args.flatMap((arg) =>
    [...A.walk([arg])].flatMap((node) =>
      node.start !== receiver.start && parsed.text.slice(node.start, node.end) === same
        ? originOf(parsed, node as A.Expr, depth + 1)
        : [],
    ),
  );
  return {
    kind: 'id',
    reads: [...origin.reads, ...again.flatMap((one) => (one.kind === 'id' ? one.reads : []))],
  };
}

/** A call of a function in one of the unit's files, with its arguments. */
export interface Call {
  file: ParsedFile;
  call: A.Call;
}

/**
 * The calls of the function `name` in the files that pass an argument at `index`: call expressions
 * whose function is named so (a call with fewer arguments is of another function: Matcher.find()).
 */
export function* callsOf(files: ParsedFile[], name: string, index = 0): Generator<Call> {
  for (const file of files)
    for (const node of file.nodes)
      if (node.k === 'call' && !node.construct && node.name === name && node.args.length > index)
        yield { file, call: node };
}

/** The resolver over a unit's parsed files; a chain of callers is followed three deep at most. */
export function callersPassUuid(files: ParsedFile[]): CallersPassUuid {
  const passes = (parameter: IdParameter, depth: number): boolean => {
    if (depth > 3) return false;
    let calls = 0;
    for (const { file, call } of callsOf(files, parameter.name, parameter.index)) {
      calls++;
      const origin = originOf(file, call.args[parameter.index] as A.Expr);
      if (origin.kind === 'uuid') continue;
      if (origin.kind !== 'parameter' || !passes(origin.parameter, depth + 1)) return false;
    }
    return calls > 0;
  };
  return (parameter) => {
    if (passes(parameter, 0)) return 'uuid';
    return callsOf(files, parameter.name, parameter.index).next().done ? 'uncalled' : 'other';
  };
}

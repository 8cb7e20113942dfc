/**
 * Following a lookup's id back to where it comes from, across the files of one unit: a lookup path
 * built from a function's parameter (`orderPath(id)`, a shell function's `$1`) takes what its
 * callers pass, and a caller may itself pass on its own parameter. The id is the order's uuid when
 * every call found passes a uuid: a read of a `uuid` key or property, or a variable or parameter
 * named for it.
 */
import type { Node } from 'web-tree-sitter';
import { lineAround } from './edits.js';
import { ancestry, type ParsedFile } from './tree.js';

/** A function and the position of the parameter that carries the lookup's id. */
export interface IdParameter {
  name: string;
  index: number;
}

/**
 * What the calls of a function, in the unit's files, pass at a parameter's position: a uuid in every
 * one of them, or something else somewhere; or the function is called nowhere in the unit.
 */
export type CallersPassUuid = (parameter: IdParameter) => 'uuid' | 'other' | 'uncalled';

const FUNCTION =
  /^(?:function_(?:declaration|definition|item)|method_(?:declaration|definition)|method|singleton_method|subroutine_declaration_statement)$/;
/** A value that is the order's uuid by its name: order.uuid, order['uuid'], created.UUID, $uuid, orderUuid. */
export const UUID_VALUE = /uuid/i;

function enclosing(parsed: ParsedFile, offset: number): Node | undefined {
  return [...ancestry(parsed.nodeAt(offset))].find((node) => FUNCTION.test(node.type));
}

/** A parameter's name as the code reads it: `String uuid` → uuid, `string $uuid` → $uuid, `id=None` → id. */
function parameterName(node: Node): string {
  const names = node.text.split(/[:=]/)[0]?.match(/\$?[A-Za-z_]\w*/g) ?? [];
  return names.at(-1) ?? '';
}

/**
 * The parameter of the function around `offset` that `value` (the text the lookup is given) reads:
 * a named parameter, or a shell function's positional `$1`.
 */
export function idParameter(parsed: ParsedFile, offset: number, value: string): IdParameter | undefined {
  const fn = enclosing(parsed, offset);
  const name = fn?.childForFieldName('name')?.text;
  if (!fn || !name) return undefined;
  const positional = /\$\{?([1-9])\b/.exec(value);
  if (positional && parsed.language === 'bash') return { name, index: Number(positional[1]) - 1 };
  const parameters = fn.childForFieldName('parameters')?.namedChildren ?? [];
  const names = parameters.flatMap((node) => (node ? [parameterName(node)] : []));
  const read: string[] = value.match(/\$?[A-Za-z_]\w*/g) ?? [];
  const index = names.findIndex((parameter) => parameter !== '' && read.includes(parameter));
  return index < 0 ? undefined : { name, index };
}

/** The arguments of a call whose name ends at `from`: `(a, b)` split at its top-level commas, or shell words. */
function argumentsAt(text: string, from: number, shell: boolean): string[] | undefined {
  if (shell) {
    const line = text.slice(from, lineAround(text, from).end);
    if (/^\s*\(\)/.test(line)) return undefined;
    return line.match(/"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"')|;&]+/g) ?? [];
  }
  const open = /^\s*\(/.exec(text.slice(from));
  if (!open) return undefined;
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (let at = from + open[0].length; at < text.length; at++) {
    const char = text[at] ?? '';
    if (depth === 0 && char === ')') {
      args.push(current.trim());
      // A definition, not a call: `orderPath(id) {`, `def find(uuid):`.
      return /^\s*(?:\{|:\s*$|:\s*#|throws\b)/m.test(text.slice(at + 1, lineAround(text, at).end + 1))
        ? undefined
        : args;
    }
    if ('([{'.includes(char)) depth++;
    if (')]}'.includes(char)) depth--;
    if (depth === 0 && char === ',') {
      args.push(current.trim());
      current = '';
    } else current += char;
  }
  return undefined;
}

/** A variable set from a uuid in the file: `uuid=$(… json_get uuid)`, `const id = order.uuid`. */
function assignedUuid(parsed: ParsedFile, name: string): boolean {
  const bare = name.replace(/^\$/, '').replace(/[^\w]/g, '');
  if (!bare) return false;
  const assignment = new RegExp(`(?:^|[\\s;(])\\$?${bare}\\s*(?::=|=(?!=))([^\\n]*)`, 'gm');
  for (let match = assignment.exec(parsed.text); match; match = assignment.exec(parsed.text))
    if (parsed.isCode(match.index + match[0].indexOf(bare)) && UUID_VALUE.test(match[1] ?? '')) return true;
  return false;
}

/** A call of a function in one of the unit's files: where its name is, and its arguments' texts. */
export interface Call {
  file: ParsedFile;
  at: number;
  args: string[];
}

/** The name of a function's definition at `offset` (a TypeScript method with its return type, a C# method). */
function namesDefinition(file: ParsedFile, offset: number): boolean {
  const node = file.nodeAt(offset);
  const fn = node.parent;
  return (
    fn !== null && FUNCTION.test(fn.type) && fn.childForFieldName('name')?.startIndex === node.startIndex
  );
}

/** The calls of the function `name` in the files (its definition left out). */
export function* callsOf(files: ParsedFile[], name: string): Generator<Call> {
  for (const file of files) {
    const escaped = name.replace(/[$]/g, '\\$');
    const call = new RegExp(`(?<![\\w$-])${escaped}(?![\\w-])`, 'g');
    for (let match = call.exec(file.text); match; match = call.exec(file.text)) {
      if (!file.isCode(match.index) || namesDefinition(file, match.index)) continue;
      const before = file.text.slice(lineAround(file.text, match.index).start, match.index);
      if (/\b(?:def|function|func|sub|fun)\s+(?:\([^)]*\)\s*)?(?:self\.)?$/.test(before)) continue;
      const args = argumentsAt(file.text, match.index + match[0].length, file.language === 'bash');
      if (args) yield { file, at: match.index, args };
    }
  }
}

/** The name a value is, when it is one variable: `id`, `$uuid`, `"$uuid"`, `${id}`. */
export const variableOf = (value: string) => /^["']?\$?\{?([A-Za-z_]\w*)\}?["']?$/.exec(value)?.[1];

/** The resolver over a unit's parsed files; a chain of callers is followed three deep at most. */
export function callersPassUuid(files: ParsedFile[]): CallersPassUuid {
  const passes = (parameter: IdParameter, depth: number): boolean => {
    if (depth > 3) return false;
    let calls = 0;
    for (const { file, at, args } of callsOf(files, parameter.name)) {
      const value = args[parameter.index];
      if (value === undefined) return false;
      calls++;
      if (UUID_VALUE.test(value)) continue;
      const name = variableOf(value);
      if (!name) return false;
      if (assignedUuid(file, name)) continue;
      const outer = idParameter(file, at, value);
      if (!outer || !passes(outer, depth + 1)) return false;
    }
    return calls > 0;
  };
  return (parameter) => {
    if (passes(parameter, 0)) return 'uuid';
    return callsOf(files, parameter.name).next().done ? 'uncalled' : 'other';
  };
}

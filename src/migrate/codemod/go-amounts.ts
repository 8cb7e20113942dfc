/**
 * PO104 in Go: the amount in integer cents, with the standard library only, by what the tree says
 * the amount is made of. A float64 printed with two decimals (`fmt.Sprintf("%.2f", x)`,
 * `strconv.FormatFloat(x, 'f', 2, 64)`) becomes `int64(math.Round(x*100))`, exact for an amount with
 * at most two decimals, printed by the same package; a decimal printed from integer cents
 * (`fmt.Sprintf("%d.%02d", c/100, c%100)`) gives back `c`; any other expression known to be a string
 * (`d.StringFixed(2)` of shopspring/decimal) is read by math/big's exact rationals. A float64 field
 * of an order struct becomes an int64 of cents that encoding/json writes as text (`,string`), and
 * every value this file sets it to is converted; a field read anywhere in the file is left. An
 * import the edit needs is added to the file's import declarations, found in the tree.
 */
import type { Node } from 'web-tree-sitter';
import type { Finding } from '../rules.js';
import type { TextEdit } from './edits.js';
import { GO_CENTS } from './idioms.js';
import type { RenameResult } from './renames.js';
import type { ParsedFile } from './tree.js';

/** The arguments of a call, comments left out. */
const argumentsOf = (call: Node): Node[] =>
  call
    .childForFieldName('arguments')
    ?.namedChildren.filter((arg): arg is Node => arg !== null && !arg.type.includes('comment')) ?? [];

/** The called function as written: `fmt.Sprintf`, `strconv.FormatFloat`, `total.StringFixed`. */
const calleeOf = (call: Node) => call.childForFieldName('function')?.text ?? '';

/** The text of a string literal argument, without its quotes. */
const literalText = (node: Node | undefined) =>
  node?.type === 'interpreted_string_literal' || node?.type === 'raw_string_literal'
    ? node.text.slice(1, -1)
    : undefined;

/** Whether the tree declares `name` a float64 in the function around `at` (a parameter, a var, a literal). */
function declaredFloat64(at: Node, name: string): boolean {
  let scope: Node | null = at;
  while (scope && scope.type !== 'function_declaration' && scope.type !== 'method_declaration')
    scope = scope.parent;
  if (!scope) return false;
  for (const declaration of scope.descendantsOfType(['parameter_declaration', 'var_spec'])) {
    const names = declaration?.childrenForFieldName('name').map((one) => one?.text);
    if (names?.includes(name) && declaration?.childForFieldName('type')?.text === 'float64') return true;
  }
  for (const short of scope.descendantsOfType('short_var_declaration')) {
    const left = short?.childForFieldName('left')?.namedChildren.map((one) => one?.text) ?? [];
    const right = short?.childForFieldName('right')?.namedChildren ?? [];
    const index = left.indexOf(name);
    if (index >= 0 && right[index]?.type === 'float_literal') return true;
  }
  return false;
}

/** `int64(math.Round(x*100))`: a float amount's cents, exact for at most two decimals. */
function roundedCents(value: Node, float64: boolean): string {
  const known = float64 || (value.type === 'identifier' && declaredFloat64(value, value.text));
  return `int64(math.Round(${known ? value.text : `float64(${value.text})`}*100))`;
}

/** The edit's new expression for the amount call, and the imports it needs. */
function convert(call: Node): { text: string; imports: string[] } | undefined {
  const callee = calleeOf(call);
  const args = argumentsOf(call);
  const format = literalText(args[0]);
  if (callee === 'fmt.Sprintf' && format === '%.2f' && args.length === 2 && args[1])
    return { text: `fmt.Sprint(${roundedCents(args[1], false)})`, imports: ['math'] };
  if (callee === 'fmt.Sprintf' && format === '%d.%02d' && args.length === 3) {
    const whole = /^(.+?)\s*\/\s*100$/.exec(args[1]?.text ?? '')?.[1];
    const rest = /^(.+?)\s*%\s*100$/.exec(args[2]?.text ?? '')?.[1];
    if (whole && whole === rest) return { text: `fmt.Sprint(${whole})`, imports: [] };
  }
  if (callee === 'strconv.FormatFloat' && args[0] && /^'[fg]'$/.test(args[1]?.text ?? ''))
    // FormatFloat takes a float64: its argument is one.
    return { text: `strconv.FormatInt(${roundedCents(args[0], true)}, 10)`, imports: ['math'] };
  // Known to be a string: fmt.Sprintf otherwise, shopspring/decimal's StringFixed(2) and String().
  if (/^fmt\.Sprintf$|\.StringFixed(?:Bank)?$/.test(callee))
    return { text: GO_CENTS(call.text), imports: ['math/big'] };
  return undefined;
}

/**
 * The import lines a Go file lacks, added to its import block (or after its package clause): one
 * edit for all of them, made once per file from every edit's `imports` (source-edits.ts).
 */
export function goImports(parsed: ParsedFile, paths: string[]): TextEdit[] {
  const root = parsed.root;
  const declarations = root.namedChildren.filter((node) => node?.type === 'import_declaration');
  const present = new Set(
    declarations.flatMap((declaration) =>
      (declaration?.descendantsOfType('import_spec') ?? []).map((spec) =>
        spec?.childForFieldName('path')?.text.slice(1, -1),
      ),
    ),
  );
  const missing = [...new Set(paths)].filter((path) => !present.has(path));
  if (missing.length === 0) return [];
  const list = declarations
    .map((one) => one?.namedChildren.find((child) => child?.type === 'import_spec_list'))
    .find(Boolean);
  const label = `added import ${missing.join(', ')}`;
  if (list) {
    const at = parsed.end(list) - 1;
    return [{ start: at, end: at, text: missing.map((path) => `\t"${path}"\n`).join(''), label }];
  }
  const after = declarations.at(-1) ?? root.namedChildren.find((node) => node?.type === 'package_clause');
  const at = after ? parsed.end(after) : 0;
  return [{ start: at, end: at, text: missing.map((path) => `\nimport "${path}"`).join(''), label }];
}

/** The Go edit for the amount call around the finding's expression. */
export function goCents(parsed: ParsedFile, expression: Node, finding: Finding): RenameResult {
  // A keyed element's value is wrapped in a literal_element.
  const value = expression.type === 'literal_element' ? expression.namedChildren[0] : expression;
  const call = value?.type === 'call_expression' ? value : undefined;
  const converted = call && convert(call);
  if (!call || !converted)
    return {
      edits: [],
      notes: [],
      failed:
        'in Go, only an amount made by fmt.Sprintf, strconv.FormatFloat or decimal.StringFixed is converted (its type is then known)',
    };
  return {
    edits: [
      {
        start: parsed.start(call),
        end: parsed.end(call),
        text: converted.text,
        label: `amount ${call.text} → ${converted.text} (integer cents)`,
        finding,
      },
    ],
    imports: converted.imports,
    notes: [],
  };
}

/** The value set to `field` of struct `struct` by one keyed element or assignment, or why it cannot be told. */
function fieldSetters(root: Node, struct: string, field: string): Node[] | string {
  const values: Node[] = [];
  for (const literal of root.descendantsOfType('composite_literal')) {
    if (literal?.childForFieldName('type')?.text !== struct) continue;
    const elements = literal.childForFieldName('body')?.namedChildren ?? [];
    if (
      elements.some(
        (element) => element && element.type !== 'keyed_element' && !element.type.includes('comment'),
      )
    )
      return `a ${struct}{…} literal sets its fields by position`;
    for (const element of elements) {
      const [key, value] = element?.namedChildren ?? [];
      if (key?.text === field && value) values.push(value.namedChildren[0] ?? value);
    }
  }
  for (const selector of root.descendantsOfType('selector_expression')) {
    if (selector?.childForFieldName('field')?.text !== field) continue;
    const left = selector.parent;
    const statement = left?.parent;
    // Tree nodes are compared by id: each access makes a new object.
    if (
      left?.type !== 'expression_list' ||
      statement?.type !== 'assignment_statement' ||
      statement.childForFieldName('left')?.id !== left.id
    )
      return `${field} is read in the file, which a change of its type would break`;
    const index = left.namedChildren.findIndex((one) => one?.id === selector.id);
    const value = statement.childForFieldName('right')?.namedChildren[index];
    if (!value || statement.childForFieldName('operator')?.text !== '=')
      return `${field} is changed in place, which cannot be made cents here`;
    values.push(value);
  }
  return values;
}

/** Go: a float64 amount field of an order struct, which encoding/json writes as a number with decimals. */
export function goFieldCents(parsed: ParsedFile, declaration: Node, finding: Finding): RenameResult {
  const type = declaration.childForFieldName('type');
  const tag = declaration.childForFieldName('tag');
  const names = declaration.childrenForFieldName('name');
  const spec = declaration.parent?.parent?.parent;
  const struct = spec?.type === 'type_spec' ? spec.childForFieldName('name')?.text : undefined;
  const json = tag && /json:"([^"]*)"/.exec(tag.text);
  const field = names[0]?.text;
  const none = (failed: string): RenameResult => ({ edits: [], notes: [], failed });
  if (!type || !tag || !json || !struct || !field || names.length !== 1)
    return none('the amount field is not one named, tagged field of a named struct');
  const setters = fieldSetters(parsed.root, struct, field);
  if (typeof setters === 'string') return none(setters);
  const options = json[1] ?? '';
  const tagAt = parsed.start(tag) + json.index + 'json:"'.length + options.length;
  const label = `${struct}.${field} float64 → int64 cents, sent as text`;
  return {
    edits: [
      { start: parsed.start(type), end: parsed.end(type), text: 'int64', label, finding },
      ...(options.split(',').includes('string')
        ? []
        : [{ start: tagAt, end: tagAt, text: ',string', label }]),
      ...setters.map((value) => ({
        start: parsed.start(value),
        end: parsed.end(value),
        text: roundedCents(value, false),
        label: `${struct}.${field} set to cents`,
      })),
    ],
    imports: setters.length > 0 ? ['math'] : [],
    notes: [
      `${struct}.${field} now holds int64 cents (encoding/json sends it as "14990"): code in other files that sets it must pass int64(math.Round(x*100))`,
    ],
  };
}

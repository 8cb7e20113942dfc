/**
 * Lowers a tree-sitter tree of any supported grammar into the language-neutral tree of ast.ts.
 * Node types that several grammars share are handled once; the rest are named per grammar. Any node
 * this file does not know is kept as `other`, so nothing inside it is lost; comments are dropped.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type * as A from './ast.js';
import { literalPart } from './ast.js';
import type { LanguageId } from './languages.js';
import { kotlinCall, lowerCall, makeCall, rubyCall } from './lower-calls.js';
import { keyOf, lowerInitializer, lowerKeyed, lowerMap, lowerPhpArray } from './lower-maps.js';
import { lowerString, STRING_NODES, textString } from './lower-strings.js';
import { lowerType, springValue, TYPE_NODES } from './lower-types.js';
import type { Lowerer } from './lowerer.js';

type S = SyntaxNode;

const NAME_NODES = new Set([
  'identifier',
  'property_identifier',
  'shorthand_property_identifier',
  'field_identifier',
  'type_identifier',
  'constant',
  'instance_variable',
  'class_variable',
  'global_variable',
  'simple_identifier',
  'this',
  'self',
  'super',
  'name',
  'statement_identifier',
  'package_identifier',
  'this_expression',
  'predefined_type',
]);
const NUMBER_NODES = new Set([
  'number',
  'integer',
  'float',
  'decimal_integer_literal',
  'decimal_floating_point_literal',
  'integer_literal',
  'real_literal',
  'int_literal',
  'float_literal',
  'long_literal',
  // Kotlin's integers and decimals.
  'number_literal',
]);
/** Wrappers whose value is their (first) expression. */
const PASS_THROUGH = new Set([
  'parenthesized_expression',
  'await_expression',
  'as_expression',
  'non_null_expression',
  'satisfies_expression',
  'type_assertion',
  'cast_expression',
  'expression_statement',
  'argument',
  'value_argument',
  'literal_element',
  'expression_list',
  'unary_expression',
  'spread_element',
  'postfix_unary_expression',
  'prefix_expression',
  'parenthesized_statements',
  'jump_expression',
  'return_statement',
  'return',
]);
const ALT_OPERATORS = new Set(['||', '??', '?:', 'or', '//']);
const COMPARE_OPERATORS = new Set(['==', '===', '!=', '!==', 'is', 'in']);
const TERNARY_NODES = new Set(['ternary_expression', 'conditional_expression']);

const span = (n: S) => ({ start: n.startIndex, end: n.endIndex });
const CASTS = new Set(['as_expression', 'satisfies_expression', 'type_assertion', 'cast_expression']);

/** The type of a cast, which is not its value: `Order` in `answer as Order`, `<Order>answer`, `(Order) answer`. */
const isCastType = (cast: S, child: S) =>
  CASTS.has(cast.type) &&
  (/type_identifier$|^type_arguments$/.test(child.type) || cast.childForFieldName('type')?.id === child.id);

/** Lowers a whole tree (or the parsed ranges of it). */
export function lowerTree(root: S, language: LanguageId): A.Node[] {
  return new TreeLowerer(language).list(root);
}

/** The walker: shared node types here, constructs of their own in the lower-*.ts modules. */
class TreeLowerer implements Lowerer {
  /** The return values of the functions being lowered, innermost last. */
  private returns: A.Expr[][] = [];

  constructor(readonly language: LanguageId) {}

  list(n: S): A.Node[] {
    const nodes: A.Node[] = [];
    for (const child of n.namedChildren) {
      const lowered = this.node(child);
      if (lowered) nodes.push(lowered);
    }
    return nodes;
  }

  expr(n: S | null | undefined): A.Expr | undefined {
    if (!n) return undefined;
    const lowered = this.node(n);
    if (!lowered) return undefined;
    return asExpr(lowered);
  }

  other(n: S): A.Other {
    return { k: 'other', ...span(n), items: this.list(n) };
  }

  node(n: S): A.Node | undefined {
    const type = n.type;
    if (type.includes('comment') || n.isMissing) return undefined;
    if (STRING_NODES.has(type)) return lowerString(this, n);
    if (NAME_NODES.has(type)) return { k: 'id', name: n.text, ...span(n) };
    if (NUMBER_NODES.has(type)) return { k: 'num', text: n.text, ...span(n) };
    if (TYPE_NODES.has(type)) {
      const declared = lowerType(n, this);
      if (declared) return declared;
    }
    if (TERNARY_NODES.has(type)) return this.ternary(n);
    if (PASS_THROUGH.has(type)) {
      if (type === 'return_statement' || type === 'return' || type === 'jump_expression') {
        const value = this.expr(n.namedChildren.find((c) => !c.type.includes('comment')));
        if (value) this.returns.at(-1)?.push(value);
        return value;
      }
      const inner = n.namedChildren.filter(
        (c) => !c.type.includes('comment') && !c.type.endsWith('type') && !isCastType(n, c),
      );
      const [only] = inner;
      if (only && inner.length === 1 && type !== 'argument' && type !== 'value_argument')
        return this.node(only);
      if (type === 'argument' || type === 'value_argument') return this.expr(inner.at(-1));
      return this.other(n);
    }
    return this.specific(n) ?? this.other(n);
  }

  /** Node types that only some grammars have, or that mean different things in different ones. */
  private specific(n: S): A.Node | undefined {
    const f = (field: string) => n.childForFieldName(field);
    const named = n.namedChildren.filter((c) => !c.type.includes('comment'));
    switch (n.type) {
      case 'variable_name':
      case 'simple_expansion':
        return { k: 'id', name: n.text.replace(/^\$\{?|\}$/g, ''), ...span(n) };
      case 'expansion': {
        const variable = named.find((c) => c.type === 'variable_name');
        const name: A.Expr = { k: 'id', name: variable?.text ?? n.text, ...span(n) };
        const fallback = named.filter((c) => c !== variable).map((c) => this.expr(c));
        const value = fallback.find((e) => e !== undefined);
        return value ? { k: 'bin', op: 'alt', left: name, right: value, ...span(n) } : name;
      }
      case 'simple_symbol':
      case 'hash_key_symbol':
        return textString(n, n.text.replace(/^:/, ''), n.startIndex + (n.text.startsWith(':') ? 1 : 0));
      case 'word':
        return textString(n, n.text, n.startIndex);
      case 'concatenated_string':
      case 'concatenation':
        return named
          .map((c) => this.expr(c))
          .filter((e) => e !== undefined)
          .reduce<A.Expr | undefined>(
            (left, right) =>
              left ? { k: 'bin', op: 'concat', left, right, start: left.start, end: right.end } : right,
            undefined,
          );
      case 'member_expression':
        return this.member(n, f('object'), f('property'));
      case 'attribute':
        return this.member(n, f('object'), f('attribute'));
      case 'member_access_expression':
      case 'nullsafe_member_access_expression':
        return this.member(n, f('object') ?? f('expression'), f('name'));
      case 'selector_expression':
        return this.member(n, f('operand'), f('field'));
      case 'field_access':
        return this.member(n, f('object'), f('field'));
      case 'class_constant_access_expression':
      case 'scoped_property_access_expression':
      case 'scope_resolution':
        return this.member(n, f('scope') ?? named[0], f('name') ?? named.at(-1));
      case 'navigation_expression': {
        const last = named.at(-1);
        const name = last?.type === 'navigation_suffix' ? last.namedChildren.at(-1) : last;
        return this.member(n, named[0], name);
      }
      case 'conditional_access_expression': {
        const binding = named.find((c) => c.type === 'member_binding_expression');
        return this.member(n, named[0], binding?.childForFieldName('name') ?? binding?.namedChildren.at(-1));
      }
      case 'subscript_expression':
      case 'subscript':
      case 'element_reference':
      case 'index_expression':
      case 'element_access_expression':
        return this.subscript(n, f('object') ?? f('value') ?? f('operand') ?? f('expression') ?? named[0], [
          f('index') ?? f('subscript') ?? named[1],
        ]);
      case 'call_expression':
        return this.language === 'kotlin'
          ? kotlinCall(this, n, named)
          : lowerCall(this, n, f('function'), f('arguments'));
      case 'new_expression':
        return lowerCall(this, n, f('constructor'), f('arguments'), true);
      case 'call':
        return this.language === 'ruby'
          ? rubyCall(this, n)
          : lowerCall(this, n, f('function'), f('arguments'));
      case 'function_call_expression': {
        const call = lowerCall(this, n, f('function'), f('arguments'));
        const [name, value] = call.args;
        const part = name?.k === 'str' ? literalPart(name) : undefined;
        // PHP: define('PO_API_PREFIX', '/1') defines a constant.
        if (call.name === 'define' && name && part && value) {
          const target: A.Name = {
            k: 'id',
            name: part.text,
            start: part.start,
            end: name.end - 1,
          };
          return { k: 'assign', target, names: [target.name], value, ...span(n) };
        }
        return call;
      }
      case 'member_call_expression':
      case 'nullsafe_member_call_expression':
      case 'scoped_call_expression':
      case 'method_invocation':
        return lowerCall(this, n, f('name'), f('arguments'), false, f('object') ?? f('scope'));
      case 'invocation_expression':
        return lowerCall(this, n, f('function'), f('arguments'));
      case 'object_creation_expression':
      case 'implicit_object_creation_expression': {
        const type = f('type') ?? named.find((c) => c.type === 'name' || c.type === 'qualified_name');
        const args =
          f('arguments') ?? named.find((c) => c.type === 'arguments' || c.type === 'argument_list');
        const call = lowerCall(this, n, type, args, true);
        const initializer = f('initializer') ?? named.find((c) => c.type === 'initializer_expression');
        if (initializer) call.args.push(lowerInitializer(this, initializer));
        return call;
      }
      case 'composite_literal': {
        const body = f('body');
        const call = lowerCall(this, n, f('type'), null, true);
        if (body) call.args.push(lowerKeyed(this, body));
        return call;
      }
      case 'command': {
        const args = n.childrenForFieldName('argument').map((c) => this.expr(c));
        return makeCall(
          this,
          n,
          f('name'),
          args.filter((e) => e !== undefined),
          [],
          [],
          false,
        );
      }
      case 'object':
      case 'dictionary':
      case 'hash':
        return lowerMap(this, n);
      case 'array_creation_expression':
        return lowerPhpArray(this, n);
      case 'anonymous_object_creation_expression':
      case 'initializer_expression':
        return lowerInitializer(this, n);
      case 'literal_value':
        return lowerKeyed(this, n);
      case 'infix_expression': {
        const [left, operator, right] = named;
        if (operator?.text === 'to' && left && right) {
          const key = keyOf(this, left);
          if (key) return { k: 'map', ...span(n), entries: [{ ...key, value: this.expr(right) }] };
        }
        return this.other(n);
      }
      case 'binary_expression':
      case 'binary_operator':
      case 'boolean_operator':
      case 'binary':
      case 'additive_expression':
      case 'elvis_expression':
      case 'equality_expression':
      case 'comparison_operator':
        return this.binary(n, named);
      case 'assignment_expression':
      case 'assignment':
      case 'operator_assignment':
      case 'augmented_assignment':
      case 'variable_assignment':
        return this.assign(n, f('left') ?? f('name') ?? named[0], f('right') ?? f('value') ?? named.at(-1));
      case 'variable_declarator':
      case 'public_field_definition':
      case 'field_definition':
      case 'property_element':
      case 'const_element':
      case 'const_spec':
      case 'var_spec': {
        const target = f('name') ?? f('property') ?? named[0];
        const value = f('value') ?? f('default_value') ?? (named.length > 1 ? named.at(-1) : undefined);
        return this.assign(n, target, value === target ? undefined : value);
      }
      case 'short_var_declaration':
      case 'assignment_statement':
        return this.assign(n, f('left'), f('right'));
      // A parameter's default is a value it holds: Ruby `api_prefix: '/1'`, `prefix = '/1'`, Python `prefix="/1"`.
      case 'keyword_parameter':
      case 'optional_parameter':
      case 'default_parameter':
      case 'typed_default_parameter':
        return f('value') ? this.assign(n, f('name'), f('value')) : undefined;
      case 'property_declaration': {
        // Kotlin `val name = value`; C# `string Name { get; } = value`.
        const declaration = named.find((c) => c.type === 'variable_declaration');
        const name = declaration?.namedChildren.find((c) => c.type === 'identifier') ?? f('name');
        const value = declaration
          ? named
              .filter(
                (c) =>
                  c.startIndex >= declaration.endIndex &&
                  !/^(?:modifiers|getter|setter|property_delegate)$/.test(c.type),
              )
              .at(-1)
          : f('value');
        return this.assign(n, name, value);
      }
      case 'formal_parameter': {
        // Spring: `@Value("${payorder.auth-url:https://…}") String authUrl` binds its default.
        const text = springValue(named.find((c) => c.type === 'modifiers'));
        return text ? this.assign(n, f('name'), text) : this.other(n);
      }
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'method_definition':
      case 'function_definition':
      case 'method_declaration':
      case 'constructor_declaration':
      case 'local_function_statement':
      case 'method':
      case 'singleton_method':
        return this.func(n, f('name') ?? named.find((c) => c.type === 'identifier'));
      case 'arrow_function':
      case 'function_expression':
      case 'function':
      case 'lambda':
      case 'lambda_literal':
      case 'anonymous_function':
        return this.func(n, null);
      default:
        return undefined;
    }
  }

  member(n: S, object: S | null | undefined, name: S | null | undefined): A.Expr {
    const target = this.expr(object);
    if (!target || !name) return this.other(n);
    const text = name.type === 'variable_name' ? name.text.replace(/^\$/, '') : name.text;
    const start = name.startIndex + (name.text.length - text.length);
    return { k: 'member', object: target, name: text, start, end: name.endIndex, quoted: false };
  }

  private subscript(n: S, object: S | null | undefined, indexes: Array<S | null | undefined>): A.Expr {
    const target = this.expr(object);
    let index = indexes[0];
    while (
      index &&
      index.namedChildCount === 1 &&
      !STRING_NODES.has(index.type) &&
      !NAME_NODES.has(index.type)
    )
      index = index.namedChildren[0];
    const key = index ? this.expr(index) : undefined;
    const text = key?.k === 'str' ? literalPart(key) : undefined;
    if (!target || !text) return this.other(n);
    return {
      k: 'member',
      object: target,
      name: text.text,
      start: text.start,
      end: text.start + text.text.length,
      quoted: true,
    };
  }

  private ternary(n: S): A.Expr {
    const f = (field: string) => n.childForFieldName(field);
    const named = n.namedChildren.filter((c) => !c.type.includes('comment'));
    // Python puts the condition in the middle: `a if condition else b`.
    const [left, right, test] =
      this.language === 'python'
        ? [named[0], named[2], named[1]]
        : [
            f('consequence') ?? f('body') ?? named[1] ?? named[0],
            f('alternative') ?? named.at(-1),
            f('condition') ?? named[0],
          ];
    const a = this.expr(left);
    const b = this.expr(right);
    if (!a || !b) return this.other(n);
    const condition = test && test !== left ? this.expr(test) : undefined;
    return { k: 'bin', op: 'alt', left: a, right: b, ...(condition ? { condition } : {}), ...span(n) };
  }

  private binary(n: S, named: S[]): A.Expr {
    const left = this.expr(n.childForFieldName('left') ?? named[0]);
    const right = this.expr(n.childForFieldName('right') ?? named.at(-1));
    if (!left || !right || named.length < 2) return this.other(n);
    const operator =
      n.childForFieldName('operator')?.text ??
      n.children.find((c) => !c.isNamed && c.startIndex >= left.end && c.endIndex <= right.start)?.text ??
      '';
    const op: A.Binary['op'] =
      operator === '+' || operator === '.'
        ? 'concat'
        : ALT_OPERATORS.has(operator)
          ? 'alt'
          : operator === '%'
            ? 'format'
            : COMPARE_OPERATORS.has(operator)
              ? 'compare'
              : 'other';
    return { k: 'bin', op, left, right, ...span(n) };
  }

  private assign(n: S, target: S | null | undefined, value: S | null | undefined): A.Node {
    const lowered = target ? this.expr(target) : undefined;
    const names = target ? patternNames(target) : [];
    const assigned = value ? this.node(value) : undefined;
    if (assigned?.k === 'func' && names[0]) assigned.name ||= names[0];
    if (assigned && assigned.k !== 'func' && assigned.k !== 'type' && assigned.k !== 'assign')
      return { k: 'assign', target: lowered ?? this.other(n), names, value: assigned, ...span(n) };
    return {
      k: 'assign',
      target: lowered ?? this.other(n),
      names,
      ...(assigned ? { value: asExpr(assigned) } : {}),
      ...span(n),
    };
  }

  private func(n: S, name: S | null | undefined): A.Func {
    this.returns.push([]);
    const body = this.list(n).filter((node) => node.k !== 'id' || node.start !== name?.startIndex);
    const returns = this.returns.pop() ?? [];
    // Expression bodies (`=> x`, `= x`) and Ruby's last expression are returned values too.
    const last = body.at(-1);
    const expressionBody =
      n.childForFieldName('body')?.type.endsWith('expression') ||
      n.namedChildren.some((c) => c.type === 'arrow_expression_clause' || c.type === 'function_body') ||
      this.language === 'ruby';
    if (last && expressionBody) returns.push(...lastExpressions(last));
    return { k: 'func', name: name?.text.replace(/^\$/, '') ?? '', ...span(n), body, returns };
  }
}

export function asExpr(node: A.Node): A.Expr {
  if (node.k === 'assign' || node.k === 'type' || node.k === 'func')
    return { k: 'other', start: node.start, end: node.end, items: [node] };
  return node;
}

/** The names a declaration binds: `x`, `{ data, links }`, `[a, b]`, `$x`. */
function patternNames(target: S): string[] {
  if (
    target.type === 'identifier' ||
    target.type === 'variable_name' ||
    target.type === 'constant' ||
    target.type === 'simple_identifier'
  )
    return [target.text.replace(/^\$/, '')];
  if (/pattern|expression_list|pattern_list|tuple|left_assignment_list/.test(target.type)) {
    return target.namedChildren.flatMap((c) =>
      c.type.startsWith('shorthand_property') || c.type === 'identifier' || c.type === 'variable_name'
        ? [c.text.replace(/^\$/, '')]
        : c.type === 'pair_pattern'
          ? patternNames(c.childForFieldName('value') ?? c)
          : [],
    );
  }
  return [];
}

/** The value(s) a function body ends with. */
function lastExpressions(node: A.Node): A.Expr[] {
  const last = node.k === 'other' ? node.items.at(-1) : undefined;
  if (last) return lastExpressions(last);
  if (node.k === 'assign' || node.k === 'type' || node.k === 'func') return [];
  return [node];
}

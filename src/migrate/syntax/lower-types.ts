/**
 * Lowers the declarations that model JSON: classes, records, data classes, structs, interfaces and
 * enums, with each field's JSON name as its annotation, attribute, struct tag or alias gives it
 * (@JsonProperty("checkout_link"), @SerialName, [JsonPropertyName], `json:"…"`, Field(alias=…)).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type * as A from './ast.js';
import type { Lowerer } from './lowerer.js';

type S = SyntaxNode;

export const TYPE_NODES = new Set([
  'class_declaration',
  'record_declaration',
  'interface_declaration',
  'enum_declaration',
  'struct_declaration',
  'object_declaration',
  'type_alias_declaration',
  'type_spec',
  'class_definition',
  'class',
]);

/** Annotations and attributes that name a field's JSON key, and the argument that holds it. */
const NAMING =
  /^(?:JsonProperty|JsonPropertyName|SerializedName|SerialName|JsonAlias|Json|JsonbProperty|JsonNames|DataMember|JsonField)$/;
const NAMING_ARGUMENT =
  /^(?:value|name|Name|PropertyName|alias|serialization_alias|validation_alias|data_key)$/;

const named = (n: S) => n.namedChildren.filter((c) => !c.type.includes('comment'));

/** The string a naming annotation carries: its first string argument, or its `name = "…"`. */
function namingString(n: S): { name: string; start: number; end: number } | undefined {
  const stack = [...n.namedChildren];
  for (let node = stack.shift(); node !== undefined; node = stack.shift()) {
    if (['string_literal', 'string', 'interpreted_string_literal'].includes(node.type)) {
      const content = node.namedChildren.find(
        (c) => c.type.includes('content') || c.type.includes('fragment'),
      );
      if (content) return { name: content.text, start: content.startIndex, end: content.endIndex };
      return { name: '', start: node.startIndex + 1, end: node.startIndex + 1 };
    }
    const key = node.childForFieldName('key') ?? node.childForFieldName('name');
    if (key && !NAMING_ARGUMENT.test(key.text) && /pair|assignment|keyword/.test(node.type)) continue;
    stack.unshift(...node.namedChildren);
  }
  return undefined;
}

/**
 * Annotations and attributes that keep a field off the wire: Jackson's, System.Text.Json's and
 * Json.NET's JsonIgnore, kotlinx's Transient, data contracts' IgnoreDataMember.
 */
const IGNORING = /^(?:JsonIgnore|Transient|JsonbTransient|IgnoreDataMember)$/;

/**
 * The JSON name given by the annotations/attributes found in `n` (modifiers, attribute lists); a
 * field its serializer ignores is named "-", as Go's `json:"-"` names it, so no rule takes it for a
 * field that is sent.
 */
function jsonNameIn(n: S | null | undefined): A.Field['json'] {
  if (!n) return undefined;
  const stack = [n];
  let naming: A.Field['json'];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (/^(?:annotation|marker_annotation|attribute)$/.test(node.type)) {
      // The text up to the first "(" or space; the part after the last "."; the part before "(".
      const name =
        node.childForFieldName('name')?.text ?? node.text.replace(/^@/, '').replace(/[(\s][\s\S]*$/, '');
      const simple = name.replace(/^.*\./, '').replace(/^(?:property|field|get|param):/, '');
      if (IGNORING.test(simple)) return { name: '-', start: node.startIndex, end: node.startIndex };
      if (
        !naming &&
        (NAMING.test(simple) || NAMING.test(name.replace(/.*[.:]/, '').replace(/\([\s\S]*$/, '')))
      )
        naming = namingString(node);
      continue;
    }
    stack.push(...node.namedChildren);
  }
  return naming;
}

/** The string of a Spring `@Value("…")` annotation among modifiers. */
export function springValue(modifiers: S | undefined): S | undefined {
  const annotation = modifiers?.namedChildren.find(
    (c) => c.type === 'annotation' && c.childForFieldName('name')?.text === 'Value',
  );
  return annotation?.childForFieldName('arguments')?.namedChildren.find((c) => c.type === 'string_literal');
}

/** Go: `json:"checkout_link,omitempty"` inside a struct tag. */
function goTag(tag: S | null): A.Field['json'] {
  if (!tag) return undefined;
  const match = /json:"([^",]*)/.exec(tag.text);
  const name = match?.[1];
  if (!match || name === undefined) return undefined;
  const start = tag.startIndex + match.index + 6;
  return { name, start, end: start + name.length };
}

/** Python: `name: str = Field(alias="…")`. */
function pythonAlias(value: S | null | undefined): A.Field['json'] {
  if (value?.type !== 'call') return undefined;
  for (const arg of value.childForFieldName('arguments')?.namedChildren ?? []) {
    if (arg.type !== 'keyword_argument') continue;
    if (!NAMING_ARGUMENT.test(arg.childForFieldName('name')?.text ?? '')) continue;
    return namingString(arg);
  }
  return undefined;
}

function field(name: S, declaration: S, json: A.Field['json'], type?: string): A.Field {
  return {
    name: name.text.replace(/^\$/, ''),
    start: name.startIndex + (name.text.startsWith('$') ? 1 : 0),
    end: name.endIndex,
    declStart: declaration.startIndex,
    ...(json ? { json } : {}),
    ...(type ? { type } : {}),
  };
}

/** Fields (and nested types) declared directly in a body or parameter list. */
function fieldsOf(body: S, lowerer: Lowerer, decl: A.TypeDecl): void {
  for (const member of named(body)) {
    switch (member.type) {
      case 'field_declaration': {
        const modifiers = named(member).find((c) => c.type === 'modifiers' || c.type === 'attribute_list');
        const json = jsonNameIn(modifiers) ?? goTag(member.childForFieldName('tag'));
        const declarators = member.childrenForFieldName('declarator');
        const names =
          declarators.length > 0
            ? declarators.map((d) => d.childForFieldName('name'))
            : member.childrenForFieldName('name');
        const csharp = member.namedChildren.find((c) => c.type === 'variable_declaration');
        const all = csharp
          ? csharp.namedChildren
              .filter((c) => c.type === 'variable_declarator')
              .map((d) => d.childForFieldName('name') ?? d.namedChildren[0])
          : names;
        const type = member.childForFieldName('type')?.text;
        for (const name of all)
          if (name) decl.fields.push(field(name, member, jsonNameIn(member) ?? json, type));
        // Go: a field of an anonymous struct type (`Links struct { CheckoutLink string \`json:"checkoutLink"\` }`).
        const struct = member.childForFieldName('type');
        const last = decl.fields.at(-1);
        if (struct?.type === 'struct_type' && last && all.length > 0) {
          const nested: A.TypeDecl = {
            k: 'type',
            name: last.name,
            start: struct.startIndex,
            end: struct.endIndex,
            fields: [],
            constants: [],
            body: [],
          };
          for (const list of named(struct)) fieldsOf(list, lowerer, nested);
          last.nested = nested;
        }
        // Initialized fields (`static final String BASE = "…"`) are constants the rules follow, and so
        // are Spring's `@Value("${key:default}") String base;`.
        decl.body.push(...lowerer.list(member));
        const injected = springValue(modifiers);
        const first = all[0];
        if (injected && first) {
          const value = lowerer.expr(injected);
          const target: A.Name = { k: 'id', name: first.text, start: first.startIndex, end: first.endIndex };
          if (value)
            decl.body.push({
              k: 'assign',
              target,
              names: [first.text],
              value,
              start: member.startIndex,
              end: member.endIndex,
            });
        }
        break;
      }
      case 'formal_parameter':
      case 'parameter':
      case 'class_parameter':
      case 'property_promotion_parameter': {
        const name =
          member.childForFieldName('name') ??
          named(member).find(
            (c) => c.type === 'identifier' || c.type === 'simple_identifier' || c.type === 'variable_name',
          );
        if (name) decl.fields.push(field(name, member, jsonNameIn(member)));
        break;
      }
      case 'property_declaration': {
        const variable = named(member).find((c) => c.type === 'variable_declaration');
        const name =
          member.childForFieldName('name') ?? variable?.namedChildren.find((c) => c.type === 'identifier');
        if (name) decl.fields.push(field(name, member, jsonNameIn(member)));
        if (named(member).some((c) => c.type === 'property_element')) {
          for (const element of named(member).filter((c) => c.type === 'property_element')) {
            const variableName = element.childForFieldName('name') ?? element.namedChildren[0];
            if (variableName) decl.fields.push(field(variableName, member, undefined));
          }
          decl.body.push(...lowerer.list(member));
        } else {
          // Kotlin `val base = "…"`, C# `string Base { get; } = "…"`: a value the rules follow.
          const lowered = lowerer.node(member);
          if (lowered) decl.body.push(lowered);
        }
        break;
      }
      case 'property_signature':
      case 'public_field_definition': {
        const name = member.childForFieldName('name') ?? member.childForFieldName('property');
        if (!name) break;
        const f = field(name, member, undefined);
        const nestedType = member
          .childForFieldName('type')
          ?.namedChildren.find((c) => c.type === 'object_type');
        if (nestedType) {
          const nested: A.TypeDecl = {
            k: 'type',
            name: name.text,
            start: nestedType.startIndex,
            end: nestedType.endIndex,
            fields: [],
            constants: [],
            body: [],
          };
          fieldsOf(nestedType, lowerer, nested);
          f.nested = nested;
        }
        decl.fields.push(f);
        const value = member.childForFieldName('value');
        const lowered = value && lowerer.expr(value);
        if (lowered) decl.body.push(lowered);
        break;
      }
      case 'expression_statement': {
        // Python class attributes: `name: str` or `name: str = Field(alias="…")`; enum members `A = "A"`.
        const assignment = member.namedChildren[0];
        const left = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : undefined;
        if (assignment && left?.type === 'identifier') {
          if (assignment.childForFieldName('type'))
            decl.fields.push(field(left, member, pythonAlias(assignment.childForFieldName('right'))));
          else decl.constants.push({ k: 'id', name: left.text, start: left.startIndex, end: left.endIndex });
        }
        const lowered = lowerer.node(member);
        if (lowered) decl.body.push(lowered);
        break;
      }
      case 'enum_constant':
      case 'enum_entry':
      case 'enum_member_declaration':
      case 'enum_case':
      case 'enum_assignment': {
        const name =
          member.childForFieldName('name') ??
          named(member).find(
            (c) => c.type === 'identifier' || c.type === 'property_identifier' || c.type === 'name',
          );
        if (name)
          decl.constants.push({ k: 'id', name: name.text, start: name.startIndex, end: name.endIndex });
        const lowered = lowerer.list(member);
        decl.body.push(...lowered.filter((node) => node.k !== 'id'));
        break;
      }
      case 'property_identifier':
        decl.constants.push({ k: 'id', name: member.text, start: member.startIndex, end: member.endIndex });
        break;
      case 'field_declaration_list':
      case 'class_parameters':
      case 'primary_constructor':
      case 'formal_parameters':
      case 'parameter_list':
      case 'enum_body_declarations':
      case 'enum_member_declaration_list':
      case 'enum_constant_list':
        fieldsOf(member, lowerer, decl);
        break;
      case 'method_declaration': {
        if (member.childForFieldName('name')?.text === '__construct') {
          const parameters = member.childForFieldName('parameters');
          if (parameters) fieldsOf(parameters, lowerer, decl);
        }
        const lowered = lowerer.node(member);
        if (lowered) decl.body.push(lowered);
        break;
      }
      default: {
        const lowered = lowerer.node(member);
        if (lowered) decl.body.push(lowered);
      }
    }
  }
}

/** A type declaration, or undefined for a node that only looks like one (Go's non-struct type). */
export function lowerType(n: S, lowerer: Lowerer): A.TypeDecl | undefined {
  const nameNode =
    n.childForFieldName('name') ??
    named(n).find((c) => c.type.endsWith('identifier') || c.type === 'constant' || c.type === 'name');
  const decl: A.TypeDecl = {
    k: 'type',
    name: nameNode?.text ?? '',
    start: n.startIndex,
    end: n.endIndex,
    fields: [],
    constants: [],
    body: [],
  };
  if (n.type === 'type_spec') {
    const struct = n.childForFieldName('type');
    if (struct?.type !== 'struct_type') return undefined;
    for (const list of named(struct)) fieldsOf(list, lowerer, decl);
    return decl;
  }
  const parts = named(n).filter((c) => c !== nameNode);
  for (const part of parts) {
    if (
      /body|parameters|parameter_list|primary_constructor|object_type|declaration_list|enum_class_body|block/.test(
        part.type,
      )
    ) {
      fieldsOf(part, lowerer, decl);
    } else if (
      part.type !== 'modifiers' &&
      part.type !== 'attribute_list' &&
      part.type !== 'type_parameters'
    ) {
      const lowered = lowerer.node(part);
      if (lowered) decl.body.push(lowered);
    }
  }
  return decl;
}

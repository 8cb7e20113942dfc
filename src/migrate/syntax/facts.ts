/**
 * What one file's tree says, indexed for the rules: every node's parent, the values assigned to each
 * name (variables, constants, fields, properties), and the nodes of each kind.
 */
import {
  type Assign,
  type Node as AstNode,
  type Call,
  childrenOf,
  type Expr,
  type MapLit,
  type Member,
  type Name,
  type Str,
  type TypeDecl,
} from './ast.js';
import type { LanguageId } from './languages.js';

export interface Facts {
  language: LanguageId;
  nodes: AstNode[];
  parent: Map<AstNode, AstNode>;
  /** Values assigned to each name: `x = …`, `this.x = …`, `const X = …`, `private $x = …`. */
  values: Map<string, Expr[]>;
  types: TypeDecl[];
  assigns: Assign[];
  calls: Call[];
  strings: Str[];
  members: Member[];
  maps: MapLit[];
  names: Name[];
}

/** The name an assignment target binds: `x`, `this.x`, `self.x`, `$this->x`, `@x`, `X::Y`. */
export function targetName(target: Expr): string | undefined {
  if (target.k === 'id') return target.name.replace(/^\$/, '');
  if (target.k === 'member') return target.name;
  return undefined;
}

export function collectFacts(nodes: AstNode[], language: LanguageId): Facts {
  const facts: Facts = {
    language,
    nodes,
    parent: new Map(),
    values: new Map(),
    types: [],
    assigns: [],
    calls: [],
    strings: [],
    members: [],
    maps: [],
    names: [],
  };
  const stack: Array<[AstNode, AstNode | undefined]> = nodes.map((node) => [node, undefined]);
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, parent] = top;
    if (parent) facts.parent.set(node, parent);
    switch (node.k) {
      case 'assign': {
        facts.assigns.push(node);
        const name = targetName(node.target);
        if (name && node.value) {
          const list = facts.values.get(name) ?? [];
          list.push(node.value);
          facts.values.set(name, list);
        }
        break;
      }
      case 'type':
        facts.types.push(node);
        break;
      case 'call':
        facts.calls.push(node);
        break;
      case 'str':
        facts.strings.push(node);
        break;
      case 'member':
        facts.members.push(node);
        break;
      case 'map':
        facts.maps.push(node);
        break;
      case 'id':
        facts.names.push(node);
        break;
    }
    for (const child of childrenOf(node)) stack.push([child, node]);
  }
  for (const list of [facts.calls, facts.strings, facts.members, facts.maps, facts.names, facts.assigns])
    (list as Array<{ start: number }>).sort((a, b) => a.start - b.start);
  return facts;
}

/** The ancestors of a node, nearest first. */
export function* ancestors(facts: Facts, node: AstNode): Generator<AstNode> {
  let current = facts.parent.get(node);
  while (current) {
    yield current;
    current = facts.parent.get(current);
  }
}

/** The name an expression is rooted at: `order` for `order.links.checkoutLink`, `response.json()`. */
export function rootName(expr: Expr | undefined): string | undefined {
  for (let current = expr, depth = 0; current && depth < 20; depth++) {
    switch (current.k) {
      case 'id':
        return current.name.replace(/^\$/, '');
      case 'member':
        current = current.object;
        break;
      case 'call': {
        // `response.json()` is rooted at response; `JSON.parse(text)`, `json_decode($body)` at their argument.
        const object = current.callee?.k === 'member' ? current.callee.object : undefined;
        const parser =
          object?.k === 'id' &&
          /^(?:JSON|json|Json|JsonSerializer|JsonConvert|yaml|ujson|orjson)$/.test(object.name);
        current = object && !parser ? object : current.args[0];
        break;
      }
      case 'other':
        current =
          current.items.length === 1 && current.items[0]?.k !== 'assign'
            ? (current.items[0] as Expr)
            : undefined;
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** Splits an identifier into lower-case words: `checkoutURL` → "checkout url", `AUTH_HOST` → "auth host". */
export function words(name: string): string {
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[^A-Za-z\d]+/g, ' ')
    .toLowerCase()
    .trim();
}

/** A key or field name compared loosely: `client_secret_id`, `clientSecretId`, `ClientSecretId` alike. */
export const loose = (name: string) => name.replace(/[_\-\s]/g, '').toLowerCase();

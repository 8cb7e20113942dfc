/**
 * Reads configuration files as the formats they are and reports the v1 addresses in their values
 * (PO101), at the line and column where each address starts: .env files, YAML (Spring's
 * application.yml, Kubernetes ConfigMaps, compose files), JSON configuration (appsettings.json and
 * the like, comments allowed), HCL / Terraform (variable defaults, locals, tfvars) and Java
 * .properties. Each format is parsed by its own library; an address is then found in the value as
 * parsed and located in the value's source text.
 */
import { basename, extname } from 'node:path';
import { parse as parseJsonTree, type ValueNode } from '@humanwhocodes/momoa';
import { type Pair, parseLines } from 'dot-properties';
import { parse as parseEnv } from 'dotenv';
import type { Node as SyntaxNode } from 'web-tree-sitter';
import { isMap, isPair, isScalar, parseAllDocuments, visit } from 'yaml';
import { addressFindings, v1AddressesIn } from './addresses.js';
import { positionsIn } from './positions.js';
import type { Finding } from './rules.js';
import { parserFor } from './syntax/grammars.js';

export type ConfigFormat = 'env' | 'yaml' | 'json' | 'hcl' | 'properties';

/** A value as parsed, what names it, and where its source text is (offsets into the file). */
interface ConfigValue {
  value: string;
  /** Its name as shown: the `name` beside it (Kubernetes env, Postman), else its key path. */
  label: string;
  /** Everything that names it, to tell an auth or checkout address. */
  context: string;
  start: number;
  end: number;
}

/** The configuration format a file's name says, if any (JSON is told apart from bodies by content). */
export function configFormatOf(path: string): ConfigFormat | undefined {
  const name = basename(path).toLowerCase();
  if (name === '.env' || name.startsWith('.env.') || name.endsWith('.env')) return 'env';
  switch (extname(name)) {
    case '.yml':
    case '.yaml':
      return 'yaml';
    case '.tf':
    case '.tfvars':
    case '.hcl':
      return 'hcl';
    case '.properties':
      return 'properties';
    case '.jsonc':
      return 'json';
    default:
      return undefined;
  }
}

/** JSON files that are configuration by name: never reported as an unrecognized body. */
export function isConfigJsonName(path: string): boolean {
  return /^(?:appsettings(?:\.[\w-]+)*|local\.settings|launchsettings|config(?:\.[\w-]+)*|settings(?:\.[\w-]+)*|[\w.-]+\.config|[\w.-]+\.postman_environment|[\w.-]+\.postman_globals)\.jsonc?$/i.test(
    basename(path),
  );
}

const NAME_KEYS = ['name', 'key'];

/** What names a value: the keys above it, and a `name`/`key` beside it (Kubernetes env, Postman). */
function named(keys: unknown[], sibling?: string): { label: string; context: string } {
  const path = keys.filter((key) => key !== undefined && key !== '').join('.');
  return { label: sibling ?? path, context: sibling ? `${path} ${sibling}` : path };
}

function envValues(text: string): ConfigValue[] {
  const parsed = parseEnv(text);
  // dotenv gives the values (the last definition of a key wins); find where that definition is.
  const starts = new Map<string, number>();
  for (const match of text.matchAll(/^[ \t]*(?:export[ \t]+)?([\w.-]+)[ \t]*[=:]/gm))
    if (match[1] !== undefined) starts.set(match[1], match.index + match[0].length);
  return Object.entries(parsed).map(([key, value]) => {
    const start = starts.get(key) ?? 0;
    const newline = text.indexOf('\n', start);
    return { value, label: key, context: key, start, end: newline === -1 ? text.length : newline };
  });
}

function yamlValues(text: string): ConfigValue[] {
  const values: ConfigValue[] = [];
  for (const document of parseAllDocuments(text)) {
    if (!('contents' in document)) continue;
    visit(document, {
      Scalar(key, node, path) {
        if (key === 'key' || typeof node.value !== 'string' || !node.range) return;
        const keys: unknown[] = [];
        let sibling: string | undefined;
        for (const [index, ancestor] of path.entries()) {
          if (isPair(ancestor) && isScalar(ancestor.key)) keys.push(ancestor.key.value);
          if (index === path.length - 2 && isMap(ancestor))
            for (const name of NAME_KEYS) {
              const value = ancestor.get(name);
              if (typeof value === 'string') sibling ??= value;
            }
        }
        values.push({ value: node.value, ...named(keys, sibling), start: node.range[0], end: node.range[1] });
      },
    });
  }
  return values;
}

const memberName = (member: { name: { type: string; value?: unknown; name?: unknown } }) =>
  String(member.name.type === 'String' ? member.name.value : member.name.name);

function jsonValues(root: ValueNode): ConfigValue[] {
  const values: ConfigValue[] = [];
  const stack: Array<{ node: ValueNode; keys: unknown[]; sibling?: string }> = [{ node: root, keys: [] }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, keys, sibling } = top;
    if (node.type === 'String') {
      values.push({
        value: node.value,
        ...named(keys, sibling),
        start: node.loc.start.offset,
        end: node.loc.end.offset,
      });
    } else if (node.type === 'Object') {
      const named = node.members.find(
        (member) => NAME_KEYS.includes(memberName(member)) && member.value.type === 'String',
      )?.value;
      const name = named?.type === 'String' ? named.value : undefined;
      for (const member of [...node.members].reverse())
        stack.push({ node: member.value, keys: [...keys, memberName(member)], sibling: name });
    } else if (node.type === 'Array') {
      for (const element of [...node.elements].reverse()) stack.push({ node: element.value, keys });
    }
  }
  return values;
}

/** The JSON tree of a configuration file (comments and trailing commas allowed); undefined when it is not JSON. */
export function jsonConfigTree(text: string): ValueNode | undefined {
  try {
    return parseJsonTree(text, { mode: 'jsonc', allowTrailingCommas: true }).body;
  } catch {
    return undefined;
  }
}

/** The node at a path of keys and indexes in a JSON tree. */
export function jsonNodeAt(root: ValueNode, path: Array<string | number>): ValueNode | undefined {
  let node: ValueNode | undefined = root;
  for (const segment of path) {
    if (node?.type === 'Object')
      node = node.members.find((member) => memberName(member) === String(segment))?.value;
    else if (node?.type === 'Array' && typeof segment === 'number') node = node.elements[segment]?.value;
    else return undefined;
  }
  return node;
}

function propertiesValues(text: string): ConfigValue[] {
  return (parseLines(text, true) as Array<{ type: string }>)
    .filter((node): node is Pair => node.type === 'PAIR')
    .map((pair) => {
      const range = pair.range ?? [0, 0, 0, 0];
      return {
        value: pair.value,
        label: pair.key,
        context: pair.key,
        start: range[2] ?? range[0],
        end: range[3] ?? text.length,
      };
    });
}

const HCL_STRINGS = new Set(['string_lit', 'quoted_template', 'heredoc_template']);

/** What names an HCL value: the blocks (type and labels), attributes and object keys above it. */
function hclContext(node: SyntaxNode): string {
  const names: string[] = [];
  for (let at = node.parent; at; at = at.parent) {
    if (at.type === 'attribute' || at.type === 'block')
      names.unshift(
        at.children
          .flatMap((child) =>
            child && (child.type === 'identifier' || child.type === 'string_lit')
              ? [child.text.replace(/"/g, '')]
              : [],
          )
          .join('.'),
      );
    else if (at.type === 'object_elem') names.unshift(at.child(0)?.text.replace(/"/g, '') ?? '');
  }
  return names.join('.');
}

/** The locals of a file that are plain strings (`api_prefix = "/1"`), by name. */
function hclLocals(root: SyntaxNode): Map<string, string> {
  const locals = new Map<string, string>();
  for (const block of root.descendantsOfType('block')) {
    if (block?.child(0)?.text !== 'locals') continue;
    for (const attribute of block.descendantsOfType('attribute')) {
      const name = attribute?.child(0)?.text;
      const expression = attribute?.namedChildren.at(-1);
      const literal = expression?.descendantsOfType('string_lit')[0];
      // Only a local of this block whose whole value is one literal, nothing interpolated in it.
      if (
        !name ||
        !literal ||
        attribute?.parent?.parent?.id !== block.id ||
        expression?.text !== literal.text
      )
        continue;
      const text = literal.descendantsOfType('template_literal')[0]?.text;
      if (text !== undefined && literal.descendantsOfType('template_interpolation').length === 0)
        locals.set(name, text);
    }
  }
  return locals;
}

async function hclValues(text: string, file: string): Promise<ConfigValue[]> {
  // tree-sitter's HCL grammars, through the same runtime as the source checker.
  const parser = await parserFor(/\.tf(?:vars)?$/i.test(file) ? 'terraform' : 'hcl');
  const tree = parser.parse(text);
  if (!tree) return [];
  const values: ConfigValue[] = [];
  const locals = hclLocals(tree.rootNode);
  const stack: SyntaxNode[] = [tree.rootNode];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    // A block's labels (variable "auth_url") name things; they are not values.
    if (HCL_STRINGS.has(node.type) && node.parent?.type !== 'block') {
      // The source text of the string, with the file's own plain locals put in
      // ("https://…${local.api_prefix}/order/"): an address in it is found where it is written.
      const value = node.text.replace(
        /\$\{\s*local\.([\w-]+)\s*\}/g,
        (whole, name) => locals.get(name) ?? whole,
      );
      const context = hclContext(node);
      values.push({ value, label: context, context, start: node.startIndex, end: node.endIndex });
      continue;
    }
    for (let index = node.childCount - 1; index >= 0; index--) {
      const child = node.child(index);
      if (child) stack.push(child);
    }
  }
  tree.delete();
  return values;
}

/** The values of a configuration file in `format`; undefined when the text is not in it. */
async function valuesOf(
  text: string,
  file: string,
  format: ConfigFormat,
): Promise<ConfigValue[] | undefined> {
  switch (format) {
    case 'env':
      return envValues(text);
    case 'yaml':
      return yamlValues(text);
    case 'json': {
      const root = jsonConfigTree(text);
      return root && jsonValues(root);
    }
    case 'hcl':
      return hclValues(text, file);
    case 'properties':
      return propertiesValues(text);
  }
}

/** The v1 addresses in a configuration file, each at the line and column where it starts. */
export async function checkConfigFile(text: string, file: string, format: ConfigFormat): Promise<Finding[]> {
  const values = await valuesOf(text, file, format);
  if (!values) return [];
  const at = positionsIn(text);
  const findings: Finding[] = [];
  for (const { value, label, context, start, end } of values) {
    const source = text.slice(start, end);
    for (const address of v1AddressesIn(value, context)) {
      // Found in the parsed value; shown where it is written (escapes and quotes moved it).
      const written = source.indexOf(address.text);
      const location = { file, ...at(start + (written === -1 ? 0 : written)) };
      findings.push(...addressFindings(address, location, label ? `${label} is a v1 address` : undefined));
    }
  }
  return findings;
}

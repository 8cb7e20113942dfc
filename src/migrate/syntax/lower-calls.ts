/**
 * Lowers calls of every grammar into `call` nodes: the called name, positional and named arguments,
 * and the block or lambda passed along (Ruby blocks, Kotlin trailing lambdas).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type * as A from './ast.js';
import { mergeEntryMaps, pairOf } from './lower-maps.js';
import type { Lowerer } from './lowerer.js';

type S = SyntaxNode;

const span = (n: S) => ({ start: n.startIndex, end: n.endIndex });

export function lowerCall(
  l: Lowerer,
  n: S,
  callee: S | null | undefined,
  args: S | null | undefined,
  construct = false,
  receiver?: S | null,
): A.Call {
  const positional: A.Expr[] = [];
  const named: A.Entry[] = [];
  const block: A.Node[] = [];
  for (const arg of args?.namedChildren ?? []) {
    if (arg.type.includes('comment')) continue;
    const name = arg.childForFieldName('name');
    if (name && (arg.type === 'keyword_argument' || (arg.type === 'argument' && arg.namedChildCount > 1))) {
      const value = l.expr(arg.childForFieldName('value') ?? arg.namedChildren.at(-1));
      named.push({
        key: name.text,
        keyStart: name.startIndex,
        keyEnd: name.endIndex,
        quoted: false,
        value,
      });
      continue;
    }
    if (arg.type === 'pair') {
      const entry = pairOf(l, arg);
      if (entry) named.push(entry);
      continue;
    }
    if (arg.type === 'block' || arg.type === 'do_block' || arg.type === 'lambda_literal') {
      block.push(...l.list(arg));
      continue;
    }
    const expr = l.expr(arg);
    if (expr) positional.push(expr);
  }
  const target = receiver ? l.expr(receiver) : undefined;
  const lowered = makeCall(l, n, callee, positional, named, block, construct);
  if (target)
    lowered.callee = {
      k: 'member',
      object: target,
      name: lowered.name,
      start: lowered.nameStart,
      end: lowered.nameStart + lowered.name.length,
      quoted: false,
    };
  return lowered;
}

export function makeCall(
  l: Lowerer,
  n: S,
  callee: S | null | undefined,
  args: A.Expr[],
  named: A.Entry[],
  block: A.Node[],
  construct: boolean,
): A.Call {
  const target = l.expr(callee);
  const last =
    target?.k === 'member'
      ? { name: target.name, start: target.start }
      : target?.k === 'id'
        ? target
        : undefined;
  const nameNode = last ?? {
    name:
      callee?.text
        .split(/[.\\:\s<]/)
        .filter(Boolean)
        .at(-1) ?? '',
    start: callee?.startIndex ?? n.startIndex,
  };
  return {
    k: 'call',
    ...(target ? { callee: target } : {}),
    name: nameNode.name.replace(/^\$/, ''),
    nameStart: nameNode.start,
    ...span(n),
    args: mergeEntryMaps(nameNode.name, args),
    named,
    block,
    construct,
  };
}

export function kotlinCall(l: Lowerer, n: S, named: S[]): A.Call {
  const [callee, ...rest] = named;
  const args: A.Expr[] = [];
  const entries: A.Entry[] = [];
  const block: A.Node[] = [];
  for (const part of rest) {
    if (part.type === 'value_arguments') {
      for (const arg of part.namedChildren) {
        const inner = arg.namedChildren.filter((c) => !c.type.includes('comment'));
        const [first] = inner;
        if (
          first &&
          inner.length > 1 &&
          first.type === 'identifier' &&
          arg.children.some((c) => c.type === '=')
        ) {
          entries.push({
            key: first.text,
            keyStart: first.startIndex,
            keyEnd: first.endIndex,
            quoted: false,
            value: l.expr(inner.at(-1)),
          });
        } else {
          const expr = l.expr(inner.at(-1));
          if (expr) args.push(expr);
        }
      }
    } else if (part.type === 'annotated_lambda' || part.type === 'lambda_literal') {
      block.push(
        ...l.list(
          part.type === 'annotated_lambda'
            ? (part.namedChildren.find((c) => c.type === 'lambda_literal') ?? part)
            : part,
        ),
      );
    }
  }
  const call = makeCall(l, n, callee, args, entries, block, false);
  call.construct = /^[A-Z]/.test(call.name);
  return call;
}

export function rubyCall(l: Lowerer, n: S): A.Node {
  const receiver = n.childForFieldName('receiver');
  const method = n.childForFieldName('method');
  const args = n.childForFieldName('arguments');
  const block = n.childForFieldName('block');
  if (receiver && method && !args && !block) return l.member(n, receiver, method);
  const call = lowerCall(l, n, method, args, method?.text === 'new', receiver);
  if (block) call.block.push(...l.list(block));
  if (call.construct && receiver) {
    call.name = receiver.text.replace(/^.*::/, '');
    call.nameStart = receiver.startIndex;
  }
  return call;
}

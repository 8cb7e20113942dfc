/**
 * What the per-construct lowering modules (lower-calls, lower-maps, lower-strings, lower-types) need
 * of the tree walker in lower.ts: to lower a child node back through it. An interface of its own, so
 * those modules depend on this leaf and lower.ts on them, never the other way round.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type * as A from './ast.js';
import type { LanguageId } from './languages.js';

/** Lowers any node of a tree-sitter tree; implemented by the walker in lower.ts. */
export interface Lowerer {
  /** The grammar being lowered. */
  readonly language: LanguageId;
  /** The lowered named children of a node, comments and missing nodes left out. */
  list(n: SyntaxNode): A.Node[];
  /** A node lowered as an expression (declarations wrapped in `other`), or undefined. */
  expr(n: SyntaxNode | null | undefined): A.Expr | undefined;
  /** A node lowered as whatever it is, or undefined for a comment or a missing node. */
  node(n: SyntaxNode): A.Node | undefined;
  /** `object.name` as a `member` node, or `other` when either part does not lower. */
  member(n: SyntaxNode, object: SyntaxNode | null | undefined, name: SyntaxNode | null | undefined): A.Expr;
}

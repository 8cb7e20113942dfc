/**
 * The codemod's view of a parsed file: the node at an offset, whether an offset is code or comment,
 * the token (a string's text, a key, a property, a name) where a name or prefix is, and whether a
 * text parses with the file's grammar.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { type Node as Lowered, shiftOffsets, walk } from '../syntax/ast.js';
import { parserFor } from '../syntax/grammars.js';
import type { LanguageId } from '../syntax/languages.js';
import { lowerTree } from '../syntax/lower.js';
import { type Found, nearestMatch } from './edits.js';

/** Nodes that hold a string's text between its delimiters, even where escapes are their children. */
const STRING_TEXT = /content|fragment|^string_value$/;

/** The text as the grammar reads it: PHP written without its opening tag gets one. */
function grammarInput(text: string, language: LanguageId): { input: string; shift: number } {
  if (language === 'php' && !/<\?(?:php|=)?/.test(text)) return { input: `<?php ${text}`, shift: 6 };
  return { input: text, shift: 0 };
}

export class ParsedFile {
  private constructor(
    readonly text: string,
    readonly language: LanguageId,
    private readonly tree: Tree,
    private readonly shift: number,
  ) {}

  static async parse(text: string, language: LanguageId): Promise<ParsedFile | undefined> {
    const parser = await parserFor(language);
    const { input, shift } = grammarInput(text, language);
    const tree = parser.parse(input);
    return tree ? new ParsedFile(text, language, tree, shift) : undefined;
  }

  private lowered: Lowered[] | undefined;

  /**
   * The file's tree lowered into migrate-check's language-neutral nodes (syntax/ast.ts): strings with
   * their interpolations, member reads, calls, assignments, functions; offsets are the text's.
   */
  get syntax(): Lowered[] {
    if (!this.lowered) {
      this.lowered = lowerTree(this.tree.rootNode, this.language);
      if (this.shift !== 0) shiftOffsets(this.lowered, -this.shift);
    }
    return this.lowered;
  }

  private walked: Lowered[] | undefined;

  /** Every node of `syntax` once, parents before children (a function's returned value is also in its body). */
  get nodes(): Lowered[] {
    this.walked ??= [...new Set(walk(this.syntax))];
    return this.walked;
  }

  /** The root of the grammar's tree (for PHP without its tag, of the text with one). */
  get root(): Node {
    return this.tree.rootNode;
  }

  get hasError(): boolean {
    return this.tree.rootNode.hasError;
  }

  delete(): void {
    this.tree.delete();
  }

  /** The smallest node at `offset` of the text. */
  nodeAt(offset: number): Node {
    const at = offset + this.shift;
    return this.tree.rootNode.descendantForIndex(at, at) ?? this.tree.rootNode;
  }

  start(node: Node): number {
    return node.startIndex - this.shift;
  }

  end(node: Node): number {
    return node.endIndex - this.shift;
  }

  /**
   * The occurrence of `pattern` nearest `offset`, on its line, that lies inside one token of the
   * syntax tree and not in a comment: a string's text, a key, a property or a name. The pattern may
   * look around the token (`(?<=\.)checkout`, `(?<=['"])1(?=['"])`); what it matches is the token's.
   */
  tokenMatch = (offset: number, pattern: RegExp): Found | undefined =>
    nearestMatch(this.text, offset, pattern, (start, end) => {
      const token = this.tree.rootNode.descendantForIndex(
        start + this.shift,
        Math.max(start, end - 1) + this.shift,
      );
      return token !== null && (token.childCount === 0 || STRING_TEXT.test(token.type)) && this.isCode(start);
    });

  /** False inside a comment. */
  isCode = (offset: number): boolean => {
    for (let node: Node | null = this.nodeAt(offset); node; node = node.parent)
      if (node.type.includes('comment')) return false;
    return true;
  };
}

/** Whether `text` parses with the grammar without an error. */
export async function parsesCleanly(text: string, language: LanguageId): Promise<boolean> {
  const parsed = await ParsedFile.parse(text, language);
  if (!parsed) return false;
  try {
    return !parsed.hasError;
  } finally {
    parsed.delete();
  }
}

/** The ancestors of a node, nearest first, the node included. */
export function* ancestry(node: Node): Generator<Node> {
  for (let current: Node | null = node; current; current = current.parent) yield current;
}

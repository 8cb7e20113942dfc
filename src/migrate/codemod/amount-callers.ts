/**
 * PO104 beyond the file: an order body whose amount is a parameter of the function that sends it
 * (`createOrder(amount, description) { … { amount, userName, … } }`) takes what its callers pass.
 * Where a caller, in any file of the unit, passes a decimal written out (`'12.50'`) or a variable set
 * to one (`const price = '12.50'`), that decimal is converted to cents where it is written, exactly.
 * The body is found through the finding that points into it (userName, PO103).
 */
import type { Node } from 'web-tree-sitter';
import { parseAmount } from '../../contract/money.js';
import type { Finding } from '../rules.js';
import * as A from '../syntax/ast.js';
import { offsetOf, type TextEdit } from './edits.js';
import { PAIRS } from './node-kinds.js';
import { assignmentsOf, callsOf, parameterOf } from './origins.js';
import { ancestry, type ParsedFile } from './tree.js';

/** A unit's parsed file and its path. */
export interface UnitFile {
  path: string;
  parsed: ParsedFile;
}

/** A name of the tree: `amount`, `$amount`, `price`. */
const NAME = /^\$?([A-Za-z_]\w*)$/;

/** The variable an order body's amount entry is: `amount` (shorthand), `amount: price`, `'amount' => $price`. */
function amountVariable(body: Node): string | undefined {
  for (const entry of body.namedChildren) {
    if (!entry) continue;
    if (entry.type === 'shorthand_property_identifier' && entry.text === 'amount') return 'amount';
    if (!PAIRS.has(entry.type)) continue;
    const key = (entry.childForFieldName('key') ?? entry.namedChildren[0])?.text.replace(/^['"]|['"]$/g, '');
    const value = entry.childForFieldName('value') ?? entry.namedChildren.at(-1);
    if (key === 'amount' && value && /identifier|variable_name/.test(value.type))
      return NAME.exec(value.text)?.[1];
  }
  return undefined;
}

/** A string literal that is a decimal with at most two decimals: `'12.50'`. */
const decimalLiteral = (value: A.Expr | undefined): A.Str | undefined =>
  value?.k === 'str' && /^\d+\.\d{1,2}$/.test(A.literalPart(value)?.text ?? '') ? value : undefined;

/** The decimal literal a variable is set to in a file, when it is set once. */
function decimalAssigned(parsed: ParsedFile, name: string): A.Str | undefined {
  const assignments = assignmentsOf(parsed, name);
  // Set twice: which value reaches the order is not known.
  return assignments.length === 1 ? decimalLiteral(assignments[0]?.value) : undefined;
}

/** The edits, by file path, that convert the decimals callers pass as an order body's amount. */
export function amountsFromCallers(
  files: UnitFile[],
  findings: Map<string, Finding[]>,
): Map<string, TextEdit[]> {
  const edits = new Map<string, TextEdit[]>();
  const add = (file: ParsedFile, literal: A.Str, finding: Finding) => {
    const path = files.find((one) => one.parsed === file)?.path;
    const text = A.literalPart(literal)?.text;
    if (!path || !text) return;
    const quote = literal.raw[0] ?? "'";
    const cents = `${quote}${parseAmount(text).toString()}${quote}`;
    edits.set(path, [
      ...(edits.get(path) ?? []),
      {
        start: literal.start,
        end: literal.end,
        text: cents,
        label: `amount ${literal.raw} → ${cents} (cents), passed to the order`,
        finding,
      },
    ]);
  };
  for (const { path, parsed } of files)
    for (const finding of findings.get(path) ?? []) {
      if (finding.rule !== 'PO103') continue;
      const offset = offsetOf(parsed.text, finding.location.line ?? 1, finding.location.column ?? 1);
      const body = [...ancestry(parsed.nodeAt(offset))].find((node) =>
        /^(?:object|dictionary|hash|array)$/.test(node.type),
      );
      const name = body && amountVariable(body);
      const parameter = name ? parameterOf(parsed, offset, name) : undefined;
      if (!parameter) continue;
      for (const { file, call } of callsOf(
        files.map((one) => one.parsed),
        parameter.name,
        parameter.index,
      )) {
        const value = call.args[parameter.index];
        const literal =
          decimalLiteral(value) ??
          (value?.k === 'id' ? decimalAssigned(file, value.name.replace(/^\$/, '')) : undefined);
        if (literal) add(file, literal, finding);
      }
    }
  return edits;
}

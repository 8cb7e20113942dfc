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
import { offsetOf, type TextEdit } from './edits.js';
import { callsOf, idParameter, variableOf } from './lookup-callers.js';
import { PAIRS } from './node-kinds.js';
import { ancestry, type ParsedFile } from './tree.js';

/** A unit's parsed file and its path. */
export interface UnitFile {
  path: string;
  parsed: ParsedFile;
}

const DECIMAL_LITERAL = /^(['"])(\d+\.\d{1,2})\1$/;

/** The variable an order body's amount entry is: `amount` (shorthand), `amount: price`, `'amount' => $price`. */
function amountVariable(body: Node): string | undefined {
  for (const entry of body.namedChildren) {
    if (!entry) continue;
    if (entry.type === 'shorthand_property_identifier' && entry.text === 'amount') return 'amount';
    if (!PAIRS.has(entry.type)) continue;
    const key = (entry.childForFieldName('key') ?? entry.namedChildren[0])?.text.replace(/^['"]|['"]$/g, '');
    const value = entry.childForFieldName('value') ?? entry.namedChildren.at(-1);
    if (key === 'amount' && value) return variableOf(value.text);
  }
  return undefined;
}

/** The decimal literal a variable is set to in a file: its offset and text. */
function decimalAssigned(parsed: ParsedFile, name: string): { start: number; text: string } | undefined {
  const bare = name.replace(/^\$/, '');
  const set = new RegExp(`(?:^|[\\s;(])\\$?${bare}\\s*(?::=|=(?!=))\\s*(['"])(\\d+\\.\\d{1,2})\\1`, 'gm');
  let found: { start: number; text: string } | undefined;
  for (let match = set.exec(parsed.text); match; match = set.exec(parsed.text)) {
    const literal = `${match[1]}${match[2]}${match[1]}`;
    const start = match.index + match[0].length - literal.length;
    if (!parsed.isCode(start)) continue;
    // Set twice: which value reaches the order is not known.
    if (found) return undefined;
    found = { start, text: literal };
  }
  return found;
}

const centsOf = (literal: string) => {
  const quote = literal[0] ?? "'";
  return `${quote}${parseAmount(literal.slice(1, -1)).toString()}${quote}`;
};

/** The edits, by file path, that convert the decimals callers pass as an order body's amount. */
export function amountsFromCallers(
  files: UnitFile[],
  findings: Map<string, Finding[]>,
): Map<string, TextEdit[]> {
  const edits = new Map<string, TextEdit[]>();
  const add = (file: ParsedFile, start: number, literal: string, finding: Finding) => {
    const path = files.find((one) => one.parsed === file)?.path;
    if (!path) return;
    const cents = centsOf(literal);
    edits.set(path, [
      ...(edits.get(path) ?? []),
      {
        start,
        end: start + literal.length,
        text: cents,
        label: `amount ${literal} → ${cents} (cents), passed to the order`,
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
      const parameter = name ? idParameter(parsed, offset, name) : undefined;
      if (!parameter) continue;
      for (const call of callsOf(
        files.map((one) => one.parsed),
        parameter.name,
      )) {
        const value = call.args[parameter.index];
        if (value === undefined) continue;
        if (DECIMAL_LITERAL.test(value)) {
          const start = call.file.text.indexOf(value, call.at);
          if (start >= 0) add(call.file, start, value, finding);
          continue;
        }
        const variable = variableOf(value);
        const assigned = variable ? decimalAssigned(call.file, variable) : undefined;
        if (assigned) add(call.file, assigned.start, assigned.text, finding);
      }
    }
  return edits;
}

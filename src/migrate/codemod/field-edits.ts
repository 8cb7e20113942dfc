/**
 * PO110 (a warning): a read of orderNumber, refNumber or currency, which v2 orders do not have. Only
 * a statement that does nothing but print such a field is removed (Python's KeyError, PHP's warning
 * and Java's null would otherwise come of it on v2); a read the code goes on to use is left for a
 * person, as the finding says.
 */
import type { Finding } from '../rules.js';
import { STATEMENT, STOP, wholeLines } from './node-kinds.js';
import type { RenameResult } from './renames.js';
import { ancestry, type ParsedFile } from './tree.js';

/**
 * A statement that prints: print(…), puts, echo, console.log(…), System.out.println(…), fmt.Println(…),
 * Kotlin's println(…), C#'s Console.WriteLine(…).
 */
const PRINTS =
  /^(?:print(?:ln)?|puts|echo|printf|say|console\.(?:log|info)|System\.out\.print(?:ln|f)?|fmt\.Print(?:ln|f)?|Console\.Write(?:Line)?)\b[^;\n]*;?$/;
/** What a printed line must not also show: the link, the status, the uuid, the description. */
const OTHER_READS = /links|checkout|status|uuid|description|amount/i;

export function v1FieldEdit(parsed: ParsedFile, offset: number, finding: Finding): RenameResult | undefined {
  const statement = [...ancestry(parsed.nodeAt(offset))].find(
    (node) =>
      STATEMENT.test(node.type) ||
      (node.parent !== null &&
        (STOP.test(node.parent.type) || /^(?:body_statement|program)$/.test(node.parent.type))),
  );
  if (!statement || statement.type === 'assignment') return undefined;
  const text = statement.text.trim();
  if (!PRINTS.test(text) || OTHER_READS.test(text)) return undefined;
  const lines = wholeLines(parsed.text, parsed.start(statement), parsed.end(statement));
  if (lines.end === parsed.end(statement)) return undefined;
  return {
    edits: [
      {
        ...lines,
        text: '',
        label: `removed the line printing a field v2 orders do not have: ${text}`,
        finding,
      },
    ],
    notes: [`the line that printed a field v2 orders do not have was removed: ${text}`],
  };
}

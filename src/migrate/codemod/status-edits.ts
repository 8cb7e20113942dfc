import type { Finding } from '../rules.js';
import { lineAround, nearestMatch } from './edits.js';
import type { RenameResult, TodoLine } from './renames.js';
import type { ParsedFile } from './tree.js';

/**
 * REFUNDED, where statuses are switched on: a chain of "status is not X" gets "and not REFUNDED"
 * (so a refunded order never reaches the paid path), and a shell case pattern with FAILED gets
 * REFUNDED beside it. Both are marked for review.
 */
export function refundedEdit(
  parsed: ParsedFile,
  offset: number,
  finding: Finding,
  todo: TodoLine,
): RenameResult {
  const review = 'TODO(payorder): review: REFUNDED (v2) is a final state that is not paid';
  const line = lineAround(parsed.text, offset);
  const text = parsed.text.slice(line.start, line.end);
  const notEqual = /([$\w.[\]'"]+?)\s*(!==|!=|-ne)\s*(['"])PENDING\3/.exec(text);
  const conjunction = /&&|\band\b/.exec(text);
  if (notEqual && conjunction) {
    const [whole, subject, operator, quote] = notEqual;
    const start = line.start + notEqual.index + whole.length;
    const marker = todo(offset, review);
    return {
      edits: [
        {
          start,
          end: start,
          text: ` ${conjunction[0]} ${subject} ${operator} ${quote}REFUNDED${quote}`,
          label: 'REFUNDED is not paid',
          finding,
        },
        ...(marker ? [marker] : []),
      ],
      notes: ['REFUNDED is handled as final and not paid: review the branch'],
    };
  }
  const pattern = /^(\s*)((?:[\w"']+\s*\|\s*)*(?:["']?FAILED["']?)(?:\s*\|\s*[\w"']+)*)\)/m;
  const casePattern =
    nearestMatch(parsed.text, offset, pattern, parsed.isCode) ??
    (parsed.language === 'bash' ? findBelow(parsed, offset, pattern) : undefined);
  if (casePattern) {
    const end = casePattern.start + casePattern.match[0].length - 1;
    const marker = todo(casePattern.start, review);
    return {
      edits: [
        { start: end, end, text: ' | REFUNDED', label: 'REFUNDED joins the not-paid branch', finding },
        ...(marker ? [marker] : []),
      ],
      notes: ['REFUNDED is handled as final and not paid: review the branch'],
    };
  }
  return { edits: [], notes: [], failed: 'no status test to extend with REFUNDED was recognized here' };
}

/** A case item within the next few lines (a finding on `case` points at the statement). */
function findBelow(parsed: ParsedFile, offset: number, pattern: RegExp) {
  let at = lineAround(parsed.text, offset).end + 1;
  for (let step = 0; step < 4 && at < parsed.text.length; step++) {
    const found = nearestMatch(parsed.text, at, pattern, parsed.isCode);
    if (found) return found;
    at = lineAround(parsed.text, at).end + 1;
  }
  return undefined;
}

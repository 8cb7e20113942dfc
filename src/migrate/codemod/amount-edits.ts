/**
 * PO104: the amount in integer cents. A decimal written out is converted here, exactly; any other
 * amount expression is wrapped in the language's idiom (idioms.ts), with the import it needs.
 */
import type { Node } from 'web-tree-sitter';
import { parseAmount } from '../../contract/money.js';
import type { Finding } from '../rules.js';
import type { TextEdit } from './edits.js';
import { goCents, goFieldCents } from './go-amounts.js';
import { CENTS, type CodeLanguage } from './idioms.js';
import { PAIRS, STATEMENT, STOP, STRING_TYPES } from './node-kinds.js';
import type { RenameResult } from './renames.js';
import { ancestry, type ParsedFile } from './tree.js';

const DECIMAL = /^\d+(?:\.\d{1,2})?$/;
/** An expression's place inside a string: Kotlin's and C#'s `interpolation`, JavaScript's `template_substitution`. */
const INTERPOLATION = /^(?:interpolation|template_substitution)$/;

/**
 * The value expression the finding points into: the highest node below the entry, argument list,
 * assignment or statement that holds it (`cart.total.toFixed(2)` in `amount: cart.total.toFixed(2)`).
 */
function amountExpression(parsed: ParsedFile, offset: number): Node | undefined {
  let best: Node | undefined;
  for (const ancestor of ancestry(parsed.nodeAt(offset))) {
    if (PAIRS.has(ancestor.type) || STATEMENT.test(ancestor.type) || STOP.test(ancestor.type)) break;
    // An expression interpolated into a string (`"amount": "${total.setScale(2)…}"` in Kotlin, a
    // template literal's `${…}`) is the amount; the string around it is the body.
    if (INTERPOLATION.test(ancestor.type)) break;
    // A format string ("%d.%02d", "{:.2f}", C#'s "{0:0.00}") is an argument of the call that makes
    // the amount. PHP and C# wrap each argument in an `argument` node.
    const formatArgument =
      best &&
      (STRING_TYPES.test(best.type) || best.type === 'argument') &&
      /^['"].*(?:%|\{\d*:)/.test(best.text);
    if (/argument_list|arguments|value_arguments/.test(ancestor.type) && formatArgument) continue;
    if (
      /argument_list|arguments|parenthesized|array|object|dictionary|list|declaration|declarator/.test(
        ancestor.type,
      )
    )
      break;
    if (ancestor.type.includes('assignment') || ancestor.type === 'function_body') break;
    best = ancestor;
  }
  return best;
}

export function centsEdit(parsed: ParsedFile, offset: number, finding: Finding): RenameResult {
  const language = parsed.language as CodeLanguage;
  // A decimal written out: its cents, computed here exactly.
  const literal = parsed.tokenMatch(offset, /(?<=["'])\d+\.\d{1,2}(?=\\?["'])/);
  if (literal && Math.abs(literal.start - offset) <= 2) {
    const cents = parseAmount(literal.match[0]).toString();
    return {
      edits: [
        {
          start: literal.start,
          end: literal.end,
          text: cents,
          label: `amount ${literal.match[0]} → ${cents} (cents)`,
          finding,
        },
      ],
      notes: [],
    };
  }
  const scaled =
    language === 'bash' ? shellScaledCents(parsed, offset, finding) : scaledCents(parsed, offset, finding);
  if (scaled) return scaled;
  const field =
    language === 'go'
      ? [...ancestry(parsed.nodeAt(offset))].find((node) => node.type === 'field_declaration')
      : undefined;
  if (field) return goFieldCents(parsed, field, finding);
  const expression = amountExpression(parsed, offset);
  if (language === 'go' && expression) return goCents(parsed, expression, finding);
  const idiom = CENTS[language];
  if (!expression || !idiom)
    return {
      edits: [],
      notes: [],
      failed: `no amount expression that can be converted to cents in ${language} here`,
    };
  const value = expression.text;
  const interpolated = /\{|\$|#\{/.test(value);
  if (STRING_TYPES.test(expression.type) && !interpolated && !DECIMAL.test(value.replace(/^["']|["']$/g, '')))
    return { edits: [], notes: [], failed: 'the amount is a string that is not a plain decimal' };
  const edits: TextEdit[] = [
    {
      start: parsed.start(expression),
      end: parsed.end(expression),
      text: idiom.wrap(value),
      label: `amount ${value} → integer cents by exact arithmetic`,
      finding,
    },
  ];
  if (idiom.needs) edits.push(...importLine(parsed, idiom.needs));
  return {
    edits,
    notes: [
      `the amount ${value} is sent in integer cents; where it holds a binary float, this is exact for amounts with at most two decimals`,
    ],
  };
}

/** A name holding integer cents, scaled down by 100 (`cents / 100`, `$cents / 100.0`). */
const BY_100 = String.raw`(?<name>\$?[A-Za-z_]\w*)\s*\/\s*100(?:\.0*)?`;
const Q = `['"]`;

/**
 * A decimal made of integer cents, per language, and the same value in cents with the expression's
 * type kept (a string stays a string, a BigDecimal or Decimal stays one): the edit gives back the
 * integer it was made of, with no arithmetic at all.
 */
const SCALED: Partial<Record<CodeLanguage, Array<{ made: RegExp; cents: (name: string) => string }>>> = {
  javascript: [
    { made: new RegExp(String.raw`^\(\s*${BY_100}\s*\)\.toFixed\(\s*2\s*\)$`), cents: (n) => `String(${n})` },
  ],
  php: [
    {
      made: new RegExp(String.raw`^sprintf\(\s*${Q}%\.2f${Q}\s*,\s*${BY_100}\s*\)$`),
      cents: (n) => `(string) ${n}`,
    },
    {
      made: new RegExp(
        String.raw`^number_format\(\s*${BY_100}\s*,\s*2\s*(?:,\s*${Q}\.${Q}\s*,\s*${Q}${Q}\s*)?\)$`,
      ),
      cents: (n) => `(string) ${n}`,
    },
  ],
  python: [
    {
      made: new RegExp(
        String.raw`^\(\s*Decimal\((?<name>[A-Za-z_]\w*)\)\s*\/\s*100\s*\)\.quantize\(\s*Decimal\(\s*${Q}0\.01${Q}\s*\)\s*\)$`,
      ),
      cents: (n) => `Decimal(${n})`,
    },
    { made: new RegExp(String.raw`^f${Q}\{\s*${BY_100}\s*:\.2f\}${Q}$`), cents: (n) => `str(${n})` },
  ],
  ruby: [
    {
      made: new RegExp(String.raw`^format\(\s*${Q}%\.2f${Q}\s*,\s*${BY_100}\s*\)$`),
      cents: (n) => `${n}.to_s`,
    },
    {
      made: new RegExp(
        String.raw`^\(\s*BigDecimal\((?<name>[A-Za-z_]\w*)\)\s*\/\s*100\s*\)\.round\(2\)\.to_s\(${Q}F${Q}\)$`,
      ),
      cents: (n) => `${n}.to_s`,
    },
  ],
  java: [
    {
      made: /^BigDecimal\.valueOf\(\s*(?<name>[A-Za-z_]\w*)\s*,\s*2\s*\)$/,
      cents: (n) => `BigDecimal.valueOf(${n})`,
    },
    {
      made: /^new BigDecimal\(\s*(?<name>[A-Za-z_]\w*)\s*\)\.divide\((?:BigDecimal\.valueOf\(100\)|new BigDecimal\(100\)|BigDecimal\.valueOf\(100L\))\)(?:\.setScale\(\s*2\s*(?:,\s*[\w.]+)?\))?$/,
      cents: (n) => `BigDecimal.valueOf(${n})`,
    },
  ],
};

/** The largest expression around `offset`, below its statement, that is a decimal made of integer cents. */
function scaledCents(parsed: ParsedFile, offset: number, finding: Finding): RenameResult | undefined {
  const language =
    parsed.language === 'typescript' || parsed.language === 'tsx' ? 'javascript' : parsed.language;
  const forms = SCALED[language as CodeLanguage] ?? [];
  let found: { node: Node; text: string } | undefined;
  for (const node of ancestry(parsed.nodeAt(offset))) {
    if (STATEMENT.test(node.type) || STOP.test(node.type) || PAIRS.has(node.type)) break;
    for (const form of forms) {
      const name = form.made.exec(node.text)?.groups?.name;
      if (name) found = { node, text: form.cents(name) };
    }
  }
  if (!found) return undefined;
  const { node, text } = found;
  return {
    edits: [
      {
        start: parsed.start(node),
        end: parsed.end(node),
        text,
        label: `amount ${node.text} → ${text} (the integer cents it was made of)`,
        finding,
      },
    ],
    notes: [],
  };
}

/** `$(printf '%d.%02d' $((cents / 100)) $((cents % 100)))`: a decimal made of integer cents. */
const SHELL_SCALED =
  /^\$\(\s*printf\s+(['"])%d\.%02d\1\s+"?\$\(\(\s*\$?(\w+)\s*\/\s*100\s*\)\)"?\s+"?\$\(\(\s*\$?\2\s*%\s*100\s*\)\)"?\s*\)$/;

/** Shell: the decimal printed from a scaled integer gives way to the integer itself. */
function shellScaledCents(parsed: ParsedFile, offset: number, finding: Finding): RenameResult | undefined {
  const substitution = [...ancestry(parsed.nodeAt(offset))].find(
    (node) => node.type === 'command_substitution',
  );
  const scaled = substitution && SHELL_SCALED.exec(substitution.text);
  if (!substitution || !scaled) return undefined;
  const text = `$((${scaled[2]}))`;
  return {
    edits: [
      {
        start: parsed.start(substitution),
        end: parsed.end(substitution),
        text,
        label: `amount ${substitution.text} → ${text} (the integer cents it was made of)`,
        finding,
      },
    ],
    notes: [],
  };
}

/**
 * The import line an idiom needs (Python), unless one of the file's top-level imports has it: after
 * the last of them (`from __future__` ones included, which must come first), or after the module's
 * docstring and first comments.
 */
function importLine(parsed: ParsedFile, needs: { line: string; present: RegExp }): TextEdit[] {
  const top = parsed.root.namedChildren.filter((node) => node !== null);
  const imports = top.filter((node) =>
    /^(?:import_statement|import_from_statement|future_import_statement)$/.test(node.type),
  );
  if (imports.some((node) => needs.present.test(node.text))) return [];
  const docstring =
    top[0]?.type === 'expression_statement' && top[0].firstNamedChild?.type === 'string' ? top[0] : undefined;
  const comments = top.filter(
    (node) => node.type === 'comment' && (!docstring || node.startIndex < docstring.startIndex),
  );
  const after = imports.at(-1) ?? docstring ?? comments.at(-1);
  const at = after ? parsed.text.indexOf('\n', parsed.end(after)) + 1 || parsed.text.length : 0;
  const text =
    at === parsed.text.length && !parsed.text.endsWith('\n') ? `\n${needs.line}\n` : `${needs.line}\n`;
  return [{ start: at, end: at, text, label: `added ${needs.line}` }];
}

/**
 * The edits that rename or rewrite one name or prefix where a finding points, the same in every
 * language and configuration format: the v1 prefix and address (PO101), user_name (PO102), the
 * payment link's key (PO105) and the lookup path (PO106). The caller finds the name: in a token of
 * the file's syntax tree (a string's text, a key, a property), or on the line's text where the file
 * has no tree; the finding's column points at the name itself.
 */
import { PREFIX } from '../../contract/versions.js';
import type { Finding } from '../rules.js';
import { type FindNear, lineAround, type TextEdit } from './edits.js';
import { FLAG_OF, originOf, type V2Addresses, v2For } from './v2-addresses.js';

export interface RenameResult {
  edits: TextEdit[];
  /** What is left for a person, one line each (without the file). */
  notes: string[];
  /** Why there is no edit, when there is none. */
  failed?: string;
  /** Go: the packages the edits use, imported once per file. */
  imports?: string[];
}

const none = (failed: string): RenameResult => ({ edits: [], notes: [], failed });

/** A v1 prefix, with the origin written before it when there is one. */
const V1_PREFIX = /(https?:\/\/[^\s'"`/$]+)?\/1(?![\w.-])/;
/** The version alone, joined with a slash later: `'api_version' => '1'`, `API_VERSION = "1"`. */
const V1_VERSION = /(?<=(['"]))1(?=\1)/;

/** A TODO comment line above the line of `offset`, when the format has comments there. */
export type TodoLine = (offset: number, message: string) => TextEdit | undefined;

export function prefixEdit(
  text: string,
  offset: number,
  finding: Finding,
  addresses: V2Addresses,
  find: FindNear,
  todo: TodoLine,
): RenameResult {
  const found = find(offset, V1_PREFIX);
  if (!found) {
    const version = find(offset, V1_VERSION);
    if (version && Math.abs(version.start - offset) <= 1)
      return {
        edits: [
          {
            start: version.start,
            end: version.end,
            text: PREFIX.v2.slice(1),
            label: `version 1 → ${PREFIX.v2.slice(1)}`,
            finding,
          },
        ],
        notes: [],
      };
    // "through NAME": the prefix is where NAME is defined, and that finding's edit fixes this one.
    return { edits: [], notes: [] };
  }
  const origin = found.match[1] ? originOf(found.match[1]) : undefined;
  const line = lineAround(text, offset);
  // What the address is for: its line, and the name the finding gives it (HCL: variable.payorder_auth_url.default).
  const context = `${text.slice(line.start, line.end)} ${finding.message}`.replace(
    /https?:\/\/[^\s'"`/]+/g,
    '',
  );
  if (!origin)
    return {
      edits: [
        {
          start: found.start,
          end: found.end,
          text: PREFIX.v2,
          label: `${PREFIX.v1} → ${PREFIX.v2}`,
          finding,
        },
      ],
      notes: [],
    };
  const v2 = v2For(addresses, origin, context);
  if ('v2' in v2)
    return {
      edits: [
        { start: found.start, end: found.end, text: v2.v2, label: `${found.match[0]} → ${v2.v2}`, finding },
      ],
      notes: [],
    };
  const flag = v2.unknown ? FLAG_OF[v2.unknown] : `${FLAG_OF.auth} or ${FLAG_OF.checkout}`;
  const message = `the v2 host of ${origin} is not known: the v1 host was kept; give ${flag} URL`;
  const marker = todo(offset, `TODO(payorder): ${message}`);
  const prefixStart = found.start + (found.match[1]?.length ?? 0);
  return {
    edits: [
      {
        start: prefixStart,
        end: found.end,
        text: PREFIX.v2,
        label: `${PREFIX.v1} → ${PREFIX.v2} (v1 host kept)`,
        finding,
      },
      ...(marker ? [marker] : []),
    ],
    notes: [message],
  };
}

/** Renames the name `from` (as a whole word, next to the finding's column) to `to`. */
export function renameEdit(
  find: FindNear,
  offset: number,
  finding: Finding,
  pattern: RegExp,
  to: string,
): RenameResult {
  const found = find(offset, pattern);
  if (!found) return none(`no ${pattern.source.replace(/\\b|\(\?[<=!][^)]*\)/g, '')} to rename on this line`);
  return {
    edits: [{ start: found.start, end: found.end, text: to, label: `${found.match[0]} → ${to}`, finding }],
    notes: [],
  };
}

export const USER_NAME = /\buser_name\b/;
/** The payment link's v1 key: checkoutLink, or the reference sample's checkout as a key or property. */
export const CHECKOUT_LINK =
  /\bcheckoutLink\b|(?<=(?:\.|\[\s*['"]|\[:|"|'|->))checkout\b(?![\w/-])|(?<=[{,(]\s*)checkout(?=\s*:(?!:))/;
/** The v1 lookup path's "order", after a slash or a quote (`/1/order/`, `"order/#{id}"`), before a slash or a quote. */
export const LOOKUP_PATH = /(?<=[/'"`])order(?=\/|['"`]|$)/;

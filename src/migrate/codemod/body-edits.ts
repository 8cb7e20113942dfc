/**
 * PO103: userName out of the order body. An entry is removed with its comma (object, dict, keyword
 * argument, PHP array, Ruby hash, Go keyed element), a statement that sets it is removed whole, a
 * key inside a string (JSON in curl -d) is cut out of it; a Go field gets json:"-", and a Java or
 * C# member the ignore annotation of its serializer.
 */
import type { Node } from 'web-tree-sitter';
import type { Finding } from '../rules.js';
import { entryOf, PAIRS, STATEMENT, STOP, wholeLines } from './node-kinds.js';
import type { RenameResult } from './renames.js';
import { ancestry, type ParsedFile } from './tree.js';

/** Removes a list element with one of its commas. */
function removeElement(parsed: ParsedFile, element: Node): { start: number; end: number } {
  const next = element.nextSibling;
  const previous = element.previousSibling;
  let start = parsed.start(element);
  let end = parsed.end(element);
  if (next?.type === ',') {
    end = parsed.end(next);
    // The space after the comma goes too, when the next entry is on the same line.
    while (parsed.text[end] === ' ' || parsed.text[end] === '\t') end++;
  } else if (previous?.type === ',') start = parsed.start(previous);
  return wholeLines(parsed.text, start, end);
}

/** A key and its value inside a string (a JSON body, a jq program), with one comma. */
const EMBEDDED_VALUE = String.raw`(?:"'"\$\{?\w+\}?"'"|\\"["']\s*[+.]\s*[^+."']+?\s*[+.]\s*["']\\"|\\?"(?:[^"\\]|\\.)*?\\?"|'[^']*'|[^,}\s]+)`;
const EMBEDDED_USER = [
  new RegExp(String.raw`\\?["']?userName\\?["']?\s*:\s*${EMBEDDED_VALUE}\s*,\s*`),
  new RegExp(String.raw`,\s*\\?["']?userName\\?["']?\s*:\s*${EMBEDDED_VALUE}`),
];

/**
 * A body's class (Java, C#): the userName member is kept in the code but no longer serialized, with
 * the ignore annotation of the serializer the file already uses (Jackson, System.Text.Json,
 * Json.NET, DataContractJsonSerializer), so that no constructor or initializer breaks.
 */
function ignoreMember(parsed: ParsedFile, offset: number, finding: Finding): RenameResult | undefined {
  const label = 'userName no longer serialized';
  const notes = ['the UserName member is no longer sent; remove it when nothing else sets it'];
  const named = namingAnnotation(parsed, offset);
  if (named)
    return { edits: [{ start: named.start, end: named.end, text: named.ignore, label, finding }], notes };
  const component = [...ancestry(parsed.nodeAt(offset))].find((node) =>
    /^(?:formal_parameter|record_component|field_declaration)$/.test(node.type),
  );
  if (parsed.language === 'kotlin') return transientParameter(parsed, offset, finding);
  if (parsed.language === 'java' && component && parsed.text.includes('com.fasterxml.jackson')) {
    const start = parsed.start(component);
    return {
      edits: [{ start, end: start, text: '@com.fasterxml.jackson.annotation.JsonIgnore ', label, finding }],
      notes,
    };
  }
  return undefined;
}

const MEMBER = /^(?:formal_parameter|record_component|field_declaration|property_declaration)$/;

/**
 * The annotation or attribute that names the member around `offset` userName for its serializer
 * (`@JsonProperty("userName")`, `[JsonPropertyName("userName")]` on the line above, a data contract's
 * `[DataMember(Name = "userName")]`): the range of its name and arguments, and the ignore annotation
 * of the same serializer that replaces them.
 */
function namingAnnotation(
  parsed: ParsedFile,
  offset: number,
): { start: number; end: number; ignore: string } | undefined {
  const member = [...ancestry(parsed.nodeAt(offset))].find((node) => MEMBER.test(node.type));
  const annotations = member?.descendantsOfType(['annotation', 'attribute']) ?? [];
  for (const annotation of annotations) {
    const name = annotation?.childForFieldName('name');
    const argument = annotation?.descendantsOfType(['string_fragment', 'string_literal_content'])[0];
    if (!annotation || !name || argument?.text !== 'userName') continue;
    const ignore = /^JsonProperty(?:Name)?$/.test(name.text)
      ? parsed.language === 'java'
        ? 'com.fasterxml.jackson.annotation.JsonIgnore'
        : 'JsonIgnore'
      : name.text === 'DataMember'
        ? 'IgnoreDataMember'
        : undefined;
    if (ignore) return { start: parsed.start(name), end: parsed.end(annotation), ignore };
  }
  return undefined;
}

/**
 * A Kotlin data class parameter serialized by kotlinx.serialization: it stays (its callers pass it)
 * but is @Transient, which kotlinx requires to have a default: "" for a String, null for a String?.
 */
function transientParameter(parsed: ParsedFile, offset: number, finding: Finding): RenameResult | undefined {
  const parameter = [...ancestry(parsed.nodeAt(offset))].find((node) => node.type === 'class_parameter');
  if (!parameter || !/kotlinx\.serialization/.test(parsed.text)) return undefined;
  const type = /:\s*(String\??)\s*(=.*)?$/s.exec(parameter.text);
  if (!type) return undefined;
  const start = parsed.start(parameter);
  const end = parsed.end(parameter);
  const label = 'userName no longer serialized';
  return {
    edits: [
      { start, end: start, text: '@kotlinx.serialization.Transient ', label, finding },
      ...(type[2] ? [] : [{ start: end, end, text: type[1] === 'String' ? ' = ""' : ' = null', label }]),
    ],
    notes: ['the userName parameter is no longer sent; remove it when nothing else sets it'],
  };
}

/** The userName entry inside a string, or strings joined (`"…\"userName\":\"" + user + "\",…"`), nearest the finding. */
function embeddedEntry(
  parsed: ParsedFile,
  holder: Node,
  offset: number,
): { start: number; end: number } | undefined {
  const base = parsed.start(holder);
  for (const pattern of EMBEDDED_USER) {
    const search = new RegExp(pattern.source, 'g');
    let best: { start: number; end: number } | undefined;
    for (let match = search.exec(holder.text); match; match = search.exec(holder.text)) {
      const start = base + match.index;
      if (!best || Math.abs(start - offset) < Math.abs(best.start - offset))
        best = { start, end: start + match[0].length };
    }
    if (best && Math.abs(best.start - offset) < 80) return best;
  }
  return undefined;
}

export function removeUserName(parsed: ParsedFile, offset: number, finding: Finding): RenameResult {
  const label = 'userName removed from the order body';
  if (parsed.language === 'java' || parsed.language === 'c_sharp' || parsed.language === 'kotlin') {
    const ignored = ignoreMember(parsed, offset, finding);
    if (ignored) return ignored;
  }
  const node = parsed.nodeAt(offset);
  for (const ancestor of ancestry(node)) {
    if (
      /string|heredoc|raw|concatenation|binary_expression/.test(ancestor.type) &&
      /[{]/.test(ancestor.text)
    ) {
      // The entry may run across strings joined together ('{"userName":"'"$USER"'"}', "…" + user + "…"):
      // the whole join holds it (joins with + nest to the left).
      let holder = ancestor;
      while (holder.parent && /string|concatenation|binary_expression/.test(holder.parent.type))
        holder = holder.parent;
      const found = embeddedEntry(parsed, holder, offset);
      if (found) return { edits: [{ ...found, text: '', label, finding }], notes: [] };
    }
    if (ancestor.type === 'field_declaration' && parsed.language === 'go') {
      const tag = parsed.tokenMatch(offset, /json:"userName[^"]*"/);
      if (tag)
        return {
          edits: [
            {
              start: tag.start,
              end: tag.end,
              text: 'json:"-"',
              label: 'userName no longer sent (json:"-")',
              finding,
            },
          ],
          notes: ['the UserName field is no longer sent; remove it when nothing else reads it'],
        };
    }
    if (PAIRS.has(ancestor.type)) {
      const range = removeElement(parsed, entryOf(ancestor));
      return { edits: [{ ...range, text: '', label, finding }], notes: [] };
    }
    if (STATEMENT.test(ancestor.type) && ancestor.parent && STOP.test(ancestor.parent.type)) {
      const range = wholeLines(parsed.text, parsed.start(ancestor), parsed.end(ancestor));
      return { edits: [{ ...range, text: '', label, finding }], notes: [] };
    }
    if (STOP.test(ancestor.type)) break;
  }
  return { edits: [], notes: [], failed: 'no body entry of userName to remove was recognized here' };
}

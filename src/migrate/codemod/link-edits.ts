/**
 * PO105: the payment link read from checkout_link. A key, property or string is renamed; a Java or
 * Kotlin member that a serializer maps by its name (a record component, a data class parameter) keeps
 * its name, which the code calls, and gets the serializer's annotation naming checkout_link instead.
 */
import type { Finding } from '../rules.js';
import { CHECKOUT_LINK, type RenameResult, renameEdit } from './renames.js';
import { ancestry, type ParsedFile } from './tree.js';

const MEMBERS = /^(?:formal_parameter|record_component|field_declaration|class_parameter)$/;

/** The annotation of the serializer the file uses, naming checkout_link; undefined when it tells none. */
function annotation(parsed: ParsedFile): string | undefined {
  if (parsed.language === 'java' && parsed.text.includes('com.fasterxml.jackson'))
    return '@com.fasterxml.jackson.annotation.JsonProperty("checkout_link") ';
  if (parsed.language === 'kotlin' && /kotlinx\.serialization/.test(parsed.text))
    return '@kotlinx.serialization.SerialName("checkout_link") ';
  return undefined;
}

export function linkEdit(parsed: ParsedFile, offset: number, finding: Finding): RenameResult {
  if (parsed.language === 'java' || parsed.language === 'kotlin') {
    const name = parsed.tokenMatch(offset, /\bcheckoutLink\b/);
    const member = name && [...ancestry(parsed.nodeAt(name.start))].find((node) => MEMBERS.test(node.type));
    if (member) {
      const mapped = annotation(parsed);
      if (!mapped)
        return {
          edits: [],
          notes: [],
          failed: 'a member named checkoutLink, mapped by a serializer payorder does not recognize here',
        };
      const start = parsed.start(member);
      return {
        edits: [{ start, end: start, text: mapped, label: 'checkoutLink read from checkout_link', finding }],
        notes: [],
      };
    }
  }
  const renamed = renameEdit(parsed.tokenMatch, offset, finding, CHECKOUT_LINK, 'checkout_link');
  const edit = renamed.edits[0];
  // `const { checkoutLink } = order.links` binds the name the code reads after: the key alone changes.
  if (edit && parsed.nodeAt(edit.start).type === 'shorthand_property_identifier_pattern') {
    const name = parsed.text.slice(edit.start, edit.end);
    return {
      edits: [{ ...edit, text: `checkout_link: ${name}`, label: `{ ${name} } → { checkout_link: ${name} }` }],
      notes: [],
    };
  }
  return renamed;
}

/**
 * Types that model the service's bodies and answers: classes, records, data classes, structs,
 * interfaces, and schemas written as objects (zod). A field whose JSON name is a v1 name is reported,
 * with the fix in the language's own terms (an annotation, an attribute, a rename).
 */
import { LINK_FIELDS, ORDER_FIELDS, TOKEN_FIELDS } from '../../contract/fields.js';
import type { MapLit, TypeDecl } from './ast.js';
import { modelKind } from './context.js';
import type { Facts } from './facts.js';
import { type Hit, hit } from './hits.js';

const v1User = TOKEN_FIELDS.v1.user;
const v2User = TOKEN_FIELDS.v2.user;
const { amount, userName, notificationUrl, orderNumber, refNumber, currency } = ORDER_FIELDS;
const { checkout, sampleCheckout } = LINK_FIELDS;

/** Schemas written as objects: `z.object({ orderNumber: z.string() })`, `t.type({…})`. */
export function schemas(facts: Facts): TypeDecl[] {
  const found: TypeDecl[] = [];
  const toType = (map: MapLit, name: string): TypeDecl => ({
    k: 'type',
    name,
    start: map.start,
    end: map.end,
    constants: [],
    body: [],
    fields: map.entries
      .filter((entry) => entry.key)
      .map((entry) => {
        const nested =
          entry.value?.k === 'call' && entry.value.args[0]?.k === 'map' ? entry.value.args[0] : undefined;
        return {
          name: entry.key,
          start: entry.keyStart,
          end: entry.keyEnd,
          declStart: entry.keyStart,
          ...(nested ? { nested: toType(nested, entry.key) } : {}),
        };
      }),
  });
  for (const call of facts.calls) {
    const [first] = call.args;
    if (
      !/^(?:object|strictObject|looseObject|type|interface|partial|Schema)$/.test(call.name) ||
      first?.k !== 'map'
    )
      continue;
    if (facts.parent.get(call)?.k === 'map') continue;
    found.push(toType(first, ''));
  }
  return found;
}

const ANNOTATION: Partial<Record<string, (name: string) => string>> = {
  java: (name) => `@JsonProperty("${name}") `,
  kotlin: (name) => `@SerialName("${name}") `,
  c_sharp: (name) => `[JsonPropertyName("${name}")] `,
};

/** Types that model the service's bodies: fields named as v1 names them. */
export function checkModel(type: Parameters<typeof modelKind>[0], facts: Facts): Hit[] {
  const kind = modelKind(type);
  const hits: Hit[] = [];
  // C# serializers match property names without regard to case, unless an attribute names the field.
  const same = (field: { name: string; json?: { name: string } }, name: string) =>
    field.json
      ? field.json.name === name
      : facts.language === 'c_sharp'
        ? field.name.toLowerCase() === name.toLowerCase()
        : field.name === name;
  for (const field of type.fields) {
    if (field.nested) hits.push(...checkModel(field.nested, facts));
    const at = field.json?.start ?? field.start;
    const annotate = ANNOTATION[facts.language];
    const renameTo = (name: string) =>
      field.json
        ? { start: field.json.start, end: field.json.end, text: name }
        : annotate
          ? { start: field.declStart, end: field.declStart, text: annotate(name) }
          : { start: field.start, end: field.end, text: name };
    if (kind === 'token' && same(field, v1User)) hits.push(hit('PO102', at, 'error', renameTo(v2User)));
    if (kind === 'order' && same(field, userName)) hits.push(hit('PO103', at, 'error'));
    if (kind === 'order' && same(field, notificationUrl)) hits.push(hit('PO108', at, 'warning'));
    // Go: encoding/json writes a float64 as a JSON number with decimals ("amount": 149.9).
    if (
      kind === 'order' &&
      facts.language === 'go' &&
      same(field, amount) &&
      /^float(?:32|64)$/.test(field.type ?? '')
    )
      hits.push({
        rule: 'PO104',
        at,
        severity: 'error',
        message: `a decimal amount (v1 format): a ${field.type} field sent as a JSON number`,
        fix: 'send whole cents as an integer string: an int64 field tagged `json:"amount,string"`, set to int64(math.Round(x*100))',
      });
    if (same(field, checkout.v1) || (/^links$/i.test(type.name) && same(field, sampleCheckout)))
      hits.push(hit('PO105', at, 'error', renameTo(checkout.v2)));
    if (kind === 'response' && (same(field, orderNumber) || same(field, refNumber) || same(field, currency)))
      hits.push(hit('PO110', at, 'warning'));
  }
  return hits;
}

/**
 * What a person may give `order get` as an order's id, and what it looks like: a uuid (both
 * versions), a v1 order id or its resource path, some other id, or something that is no id at all
 * (an amount, an e-mail address, a description). The shape decides the hint when an order is not
 * found: the versions are separate services, and the service looks orders up by id only.
 */

import { commandLine, type HintTarget } from '../command-line.js';
import { type ApiVersion, PATHS } from '../contract/versions.js';
import { usageError } from '../errors.js';

/** "/1/order/abc" → "abc": a resource path is reduced to its last segment. */
export function orderKey(id: string): string {
  const trimmed = id.trim().replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/**
 * The id to look up, or a usage error: an empty id, "." and "..", dot segments and control
 * characters would make the lookup address point elsewhere (with the token attached). Spaces and
 * line ends around it (a paste) are dropped, and a uuid is sent in lower case, as uuids are written
 * (RFC 9562) and as the service gives them: a uuid pasted in capitals is the same order.
 */
export function checkOrderId(given: string): string {
  const id = given.trim();
  const key = orderKey(id);
  if (
    key === '' ||
    /[\u0000-\u001f\u007f]/.test(id) ||
    id.split('/').some((part) => part === '.' || part === '..')
  )
    throw usageError(`${JSON.stringify(id)} is not an order id`, {
      field: 'id',
      hint: 'give the uuid of the order (v1 also takes its id or resource path)',
    });
  return isUuid(key) ? key.toLowerCase() : key;
}

export type IdShape = 'uuid' | 'v1-id' | 'other-id' | 'not-an-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `key` is a uuid (either case). */
export const isUuid = (key: string): boolean => UUID.test(key);
/** The v1 resource path's prefix, "/1/order/". */
const V1_PATH = PATHS.lookup('v1', '');
/** A v1 id as the sandbox makes them (the spec shows none): hex digits without dashes. */
const V1_ID = /^[0-9a-f]{8,32}$/i;
/** What ids are made of; anything else (spaces, @, a decimal point, a query) is not an id. */
const ID_CHARACTERS = /^[A-Za-z0-9_-]+$/;

/** What the id a person gave looks like. */
export function idShape(given: string): IdShape {
  const key = orderKey(given);
  if (isUuid(key)) return 'uuid';
  if (given.trim().startsWith(V1_PATH) || V1_ID.test(key)) return 'v1-id';
  return ID_CHARACTERS.test(key) ? 'other-id' : 'not-an-id';
}

const BY_ID_ONLY =
  'the service looks orders up by id only: the order uuid (v1: also the order id), not by reference, amount, e-mail or description';

/** The hint for an order not found by `given` on `target`: what to try instead, as a command to paste. */
export function notFoundHint(given: string, target: HintTarget): string {
  const { version } = target;
  const other: ApiVersion = version === 'v2' ? 'v1' : 'v2';
  const onOther = commandLine(['order', 'get', given.trim()], { ...target, version: other });
  switch (idShape(given)) {
    case 'not-an-id':
      return `${JSON.stringify(given)} is not an order id; ${BY_ID_ONLY}`;
    case 'uuid':
      return `check the uuid and the environment; an order created on ${other} is found only with --api ${other}: ${onOther}`;
    case 'v1-id':
      return version === 'v2'
        ? `this looks like a v1 order id: v2 looks orders up by uuid only; try ${onOther}`
        : 'check the id and the environment; an order created on v2 is found only by its uuid with --api v2';
    default:
      return version === 'v2'
        ? `v2 looks orders up by uuid only; a v1 order id needs --api v1: ${onOther}`
        : 'check the id and the environment; v1 looks orders up by uuid or order id';
  }
}

/**
 * The ids in the lines of an `order get --input` file: one per line (blank lines and `#` comments
 * skipped), or payorder's own TSV (of `order create -o tsv`, `order get -o tsv`, `sandbox orders
 * -o tsv`), recognized by its header: its `uuid` column is read, and a row without one (a batch
 * line that made no order) is skipped. A header line that is `uuid` alone (`cut -f3` of it) is too.
 */
export async function* idsOfLines(lines: AsyncIterable<{ text: string }>): AsyncGenerator<string> {
  let column: number | undefined;
  let first = true;
  for await (const { text: line } of lines) {
    const text = line.trim();
    if (text === '' || text.startsWith('#')) continue;
    if (first) {
      first = false;
      const header = line.split('\t').map((cell) => cell.trim());
      if (header.includes('uuid')) {
        column = header.indexOf('uuid');
        continue;
      }
    }
    const id = column === undefined ? text : (line.split('\t')[column] ?? '').trim();
    if (id !== '') yield id;
  }
}

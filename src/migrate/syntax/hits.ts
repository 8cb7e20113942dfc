/**
 * What a source rule reports: a hit at a file offset, with its message and fix, and the edit that
 * applies the fix where one is certain. The rules (checks.ts and the modules it runs) all build hits
 * here, so none of them needs the dispatcher that runs them.
 */
import { LINK_FIELDS, ORDER_FIELDS, ORDER_STATES, TOKEN_FIELDS } from '../../contract/fields.js';
import type { RuleId, Severity } from '../rules.js';

/** Text that replaces the file's bytes from start to end: the fix, where it is certain. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** One finding of a source rule, before source.ts gives it a line and a column. */
export interface Hit {
  rule: RuleId;
  /** File offset the finding points at. */
  at: number;
  severity: Severity;
  message: string;
  fix: string;
  edit?: Edit;
}

const v1User = TOKEN_FIELDS.v1.user;
const v2User = TOKEN_FIELDS.v2.user;
const { userName, notificationUrl, links, uuid, externalReference, orderNumber, refNumber, currency } =
  ORDER_FIELDS;
const { checkout, sampleCheckout } = LINK_FIELDS;
const { pending, refunded } = ORDER_STATES;

/** What the message adds when the code may not be talking to the service. */
export const UNSURE = ' (if this code talks to the payment order service)';

/** The message and fix of each rule that several checks report. */
export const MESSAGES = {
  PO102: { message: `${v1User} in the token request`, fix: `rename ${v1User} → ${v2User}` },
  PO103: {
    message: `${userName} in the order body`,
    fix: `remove ${userName} from the order body (v2: the token identifies the user)`,
  },
  PO105: {
    message: `the payment link read from ${links}.${checkout.v1} / ${links}.${sampleCheckout}`,
    fix: `read ${links}.${checkout.v2}`,
  },
  PO107: {
    message: `status handling knows ${pending} but not ${refunded}`,
    fix: `handle ${refunded}, which v2 orders can reach`,
  },
  PO108: {
    message: `${notificationUrl}, whose v2 support the spec does not show`,
    fix: 'confirm v2 notifications with the service before relying on them',
  },
  PO110: {
    message: `${orderNumber} / ${refNumber} / ${currency}, which v2 orders do not have`,
    fix: `identify orders by ${uuid} (and ${externalReference}) instead`,
  },
} as const;

/** A hit of one of MESSAGES' rules; info marks that the code may not talk to the service. */
export function hit(rule: keyof typeof MESSAGES, at: number, severity: Severity, edit?: Edit): Hit {
  const { message, fix } = MESSAGES[rule];
  return {
    rule,
    at,
    severity,
    message: severity === 'info' ? message + UNSURE : message,
    fix,
    ...(edit ? { edit } : {}),
  };
}

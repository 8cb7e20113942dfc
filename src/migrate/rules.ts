/**
 * The migrate-check rules: stable ids, what each finds, how bad it is on v2, and how to fix it.
 * Every step of the spec's migration list (§9.3) is covered by at least one rule (`step`).
 */
import { LINK_FIELDS, ORDER_FIELDS, ORDER_STATES, TOKEN_FIELDS } from '../contract/fields.js';
import { PATHS, PREFIX } from '../contract/versions.js';

const { v1: tokenV1, v2: tokenV2 } = TOKEN_FIELDS;
const {
  amount,
  description,
  userName,
  notificationUrl,
  externalReference,
  links,
  uuid,
  orderNumber,
  currency,
  refNumber,
} = ORDER_FIELDS;
const { checkout, sampleCheckout } = LINK_FIELDS;
const { pending, refunded } = ORDER_STATES;

export type Severity = 'error' | 'warning' | 'info';

export interface Rule {
  id: string;
  name: string;
  severity: Severity;
  /** The §9.3 migration step it covers, when it covers one. */
  step?: string;
  summary: string;
  help: string;
  /** What the rule finds, as a merchant would have it (shown by --rules and in the README). */
  bad: string;
  /** The same thing done the v2 way. */
  good: string;
}

export const RULES = [
  {
    id: 'PO101',
    name: 'v1-address',
    severity: 'error',
    step: 'Replace the base addresses',
    summary: 'A v1 address: the /1 version prefix on an auth or checkout address',
    help: 'Use the v2 base addresses and the /v2/api prefix ({auth_url}/v2/api/auth/token, {checkout_url}/v2/api/checkout); the v2 domains differ from v1.',
    bad: `AUTH_URL=https://auth.example.com${PREFIX.v1}`,
    good: `AUTH_URL=https://auth.v2.example.com${PREFIX.v2}`,
  },
  {
    id: 'PO102',
    name: 'token-user-name',
    severity: 'error',
    step: `Rename ${tokenV1.user} to ${tokenV2.user} in the token request`,
    summary: `The token request names the user field ${tokenV1.user}`,
    help: `Rename ${tokenV1.user} → ${tokenV2.user}; the other fields stay.`,
    bad: `{"${tokenV1.user}": "shop", "${tokenV1.clientId}": "…", …}`,
    good: `{"${tokenV2.user}": "shop", "${tokenV2.clientId}": "…", …}`,
  },
  {
    id: 'PO103',
    name: 'order-username',
    severity: 'error',
    step: `Remove ${userName} from the order creation body`,
    summary: `The order creation body carries ${userName}`,
    help: `Remove ${userName}: on v2 the token identifies the user.`,
    bad: `{"${amount}": "14990", "${userName}": "shop", …}`,
    good: `{"${amount}": "14990", …}`,
  },
  {
    id: 'PO104',
    name: 'decimal-amount',
    severity: 'error',
    step: 'Send amount in cents as an integer string',
    summary: 'A decimal amount, as v1 takes it',
    help: 'Send whole cents as an integer string: "149.90" → "14990". Convert with integer arithmetic, never through a float.',
    bad: `{"${amount}": "149.90", …}`,
    good: `{"${amount}": "14990", …}`,
  },
  {
    id: 'PO105',
    name: 'checkout-link',
    severity: 'error',
    step: `Read the payment link from ${links}.${checkout.v2}`,
    summary: `The payment link is read from ${links}.${checkout.v1} (or the reference sample's ${links}.${sampleCheckout})`,
    help: `Read ${links}.${checkout.v2}.`,
    bad: `redirect(order.${links}.${checkout.v1})`,
    good: `redirect(order.${links}.${checkout.v2})`,
  },
  {
    id: 'PO106',
    name: 'lookup-path',
    severity: 'error',
    step: 'Lookup path changes from /order/:id to /orders/:uuid',
    summary: 'The v1 lookup path /order/:id',
    help: 'Look orders up with GET /orders/:uuid (by the uuid, not the v1 id).',
    bad: `GET {checkout_url}${PATHS.lookup('v1', '9a8b7c')}`,
    good: `GET {checkout_url}${PATHS.lookup('v2').replace(':uuid', '{uuid}')}`,
  },
  {
    id: 'PO107',
    name: 'refunded-state',
    severity: 'warning',
    step: `State ${refunded} exists only in v2`,
    summary: `Status handling knows ${pending} but not ${refunded}`,
    help: `Handle the ${refunded} state, which v2 orders can reach.`,
    bad: `if (status === '${pending}') wait();`,
    good: `if (status === '${pending}') wait(); else if (status === '${refunded}') refund();`,
  },
  {
    id: 'PO108',
    name: 'notification-url',
    severity: 'warning',
    summary: `${notificationUrl}: the spec does not show whether v2 accepts it`,
    help: 'Keep it if you rely on notifications, but confirm with the service that v2 delivers them; do not depend on it alone.',
    bad: `{"${notificationUrl}": "https://shop.example/hook", …}`,
    good: `{"${notificationUrl}": "https://shop.example/hook", …} # once the service confirms v2 delivers them`,
  },
  {
    id: 'PO109',
    name: 'external-reference',
    severity: 'info',
    step: `${externalReference} is new and optional`,
    summary: `v2 accepts ${externalReference}, your own id for the order`,
    help: `Optionally send ${externalReference} with your order id, to find orders by your own reference.`,
    bad: `{"${amount}": "14990", "${description}": "Tea", …}`,
    good: `{"${amount}": "14990", "${description}": "Tea", "${externalReference}": "WEB-1001", …}`,
  },
  {
    id: 'PO110',
    name: 'v1-only-fields',
    severity: 'warning',
    summary: `Reads ${orderNumber}, ${currency} or ${refNumber}, which v2 orders do not have`,
    help: `Stop reading ${orderNumber}, ${currency} and ${refNumber}; identify orders by ${uuid} (and ${externalReference}).`,
    bad: `const ref = order.${orderNumber};`,
    good: `const ref = order.${uuid};`,
  },
  {
    id: 'PO201',
    name: 'invalid-v1-body',
    severity: 'error',
    summary: 'The body is already invalid on v1',
    help: 'Fix the body first: the service rejects it on v1 as well as on v2.',
    bad: `{"${amount}": "1,000.00", …}`,
    good: `{"${amount}": "1000.00", …}`,
  },
  {
    id: 'PO202',
    name: 'unrecognized-item',
    severity: 'info',
    summary: 'An item that is neither a token request, an order body nor a request record',
    help: 'Nothing to check; make sure it is not meant for the service.',
    bad: '{"hello": "world"}',
    good: `{"${amount}": "14990", "${description}": "Tea", …}`,
  },
  {
    id: 'PO301',
    name: 'config-v2-addresses',
    severity: 'error',
    step: 'Replace the base addresses',
    summary: 'An environment you are logged into has no v2 addresses',
    help: 'Set them: payorder config set ENV.v2.auth-url https://… and ENV.v2.checkout-url https://…',
    bad: 'payorder config unset stage.v2.auth-url',
    good: 'payorder config set stage.v2.auth-url https://auth.v2.example.com',
  },
  {
    id: 'PO302',
    name: 'config-v1-default',
    severity: 'warning',
    summary: 'An environment, or the default-api setting, uses API v1 by default',
    help: 'Log in again with --api v2, or run payorder config set default-api v2.',
    bad: 'payorder config set default-api v1',
    good: 'payorder config set default-api v2',
  },
  {
    id: 'PO303',
    name: 'live-v2-token',
    severity: 'error',
    summary: 'A real v2 token request with the stored credentials',
    help: 'Credentials are the same on v1 and v2: if v2 refuses them, check the v2 addresses and the environment.',
    bad: 'payorder token --env stage --api v2 # refused',
    good: 'payorder token --env stage --api v2 # a token',
  },
] as const satisfies readonly Rule[];

export type RuleId = (typeof RULES)[number]['id'];

export function ruleById(id: RuleId): Rule {
  const rule = RULES.find((candidate) => candidate.id === id);
  // RuleId is the type of the rules' ids: every one names a rule.
  if (!rule) throw new Error(`no rule ${id}`);
  return rule;
}

export interface Location {
  file: string;
  line?: number;
  column?: number;
  /** For bodies: the array index, NDJSON line or HAR entry the item is. */
  item?: string;
  /** A JSON pointer inside the item. */
  pointer?: string;
}

export interface Finding {
  rule: RuleId;
  severity: Severity;
  message: string;
  location: Location;
  /** The exact fix, e.g. "amount \"149.90\" → \"14990\"". */
  fix: string;
  /** For source code: the suggested replacement text of the line. */
  replacement?: string;
}

export function finding(
  rule: RuleId,
  location: Location,
  message: string,
  fix: string,
  severity?: Severity,
): Finding {
  return { rule, severity: severity ?? ruleById(rule).severity, message, location, fix };
}

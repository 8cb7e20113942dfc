/**
 * Turns what a person gave (flags, or one line of a batch file) into an OrderDraft, checking every
 * rule before anything is sent. Errors name the field as the person wrote it and the rule broken.
 */
import { AmountError, parseAmount, parseCents } from '../contract/money.js';
import type { OrderDraft } from '../contract/schemas.js';
import { checkHttpUrl } from '../contract/urls.js';
import type { ApiVersion } from '../contract/versions.js';
import { invalidField } from '../errors.js';

/** The fields of an order as payorder names them (flags in snake_case; batch keys and columns). */
export interface OrderFields {
  amount?: string;
  /** Whole cents, the v2 wire's unit; the batch column for callers who already have cents. */
  amount_cents?: string;
  description?: string;
  success?: string;
  fail?: string;
  notification_url?: string;
  external_reference?: string;
}

// A record over every key, so adding a field to OrderFields without listing it here does not compile.
const FIELDS: Record<keyof OrderFields, true> = {
  amount: true,
  amount_cents: true,
  description: true,
  success: true,
  fail: true,
  notification_url: true,
  external_reference: true,
};

/** Every field of an order, as batch keys and columns name them, in the order a person lists them. */
export const FIELD_NAMES = Object.keys(FIELDS) as (keyof OrderFields)[];

/** Batch keys accepted besides payorder's own: the API's names. */
export const FIELD_ALIASES: Record<string, keyof OrderFields> = {
  callback_success: 'success',
  callback_fail: 'fail',
  'notification-url': 'notification_url',
  'external-reference': 'external_reference',
};

/**
 * The field a batch key or column names, in any case and with spaces around it ignored, the API's
 * names included; undefined for any other key (own properties only: "constructor" is no field).
 */
export function fieldNamed(key: string): keyof OrderFields | undefined {
  const name = key.trim().toLowerCase();
  if (Object.hasOwn(FIELDS, name)) return name as keyof OrderFields;
  return Object.hasOwn(FIELD_ALIASES, name) ? FIELD_ALIASES[name] : undefined;
}

/** How a field is called where the person wrote it: "--amount" for flags, "amount" in files. */
export type FieldNamer = (field: keyof OrderFields) => string;

export const flagName: FieldNamer = (field) => `--${field.replace(/_/g, '-')}`;
export const columnName: FieldNamer = (field) => field;

/** Said once per command when a v2 order carries notification_url. */
export const NOTIFICATION_V2_WARNING =
  'the spec does not show whether v2 accepts notification_url; payorder sends it and the service may ignore it';

function text(value: string | undefined, field: keyof OrderFields, name: FieldNamer, required: true): string;
function text(
  value: string | undefined,
  field: keyof OrderFields,
  name: FieldNamer,
  required: boolean,
): string | undefined;
function text(
  value: string | undefined,
  field: keyof OrderFields,
  name: FieldNamer,
  required: boolean,
): string | undefined {
  if (value === undefined || value.trim() === '') {
    if (required) throw invalidField(name(field), 'is required');
    return undefined;
  }
  // No length limit of payorder's own: the spec shows none (§8), and one here would refuse orders the
  // service takes, with no way around it. The service's own refusal, if it has a limit, is reported as
  // any refusal is; a batch line is bounded anyway (64 KiB).
  return value;
}

/** The fields an order cannot go without, in the order a form asks for them. */
export const REQUIRED_FIELDS = ['amount', 'description', 'success', 'fail'] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];

/** The required fields that were not given at all (amount_cents stands for amount). */
export function missingFields(fields: OrderFields): RequiredField[] {
  return REQUIRED_FIELDS.filter(
    (field) => fields[field] === undefined && !(field === 'amount' && fields.amount_cents !== undefined),
  );
}

function amountOf(fields: OrderFields, name: FieldNamer): bigint {
  let amountCents: bigint;
  if (fields.amount !== undefined && fields.amount_cents !== undefined) {
    throw invalidField(name('amount'), `give ${name('amount')} or ${name('amount_cents')}, not both`);
  }
  try {
    if (fields.amount_cents !== undefined) amountCents = parseCents(fields.amount_cents.trim());
    else if (fields.amount === undefined)
      throw invalidField(name('amount'), 'is required (a decimal in major units, e.g. 12.50)');
    else amountCents = parseAmount(fields.amount);
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    const field = fields.amount_cents !== undefined ? 'amount_cents' : 'amount';
    throw invalidField(
      name(field),
      `${error.rule} (got "${error.input}"; e.g. ${field === 'amount' ? '12.50' : '1250'})`,
    );
  }
  if (amountCents <= 0n)
    throw invalidField(
      name(fields.amount_cents !== undefined ? 'amount_cents' : 'amount'),
      'must be greater than zero',
    );
  return amountCents;
}

const link = (field: 'success' | 'fail') => (fields: OrderFields, name: FieldNamer) =>
  checkHttpUrl(name(field), text(fields[field], field, name, true));

/** How each required field is read from the fields, by the rules draftFrom applies. */
const READ_REQUIRED = {
  amount: amountOf,
  description: (fields, name) => text(fields.description, 'description', name, true),
  success: link('success'),
  fail: link('fail'),
} satisfies Record<RequiredField, (fields: OrderFields, name: FieldNamer) => unknown>;

function optionalOf(
  fields: OrderFields,
  version: ApiVersion,
  name: FieldNamer,
): Pick<OrderDraft, 'notificationUrl' | 'externalReference'> {
  const optional: Pick<OrderDraft, 'notificationUrl' | 'externalReference'> = {};
  const notification = text(fields.notification_url, 'notification_url', name, false);
  if (notification !== undefined)
    optional.notificationUrl = checkHttpUrl(name('notification_url'), notification);
  const reference = text(fields.external_reference, 'external_reference', name, false);
  if (reference !== undefined) {
    if (version === 'v1')
      throw invalidField(name('external_reference'), 'exists only in API v2 (use --api v2)');
    optional.externalReference = reference;
  }
  return optional;
}

export function draftFrom(fields: OrderFields, version: ApiVersion, name: FieldNamer): OrderDraft {
  return {
    amountCents: READ_REQUIRED.amount(fields, name),
    description: READ_REQUIRED.description(fields, name),
    successUrl: READ_REQUIRED.success(fields, name),
    failUrl: READ_REQUIRED.fail(fields, name),
    ...optionalOf(fields, version, name),
  };
}

/**
 * Checks one required field on its own, as a person types it, by the rules draftFrom applies:
 * throws the error draftFrom would throw for it.
 */
export function checkField(field: RequiredField, value: string, name: FieldNamer): void {
  READ_REQUIRED[field]({ [field]: value }, name);
}

/**
 * Checks every field that was given and leaves out the missing ones: what is wrong among the flags
 * is said before a person is asked for the rest.
 */
export function checkGivenFields(fields: OrderFields, version: ApiVersion, name: FieldNamer): void {
  const missing = missingFields(fields);
  for (const field of REQUIRED_FIELDS) if (!missing.includes(field)) READ_REQUIRED[field](fields, name);
  optionalOf(fields, version, name);
}

import { describe, expect, it } from 'vitest';
import { API_VERSIONS, type ApiVersion } from '../../src/contract/versions.js';
import { EXIT } from '../../src/errors.js';
import {
  checkField,
  checkGivenFields,
  columnName,
  draftFrom,
  FIELD_ALIASES,
  FIELD_NAMES,
  type FieldNamer,
  fieldNamed,
  flagName,
  missingFields,
  type OrderFields,
} from '../../src/orders/draft.js';
import { refusal } from '../helpers/refusal.js';

const OK = 'https://shop.example/thanks';
const KO = 'https://shop.example/cart';
const base: OrderFields = { amount: '12.50', description: 'Tea', success: OK, fail: KO };

/** The error draftFrom throws for these fields (the test fails if it throws none, or another kind). */
const draftRefusal = (fields: OrderFields, version: ApiVersion = 'v2', name: FieldNamer = columnName) =>
  refusal(() => draftFrom(fields, version, name), `draftFrom accepted ${JSON.stringify(fields)}`);

describe('field names', () => {
  it('names a field as a flag or as a batch column', () => {
    expect(flagName('amount')).toBe('--amount');
    expect(flagName('amount_cents')).toBe('--amount-cents');
    expect(flagName('notification_url')).toBe('--notification-url');
    expect(flagName('external_reference')).toBe('--external-reference');
    expect(columnName('notification_url')).toBe('notification_url');
  });

  it('lists every field of an order once, amount first', () => {
    expect(FIELD_NAMES).toEqual([
      'amount',
      'amount_cents',
      'description',
      'success',
      'fail',
      'notification_url',
      'external_reference',
    ]);
  });

  it.each([
    ['amount', 'amount'],
    [' Amount ', 'amount'],
    ['CALLBACK_SUCCESS', 'success'],
    ['notification-url', 'notification_url'],
    ['ammount', undefined],
    ['', undefined],
    ['__proto__', undefined],
    ['constructor', undefined],
    ['hasOwnProperty', undefined],
  ])('finds the field a batch key %j names: %s', (key, field) => {
    expect(fieldNamed(key)).toBe(field);
  });

  it("maps the API's names and dashed spellings to payorder's fields", () => {
    expect(FIELD_ALIASES).toEqual({
      callback_success: 'success',
      callback_fail: 'fail',
      'notification-url': 'notification_url',
      'external-reference': 'external_reference',
    });
  });
});

describe('draftFrom', () => {
  it.each(API_VERSIONS)('builds the %s draft with amounts in cents and nothing optional', (version) => {
    expect(draftFrom(base, version, columnName)).toStrictEqual({
      amountCents: 1250n,
      description: 'Tea',
      successUrl: OK,
      failUrl: KO,
    });
  });

  it('carries the optional fields when given', () => {
    const fields = { ...base, notification_url: `${OK}/notify`, external_reference: 'WEB-1' };
    expect(draftFrom(fields, 'v2', columnName)).toStrictEqual({
      amountCents: 1250n,
      description: 'Tea',
      successUrl: OK,
      failUrl: KO,
      notificationUrl: `${OK}/notify`,
      externalReference: 'WEB-1',
    });
  });

  it('leaves out optional fields that are blank', () => {
    const draft = draftFrom({ ...base, notification_url: '  ', external_reference: '' }, 'v2', columnName);
    expect(Object.keys(draft)).toEqual(['amountCents', 'description', 'successUrl', 'failUrl']);
  });

  it('keeps text as the person wrote it', () => {
    expect(draftFrom({ ...base, description: '  Tea, green  ' }, 'v2', columnName).description).toBe(
      '  Tea, green  ',
    );
  });

  describe('amount', () => {
    it.each([
      ['12.5', 1250n],
      ['12', 1200n],
      ['0.01', 1n],
      ['92233720368547758.07', 9223372036854775807n],
    ])('reads amount %s (major units) as %s cents', (amount, cents) => {
      expect(draftFrom({ ...base, amount }, 'v1', columnName).amountCents).toBe(cents);
    });

    it.each([
      ['1250', 1250n],
      [' 1250 ', 1250n],
      ['1', 1n],
    ])('reads amount_cents %j as %s cents', (amountCents, cents) => {
      const { amount: _, ...rest } = base;
      expect(draftFrom({ ...rest, amount_cents: amountCents }, 'v2', columnName).amountCents).toBe(cents);
    });

    it('refuses both amount and amount_cents, naming both as the person wrote them', () => {
      const fields = { ...base, amount_cents: '1250' };
      expect(draftRefusal(fields).message).toBe('amount: give amount or amount_cents, not both');
      expect(draftRefusal(fields, 'v2', flagName).message).toBe(
        '--amount: give --amount or --amount-cents, not both',
      );
    });

    it('requires an amount, saying what it looks like', () => {
      const { amount: _, ...fields } = base;
      expect(draftRefusal(fields, 'v2', flagName).message).toBe(
        '--amount: is required (a decimal in major units, e.g. 12.50)',
      );
    });

    it.each([
      ['12.345', 'amount: must have at most 2 decimals (got "12.345"; e.g. 12.50)'],
      ['1,50', 'amount: must use a point for decimals and no thousands separators (got "1,50"; e.g. 12.50)'],
      ['-5', 'amount: must not be negative (got "-5"; e.g. 12.50)'],
      [' 5', 'amount: must not contain spaces (got " 5"; e.g. 12.50)'],
      ['', 'amount: is empty (got ""; e.g. 12.50)'],
    ])('refuses amount %j with the broken rule and an example', (amount, message) => {
      expect(draftRefusal({ ...base, amount }).message).toBe(message);
    });

    it.each([
      ['12.50', 'amount_cents: must be whole cents: digits only, no point or sign (got "12.50"; e.g. 1250)'],
      ['-1', 'amount_cents: must be whole cents: digits only, no point or sign (got "-1"; e.g. 1250)'],
      ['  ', 'amount_cents: is empty (got ""; e.g. 1250)'],
    ])('refuses amount_cents %j with the broken rule and an example', (amountCents, message) => {
      const { amount: _, ...rest } = base;
      const error = draftRefusal({ ...rest, amount_cents: amountCents });
      expect(error.message).toBe(message);
      expect(error.details.field).toBe('amount_cents');
    });

    it.each(['0', '0.00', '000'])('refuses a zero amount %j', (amount) => {
      expect(draftRefusal({ ...base, amount }, 'v1', flagName).message).toBe(
        '--amount: must be greater than zero',
      );
    });

    // The zero check names the field that was given: a batch column amount_cents=0 is not "amount".
    it('names amount_cents when a zero amount was given in cents', () => {
      const { amount: _, ...rest } = base;
      expect(draftRefusal({ ...rest, amount_cents: '0' }).message).toBe(
        'amount_cents: must be greater than zero',
      );
    });
  });

  describe('text fields', () => {
    it.each<[keyof OrderFields, string]>([
      ['description', 'description: is required'],
      ['success', 'success: is required'],
      ['fail', 'fail: is required'],
    ])('requires %s, blank counting as missing', (field, message) => {
      const { [field]: _, ...without } = base;
      expect(draftRefusal(without).message).toBe(message);
      expect(draftRefusal({ ...base, [field]: ' \t ' }).message).toBe(message);
    });

    it('sets no length limit of its own on texts (the spec shows none): 10,000 characters pass', () => {
      const long = 'x'.repeat(10_000);
      expect(draftFrom({ ...base, description: long }, 'v2', columnName).description).toBe(long);
      expect(draftFrom({ ...base, external_reference: long }, 'v2', columnName).externalReference).toBe(long);
    });

    it.each<[keyof OrderFields, string, string]>([
      [
        'success',
        'shop.example/thanks',
        'success: must be an absolute http(s) URL, got "shop.example/thanks"',
      ],
      ['fail', 'ftp://shop.example/cart', 'fail: must be an absolute http(s) URL, got a ftp URL'],
      ['notification_url', '/notify', 'notification_url: must be an absolute http(s) URL, got "/notify"'],
    ])('requires %s to be an absolute http(s) URL', (field, value, message) => {
      expect(draftRefusal({ ...base, [field]: value }).message).toBe(message);
    });

    it('names a bad link as the flag the person typed', () => {
      expect(draftRefusal({ ...base, notification_url: 'mailto:a@b' }, 'v1', flagName).message).toBe(
        '--notification-url: must be an absolute http(s) URL, got a mailto URL',
      );
    });

    it('accepts notification_url in v1 too', () => {
      expect(draftFrom({ ...base, notification_url: OK }, 'v1', columnName).notificationUrl).toBe(OK);
    });

    it('refuses external_reference in v1, which does not have it', () => {
      expect(draftRefusal({ ...base, external_reference: 'WEB-1' }, 'v1', flagName).message).toBe(
        '--external-reference: exists only in API v2 (use --api v2)',
      );
    });
  });

  it('throws usage errors that carry the field as written and exit with the usage code', () => {
    const error = draftRefusal({ ...base, amount: 'ten' }, 'v2', flagName);
    expect(error.kind).toBe('usage');
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.details.field).toBe('--amount');
  });

  it('checks the amount first, so an empty line names the amount', () => {
    expect(draftRefusal({}).message).toBe('amount: is required (a decimal in major units, e.g. 12.50)');
  });
});

describe('one field at a time: what a form checks as a person types', () => {
  it('names the required fields not given at all; amount_cents stands for amount', () => {
    expect(missingFields({})).toEqual(['amount', 'description', 'success', 'fail']);
    expect(missingFields({ amount_cents: '100', fail: KO })).toEqual(['description', 'success']);
    expect(missingFields({ ...base, description: '' })).toEqual([]);
  });

  // Every value is checked alone and inside whole fields: the same refusal, word for word.
  it.each([
    ['amount', '1.999'],
    ['amount', '0'],
    ['amount', ''],
    ['description', '  '],
    ['success', 'ftp://shop.example/ok'],
    ['fail', 'shop.example/ko'],
  ] as const)('refuses %s %j with the message draftFrom gives', (field, value) => {
    const alone = refusal(() => checkField(field, value, flagName), `checkField accepted ${value}`);
    expect(alone.message).toBe(draftRefusal({ ...base, [field]: value }, 'v2', flagName).message);
  });

  it.each([
    ['amount', '12.50'],
    ['description', 'Boots, size 42'],
    ['description', 'x'.repeat(1001)],
    ['success', OK],
    ['fail', KO],
  ] as const)('accepts %s %j', (field, value) => {
    expect(() => checkField(field, value, columnName)).not.toThrow();
  });

  it('checks what was given, the optional fields too, and leaves the missing ones for the form', () => {
    expect(() => checkGivenFields({ description: 'Tea' }, 'v2', flagName)).not.toThrow();
    expect(refusal(() => checkGivenFields({ amount: 'ten' }, 'v2', flagName), 'accepted').message).toMatch(
      /^--amount: /,
    );
    expect(
      refusal(() => checkGivenFields({ external_reference: 'W-1' }, 'v1', flagName), 'accepted').message,
    ).toBe('--external-reference: exists only in API v2 (use --api v2)');
  });
});

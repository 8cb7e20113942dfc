import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../src/session/config-keys.js';
import { nearest } from '../../src/terminal/suggestions.js';

const KEYS = CONFIG_KEYS.map((k) => k.key);

describe('nearest', () => {
  it('offers the key a typo was meant to be', () => {
    expect(nearest('stage.v2.auth-ur', KEYS)).toBe('stage.v2.auth-url');
    expect(nearest('default-ap', KEYS)).toBe('default-api');
    expect(nearest('defualt-env', KEYS)).toBe('default-env');
    expect(nearest('sandbox.v1.checkout-ulr', KEYS)).toBe('sandbox.v1.checkout-url');
  });

  it('offers the closest of several near candidates, not the first near one', () => {
    expect(nearest('stage.v1.auth-url', ['stage.v2.auth-url', 'stage.v1.auth-url'])).toBe(
      'stage.v1.auth-url',
    );
    expect(nearest('ordr', ['login', 'orders', 'order'])).toBe('order');
  });

  it('on a tie, offers the candidate listed first', () => {
    expect(nearest('cat', ['bat', 'hat'])).toBe('bat');
    expect(nearest('cat', ['hat', 'bat'])).toBe('hat');
  });

  it('allows a third of the letters in edits, at least one, so short words stay themselves', () => {
    // 12 letters: a third is 4 edits.
    expect(nearest('abcdefghijkl', ['abcdefghWXYZ'])).toBe('abcdefghWXYZ');
    expect(nearest('abcdefghijkl', ['abcdefgVWXYZ'])).toBeUndefined();
    // 6 letters: a third is 2.
    expect(nearest('create', ['crXXte'])).toBe('crXXte');
    expect(nearest('create', ['crXXXe'])).toBeUndefined();
    // 3 letters: one edit, so "foo" is not taken for "bar".
    expect(nearest('fob', ['foo'])).toBe('foo');
    expect(nearest('foo', ['bar'])).toBeUndefined();
  });

  it('offers nothing when nothing is close, or there is nothing to offer', () => {
    expect(nearest('nonsense.key.that.is.far', KEYS)).toBeUndefined();
    expect(nearest('order', [])).toBeUndefined();
  });
});

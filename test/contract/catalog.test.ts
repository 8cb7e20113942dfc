import { describe, expect, it } from 'vitest';
import { matchCatalog } from '../../src/contract/catalog.js';

// Each row's own body matching it back is in test/api/service.test.ts; the body shapes in schemas.test.ts.
describe('matchCatalog', () => {
  it('matches by code first, and a code-less row only by status and exact text', () => {
    expect(matchCatalog('order', 400, { code: '1003', message: 'anything' })?.id).toBe('1003');
    expect(matchCatalog('order', 403, { message: 'User is not authorized' })).toBeUndefined();
    expect(matchCatalog('order', 401, { message: 'Unauthorized' })?.id).toBe('unauthorized');
    expect(matchCatalog('token', 401, { message: 'Unauthorized' })).toBeUndefined();
    expect(matchCatalog('order', 500, 'not an object')).toBeUndefined();
  });
});

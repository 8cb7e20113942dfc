import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e2e = useE2E();
const { store, login } = e2e;

describe('payorder logout', () => {
  it('forgets credentials and tokens, keeps addresses', async () => {
    await login();
    const stored = store().environments?.sandbox;
    expect(Object.keys(stored ?? {}).sort()).toEqual(['credentials', 'loggedInAt', 'tokens']);
    expect((await e2e.run(['config', 'set', 'sandbox.v1.auth-url', 'http://127.0.0.1:1'])).exitCode).toBe(0);
    const result = await e2e.run(['logout', '--env', 'sandbox']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('Logged out of sandbox\n');
    expect(store().environments?.sandbox).toEqual({ addresses: { v1: { auth: 'http://127.0.0.1:1' } } });

    const again = await e2e.run(['logout', '--all']);
    expect([again.exitCode, again.stderr]).toEqual([0, 'Nothing to log out of\n']);
    // Logged out for real: a command needs a login again.
    expect((await e2e.run(['token', '--env', 'sandbox'])).exitCode).toBe(4);
  });

  it('--all: every environment logged in to', async () => {
    await login('sandbox');
    await login('stage');
    const result = await e2e.run(['logout', '--all']);
    expect([result.exitCode, result.stderr]).toEqual([0, 'Logged out of stage, sandbox\n']);
    expect(store().environments).toEqual({ stage: {}, sandbox: {} });
  });
});

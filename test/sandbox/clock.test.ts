import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/sandbox/clock.js';

const REAL = Date.parse('2026-11-22T10:00:00Z');

describe('the sandbox clock', () => {
  it('is real time until moved, then real time plus the offset', () => {
    let real = REAL;
    const clock = new SandboxClock(() => real);
    expect(clock.now().toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(clock.advance(90)).toBe(true);
    real += 1000;
    expect(clock.now().toISOString()).toBe('2026-11-22T10:01:31.000Z');
    expect(clock.offsetSeconds).toBe(90);
  });

  it('is set to an ISO time, and reset to real time', () => {
    const clock = new SandboxClock(() => REAL);
    expect(clock.set('2027-01-01T00:00:00Z')).toBe(true);
    expect(clock.now().toISOString()).toBe('2027-01-01T00:00:00.000Z');
    clock.reset();
    expect(clock.offsetSeconds).toBe(0);
  });

  it.each([
    ['advance 1e308', (c: SandboxClock) => c.advance(1e308)],
    ['advance -1e308', (c: SandboxClock) => c.advance(-1e308)],
    ['advance NaN', (c: SandboxClock) => c.advance(Number.NaN)],
    ['set to no date', (c: SandboxClock) => c.set('soon')],
    ['set beyond the range of dates', (c: SandboxClock) => c.set('+300000-01-01T00:00:00Z')],
  ])('refuses %s and stays where it was', (_, move) => {
    const clock = new SandboxClock(() => REAL);
    clock.advance(60);
    expect(move(clock)).toBe(false);
    expect(clock.offsetSeconds).toBe(60);
  });
});

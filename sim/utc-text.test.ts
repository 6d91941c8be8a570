/** utcText against the platform's own calendar (a test may construct a Date: the sources may not). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { utcText } from './utc-text.ts';

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('utcText', () => {
  it('writes the clock origin, a window of the day and leap days as the calendar does', () => {
    expect(utcText(1_700_000_000_000)).toBe('2023-11-14T22:13:20Z');
    expect(utcText(1_700_000_000_000 + 13_600_000)).toBe('2023-11-15T02:00:00Z');
    expect(utcText(951_782_400_000)).toBe('2000-02-29T00:00:00Z');
    expect(utcText(1_700_000_000_123)).toBe('2023-11-14T22:13:20.123Z');
  });
  it('agrees with Date over years 1970-2400', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 13_569_465_600_000 }), (ms) => utcText(ms) === iso(ms)), { numRuns: 2_000 });
  });
});

/**
 * The flags of the world settings kinds declare (`--dedupe-window`) come off
 * the event table for `check` and `explore`: bounds checked (bad input exits
 * 2 with one line), the value reaches the world, and the first line says it.
 */
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../outbox/events/table.ts';
import { runCli } from './test-cli.ts';
import { settingsBanner, settingsOf } from './world-settings.ts';

describe('world settings flags', () => {
  it('every setting of the table has a flag, parsed within its bounds', () => {
    expect(SETTINGS.map((s) => s.flag)).toContain('--dedupe-window');
    for (const s of SETTINGS) {
      const key = s.flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      expect(key).toBe(s.name);
      // With the setting it needs (a lease needs a clock) given on too.
      const needed = SETTINGS.find((x) => x.name === s.needs?.setting);
      const withNeeded = needed === undefined ? {} : { [needed.name]: String(needed.max) };
      const read = needed === undefined ? {} : { [needed.name]: needed.max };
      expect(settingsOf({ [key]: String(s.max), ...withNeeded }, true)).toEqual({ [s.name]: s.max, ...read });
      expect(() => settingsOf({ [key]: String(s.max + 1), ...withNeeded }, true)).toThrow(s.flag);
    }
    expect(settingsOf({}, false)).toEqual({});
    // A setting on without one it needs on is bad input (a lease without a clock); off, it needs nothing.
    for (const s of SETTINGS.filter((x) => x.needs !== undefined)) {
      const needed = SETTINGS.find((x) => x.name === s.needs?.setting);
      expect(needed).toBeDefined();
      expect(() => settingsOf({ [s.name]: String(s.max) }, true)).toThrow(`${s.flag} needs ${s.needs?.what}: give ${needed?.flag} N too`);
      expect(() => settingsOf({ [s.name]: String(s.max), [needed?.name ?? '']: String(needed?.off) }, true)).toThrow(s.flag);
      expect(settingsOf({ [s.name]: String(s.off) }, true)).toEqual({ [s.name]: s.off });
    }
    expect(SETTINGS.filter((x) => x.needs !== undefined).length).toBeGreaterThan(0);
    // A setting that acts on the older version, given on where none runs beside, is bad input; off, or beside one, it is taken.
    const older = SETTINGS.filter((x) => x.needsOlder === true);
    expect(older.map((s) => s.flag)).toEqual(['--old-writes-queued']);
    for (const s of older) {
      expect(() => settingsOf({ [s.name]: String(s.max) }, false)).toThrow(`${s.flag} acts on an older version beside the rules, and none runs here: give --old-rules R too`);
      expect(settingsOf({ [s.name]: String(s.off) }, false)).toEqual({ [s.name]: s.off });
      expect(settingsOf({ [s.name]: String(s.max) }, true)).toEqual({ [s.name]: s.max });
    }
    expect(settingsBanner({ dedupeWindow: 0 }, true)).toBe('');
    expect(settingsBanner({ dedupeWindow: 0 }, false)).toBe(', dedupe window off');
  });

  it('check --dedupe-window fixes the window of every seed and says so', async () => {
    const r = await runCli('check', '--seed', '7', '--dedupe-window', '3', '--out', 'scratch/world-settings');
    expect(r.out[0]).toContain('dedupe window 3');
    expect(r.out[1]).toContain('dedupeWindow=3');
  });

  it('explore --dedupe-window searches a forgetful broker; a bad value is one line, exit 2', async () => {
    const r = await runCli('explore', '--engines', '1', '--dedupe-window', '2', '--out', 'scratch/world-settings');
    expect(r.out[0]).toContain('dedupe window 2');
    expect(r.code).toBe(0);
    const bad = await runCli('explore', '--dedupe-window', 'x');
    expect(bad.code).toBe(2);
    expect(bad.err).toHaveLength(1);
    expect(bad.err[0]).toContain('--dedupe-window');
  });
});

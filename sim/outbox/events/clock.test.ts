/**
 * The clock's entry (events/clock.ts) declares its world settings, slot and
 * events like the dedupe window: the horizon (`ticks`) and the lease
 * (`lease`) are settings drawn by the swarm from the clock's own stream, on
 * together in one seed in four; `check` and `explore` take them as flags
 * off the table; the options line and traces keep them under `settings`;
 * the clock's reading is a slot of the world, absent until time passes.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { steppersFor } from '../../check.ts';
import { runCli } from '../../cli/test-cli.ts';
import { worldEncoder } from '../encode.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { describeOptions, swarmOptions } from '../options.ts';
import { outboxSystem } from '../outbox-system.ts';
import { labelOf, type World } from '../world.ts';
import { TICKS_DRAWN, hasClock, horizonOf, leaseOf, longWait, stall, tick } from './clock.ts';
import { OWNED_SLOTS, SETTINGS } from './table.ts';

describe('the clock in the swarm', () => {
  it('draws a clock and a lease together, from the clock\'s stream, in about one seed in four: horizon 64, lease 1-3', () => {
    const drawn = Array.from({ length: 1000 }, (_, seed) => swarmOptions(seed).settings ?? {});
    const on = drawn.filter((s) => (s.ticks ?? 0) > 0);
    expect(on.length).toBeGreaterThan(200);
    expect(on.length).toBeLessThan(300);
    for (const s of drawn) expect((s.ticks ?? 0) > 0).toBe((s.lease ?? 0) > 0);
    expect(new Set(on.map((s) => s.ticks))).toEqual(new Set([TICKS_DRAWN]));
    expect(new Set(on.map((s) => s.lease))).toEqual(new Set([1, 2, 3]));
    expect([tick.setting?.stream, stall.setting?.stream]).toEqual(['clock:lease', 'clock:lease']);
  });

  it("reads the horizon and the lease of whichever options it is asked about (the settings of the options last asked about are kept)", () => {
    const options = Array.from({ length: 300 }, (_, seed) => swarmOptions(seed));
    // Each seed's options, then the seed's before, then a copy of it: a kept answer is for the very options asked about.
    const asked = options.flatMap((o, i) => [o, options[Math.max(0, i - 1)], { ...o, settings: { ...o.settings } }]);
    const withClock = asked.filter((o) => (o.settings?.ticks ?? 0) > 0).length;
    expect(withClock).toBeGreaterThan(100);
    expect(withClock).toBeLessThan(asked.length - 100);
    for (const o of asked) {
      const ticks = o.settings?.ticks ?? 0;
      expect([horizonOf(o), hasClock(o), leaseOf(o)]).toEqual([ticks, ticks > 0, ticks > 0 ? (o.settings?.lease ?? 0) : 0]);
    }
  });

  it('fixed settings win, and fixing them moves no other draw', () => {
    const fixed = swarmOptions(7, { settings: { ticks: 5, lease: 2 } });
    expect([fixed.settings?.ticks, fixed.settings?.lease]).toEqual([5, 2]);
    expect({ ...fixed, settings: {} }).toEqual({ ...swarmOptions(7), settings: {} });
  });

  it('the stall fault has a weight of its own (fault:stall), on only where the world has leases', () => {
    const seed = Array.from({ length: 200 }, (_, s) => s).find((s) => (swarmOptions(s).weights.stall ?? 0) > 0) ?? -1;
    const o = swarmOptions(seed);
    expect(stall.knob?.stream).toBe('fault:stall');
    expect(stall.knob?.weight({ ...o, settings: {} })).toBe(0);
    expect(stall.knob?.weight({ ...o, settings: { ticks: 0, lease: 2 } })).toBe(0);
    expect(stall.knob?.weight({ ...o, settings: { ticks: 4, lease: 2 } })).toBe(o.weights.stall);
    expect(tick.knob?.weight({ ...o, settings: { ticks: 4 } })).toBe(1);
    expect(tick.knob?.weight({ ...o, settings: {} })).toBe(0);
  });

  it('the options line says the clock and the stall weight by name', () => {
    const o = swarmOptions(3, { settings: { ticks: TICKS_DRAWN, lease: 2 } });
    const line = describeOptions(o);
    // Each setting in table order (late landing and retention are declared between them).
    expect(line).toContain(` ticks=${TICKS_DRAWN} `);
    expect(line).toContain(' lease=2 ');
    expect(line).toMatch(/fault\[[^\]]* stall:\d[\] ]/);
  });
});

describe('the clock\'s settings and slot come off the table', () => {
  it('declares the settings --ticks, --jump and --lease (a lease and long waits need a clock) and the slot clock', () => {
    expect(SETTINGS.map((s) => s.flag)).toEqual(['--dedupe-window', '--late-landing', '--stable-ids', '--old-writes-queued', '--ticks', '--jump', '--retention', '--session-claims', '--lease', '--poison']);
    expect(stall.setting?.needs).toEqual({ setting: 'ticks', what: 'a clock' });
    expect(longWait.setting?.needs).toEqual({ setting: 'ticks', what: 'a clock' });
    expect(OWNED_SLOTS).toContain('clock');
    expect(hasClock(exploreOptions({ ...EXPLORE_DEFAULTS, settings: { ticks: 2 } }))).toBe(true);
    expect(hasClock(exploreOptions(EXPLORE_DEFAULTS))).toBe(false);
  });

  it('the world has no clock slot until time first passes; the slot is in the world\'s key', () => {
    const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, settings: { ticks: 2 } }), { rules: failClosed }, steppersFor(failClosed, null));
    const w0 = system.initial();
    expect(w0.clock).toBeUndefined();
    const e = system.choices(w0).flatMap((g) => g.events).find((x) => labelOf(x) === 'tick 1');
    expect(e).toBeDefined();
    const w1: World = system.step(w0, e ?? { kind: 'tick', to: 1 }).state;
    expect(w1.clock).toBe(1);
    const key = worldEncoder(['a']);
    expect(key(w1)).not.toBe(key(w0));
    expect(key({ ...w1, clock: 2 })).not.toBe(key(w1));
    // No clock: no tick.
    const timeless = outboxSystem(exploreOptions(EXPLORE_DEFAULTS), { rules: failClosed }, steppersFor(failClosed, null));
    expect(timeless.choices(timeless.initial()).flatMap((g) => g.events).map(labelOf)).not.toContain('tick 1');
  });

  it('check takes --ticks and --lease: the first line and the seed\'s options say them; a lease without a clock is exit 2', async () => {
    const r = await runCli('check', '--seed', '7', '--ticks', '3', '--lease', '1', '--out', 'scratch/clock-settings');
    expect(r.out[0]).toContain('clock to tick 3, lease 1');
    expect(r.out[1]).toContain('ticks=3 ');
    expect(r.out[1]).toContain('lease=1 ');
    const bad = await runCli('check', '--seed', '7', '--lease', '1');
    expect([bad.code, bad.err]).toEqual([2, ['outbox-sim: --lease needs a clock: give --ticks N too']]);
  });
});

/**
 * What the seed runner asks of the outbox system instead of reading the
 * world field by field and group by group: `drawable` (every group at once:
 * which have an event, and their weights) answers as a fresh listing does,
 * in every setting world, whatever the reused arrays held before; and the
 * system's field bits (`fieldBits`) find exactly the fields two worlds do
 * not share, and give every field a property reads a bit of its own.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { fixedOptions, seedBounds, steppersFor, type CheckPlan } from '../../check.ts';
import { runSeed } from '../../core/random.ts';
import { swarmOptions } from '../options.ts';
import { outboxSystem } from '../outbox-system.ts';
import type { World } from '../world.ts';
import { copyWorld } from '../world-copy.ts';
import { WORLD_FIELDS } from './listing-memo.ts';
import { plan, SETTING_PLANS } from './test-plans.ts';

const PLANS = SETTING_PLANS;

/** Each seed's system and the states of its recorded run (the healed phase's included). */
function* runsOf(p: CheckPlan, seeds: number) {
  const steppers = steppersFor(p.rules, p.oldRules);
  for (let seed = 1; seed <= seeds; seed++) {
    const options = swarmOptions(seed, fixedOptions(p));
    const system = outboxSystem(options, { rules: p.rules, ...(p.oldRules ? { oldRules: p.oldRules } : {}) }, steppers);
    yield { system, states: runSeed(system, seed, seedBounds(p.bounds, options), true).states ?? [] };
  }
}

describe("the outbox system's drawable groups", () => {
  it('are the groups of a fresh listing with an event and a weight, with their weights; -1 when no group has an event', () => {
    let compared = 0;
    let none = 0;
    for (const p of PLANS) {
      for (const { system, states } of runsOf(p, 25)) {
        const drawable = system.groups?.drawable;
        expect(drawable).toBeDefined();
        if (drawable === undefined) continue;
        // Reused across worlds, as the runner reuses them, and starting with entries no world gives.
        const picks = [99, 98, 97, 96, 95, 94, 93, 92];
        const weights = [-1, -1, -1, -1, -1, -1, -1, -1];
        for (const w of states) {
          const fresh = system.choices(w);
          const want = fresh.flatMap((g, i) => (g.events.length > 0 && g.weight > 0 ? [i] : []));
          const n = drawable(w, picks, weights);
          if (fresh.every((g) => g.events.length === 0)) {
            expect(n).toBe(-1);
            none++;
          } else {
            expect(n).toBe(want.length);
            expect(picks.slice(0, want.length)).toEqual(want);
            expect(weights.slice(0, want.length)).toEqual(want.map((i) => fresh[i].weight));
          }
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(5_000);
    // Quiet worlds (the end of a liveness phase) are among those compared.
    expect(none).toBeGreaterThan(10);
  }, 120_000);
});

describe("the outbox system's field bits", () => {
  const runs = [...runsOf(plan(failClosed), 6)];
  const { system, states } = runs[0];
  const bits = system.fieldBits;

  it('give every field a bit of its own, and none to a name that is no field', () => {
    expect(bits).toBeDefined();
    if (bits === undefined) return;
    const all = WORLD_FIELDS.map((f) => bits.bitOf(f));
    expect(new Set(all).size).toBe(WORLD_FIELDS.length);
    for (const b of all) expect(b !== 0 && (b & (b - 1)) === 0).toBe(true);
    expect(bits.bitOf('noSuchField' as keyof World & string)).toBe(0);
    // Every field a property reads has one (else that property would be checked after every step).
    for (const p of system.properties) for (const f of p.reads ?? []) expect(bits.bitOf(f), `${p.name} reads ${f}`).not.toBe(0);
  });

  it('find each field changed alone, and exactly the fields consecutive states of a run do not share', () => {
    if (bits === undefined) throw new Error('no field bits');
    const w = states[0];
    expect(bits.changed(w, copyWorld(w))).toBe(0);
    for (const f of WORLD_FIELDS) {
      const other = copyWorld(w) as unknown as Record<string, unknown>;
      other[f] = { changed: f };
      expect(bits.changed(w, other as unknown as World), f).toBe(bits.bitOf(f));
    }
    let changes = 0;
    for (const run of runs) {
      for (let i = 1; i < run.states.length; i++) {
        const a = run.states[i - 1] as unknown as Record<string, unknown>;
        const b = run.states[i] as unknown as Record<string, unknown>;
        const want = WORLD_FIELDS.reduce((acc, f) => (a[f] !== b[f] ? acc | bits.bitOf(f) : acc), 0);
        expect(bits.changed(run.states[i - 1], run.states[i])).toBe(want);
        if (want !== 0) changes++;
      }
    }
    expect(changes).toBeGreaterThan(10);
  });
});

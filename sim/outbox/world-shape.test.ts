/**
 * Every world of a seeded run has the same fields in the same order (the
 * slots kinds own are present from the start, undefined until written):
 * one shape of world keeps reading and copying worlds fast in the seed
 * runner. Undefined slots read, encode and print as absent.
 */
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle } from '../../model/catalog/index.ts';
import { canonicalJson } from '../core/canonical.ts';
import { BOUNDS_DEFAULT, fixedOptions, seedBounds, steppersFor, type CheckPlan } from '../check.ts';
import { runSeed } from '../core/random.ts';
import { OWNED_SLOTS } from './events/table.ts';
import { outboxSystem } from './outbox-system.ts';
import { swarmOptions } from './options.ts';

const plan = (rules: CheckPlan['rules'], extra: Partial<CheckPlan> = {}): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT, ...extra });

describe('the shape of a world', () => {
  it('is one across every state of swarm runs with clocks, dedupe windows, retention and late landings', () => {
    const shapes = new Set<string>();
    let owned = 0;
    for (const p of [plan(failClosed), plan(failClosed, { settings: { lateLanding: 2, dedupeWindow: 2 }, oldRules: freshCycle }), plan(freshCycle, { settings: { retention: 2, ticks: 4, lease: 2 } })]) {
      const steppers = steppersFor(p.rules, p.oldRules);
      for (let seed = 1; seed <= 60; seed++) {
        const options = swarmOptions(seed, fixedOptions(p));
        const system = outboxSystem(options, { rules: p.rules, ...(p.oldRules ? { oldRules: p.oldRules } : {}) }, steppers);
        for (const w of runSeed(system, seed, seedBounds(p.bounds, options), true).states ?? []) {
          shapes.add(Object.keys(w).join(','));
          if (OWNED_SLOTS.some((s) => (w as unknown as Record<string, unknown>)[s] !== undefined)) owned++;
        }
      }
    }
    // The runs wrote the owned slots (a clock ticked, a POST was in transit...), in one shape still.
    expect(owned).toBeGreaterThan(100);
    expect([...shapes]).toHaveLength(1);
  });

  it('holds its unwritten slots as absent for keys and JSON', () => {
    const p = plan(failClosed);
    const system = outboxSystem(swarmOptions(1, fixedOptions(p)), { rules: p.rules }, steppersFor(p.rules, null));
    const w = system.initial();
    const without = Object.fromEntries(Object.entries(w).filter(([, v]) => v !== undefined));
    expect(OWNED_SLOTS.length).toBeGreaterThan(0);
    expect(canonicalJson(w)).toBe(canonicalJson(without));
    expect(JSON.stringify(w)).toBe(JSON.stringify(without));
  });
});

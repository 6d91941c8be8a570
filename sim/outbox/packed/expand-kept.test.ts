/**
 * `expandKept` (the liveness search's cycle search walks the steps the
 * system takes by itself with it) against the event list and `apply`: the
 * same events at the same indices, the same successors, and refused events
 * skipped, on every state of a small search, under version skew too.
 */
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle } from '../../../model/catalog/index.ts';
import { steppersFor } from '../../check.ts';
import type { KeptSink } from '../../core/explore-packed.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import type { WorldEvent } from '../world.ts';
import { reachedStates } from './reached-states.ts';
import { PACKED_KINDS, packedOutbox } from './system.ts';

function systemOf(sizes: Partial<ExploreSizes>, oldRules = false) {
  const o = exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes });
  const options = { ...o, weights: Object.fromEntries(Object.entries(o.weights).map(([k, v]) => [k, PACKED_KINDS.has(k) ? v : 0])) };
  const worldRules = { rules: failClosed, ...(oldRules ? { oldRules: freshCycle } : {}) };
  return packedOutbox(options, worldRules, outboxSystem(options, worldRules, steppersFor(failClosed, oldRules ? freshCycle : null)));
}

function kept(system: ReturnType<typeof systemOf>, s: Int32Array, keep: (e: WorldEvent) => boolean): { index: number; event: WorldEvent; state: string }[] {
  const found: { index: number; event: WorldEvent; state: string }[] = [];
  const sink: KeptSink<WorldEvent> = {
    out: new Int32Array(system.width),
    keep,
    take(index, event) {
      found.push({ index, event, state: sink.out.join() });
      return false;
    },
  };
  if (system.expandKept === undefined) throw new Error('no expandKept');
  system.expandKept(s, sink);
  return found;
}

describe('expandKept', () => {
  const cases: [string, Partial<ExploreSizes>, boolean][] = [
    ['default world', {}, false],
    ['corruptions and operator actions', { engines: 2, corruptionsMax: 1, operatorActionsMax: 1 }, false],
    ['version skew', { engines: 2, skew: true }, true],
  ];
  it.each(cases)('%s: the successors of the event list, refused events skipped', (_name, sizes, skew) => {
    const system = systemOf(sizes, skew);
    const t = new Int32Array(system.width);
    const engineSteps = (e: WorldEvent) => e.kind === 'scan' || e.kind === 'drain' || e.kind === 'step' || e.kind === 'answer';
    for (const s of reachedStates(system, 1500)) {
      const all = system.events(s).map((event, index) => {
        system.apply(s, event, t);
        return { index, event, state: t.join() };
      });
      expect(kept(system, s, () => true)).toEqual(all);
      expect(kept(system, s, engineSteps)).toEqual(all.filter((x) => engineSteps(x.event)));
      expect(kept(system, s, (e) => !engineSteps(e))).toEqual(all.filter((x) => !engineSteps(x.event)));
    }
  });

  it('derives no program of a world event it does not follow (those are derived when the main search expands the state)', () => {
    const sizes = { engines: 2, corruptionsMax: 1, operatorActionsMax: 1 };
    const engineSteps = (e: WorldEvent) => e.kind === 'scan' || e.kind === 'drain' || e.kind === 'step' || e.kind === 'answer';
    const derivedBy = (full: boolean): number => {
      const system = systemOf(sizes);
      const s = new Int32Array(system.width);
      system.initial(s);
      expect(system.events(s).some((e) => !engineSteps(e))).toBe(true);
      kept(system, s, engineSteps);
      if (full) system.expand(s, { out: new Int32Array(system.width), take: () => false });
      return system.transitions.derived;
    };
    // The world events' programs are derived by the full expansion only: the cycle search's walk did not make them.
    expect(derivedBy(true)).toBeGreaterThan(derivedBy(false));
  });
});

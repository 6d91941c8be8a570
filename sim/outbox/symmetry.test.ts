/**
 * Symmetry reduction in explore (one state per class of states equal up to
 * renaming pids): pinned counts beside the whole space's (`explore.test.ts`),
 * the same classes in both explorers, the same verdict for every mutant, real
 * counterexamples whose traces replay, and no symmetry for a rule set that
 * reads an engine's pid.
 */
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import { MUTANTS, SURVIVORS } from '../../properties/mutants/index.ts';
import stampVersion from '../../properties/rule-api/stamp-version.ts';
import stampVersionOld from '../../properties/rule-api/stamp-version-old.ts';
import retryPastCap from '../../properties/mutants/retry-past-cap.ts';
import unclassifiedNotCounted from '../../properties/mutants/unclassified-not-counted.ts';
import stealLiveClaim from '../../properties/mutants/steal-live-claim.ts';
import { BOUNDS_DEFAULT, steppersFor } from '../check.ts';
import { closeCycle, explore, type Symmetry } from '../core/explore.ts';
import { simulateEvents } from '../core/simulate.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from './explore-options.ts';
import { counterexampleOf, exploreOutbox } from './explore-outbox.ts';
import { outboxSystem } from './outbox-system.ts';
import { PackedLayout, PackedTables, Unrepresentable } from './packed/layout.ts';
import { PackedSymmetry } from './packed/symmetry.ts';
import { canonicalWorld, worldSymmetry } from './symmetry-world.ts';
import type { EngineProc, World } from './world.ts';

function search(rules: RuleSet, sizes: Partial<ExploreSizes>, symmetry: boolean, more: { liveness?: boolean; stopAtFirst?: boolean; oldRules?: RuleSet } = {}) {
  const worldRules = more.oldRules === undefined ? { rules } : { rules, oldRules: more.oldRules };
  return exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), worldRules, steppersFor(rules, more.oldRules ?? null), {
    statesMax: 2_000_000,
    symmetry,
    ...(more.liveness === undefined ? {} : { liveness: more.liveness }),
    ...(more.stopAtFirst === undefined ? {} : { stopAtFirst: more.stopAtFirst }),
  });
}

describe('symmetry: pinned state counts of fail-closed (explore.test.ts holds the whole space, as --no-symmetry searches it)', () => {
  it.each([
    // One engine: a restarted engine's fresh pid is the only pid alive, nothing to merge.
    [{ engines: 1, crashesMax: 0 }, 340, 492],
    [{ engines: 1, crashesMax: 1 }, 1108, 1853],
    // The default world: 17,611 states, 48,482 transitions without.
    [{ engines: 2, crashesMax: 1 }, 6581, 19115],
    // 192,993 and 721,588 without.
    [{ engines: 3, crashesMax: 1 }, 21782, 89304],
  ] as const)('%o: %i classes, %i transitions, complete, no violation, with the eventually properties', (sizes, states, transitions) => {
    const r = search(failClosed, sizes, true, { liveness: true });
    expect([r.symmetry, r.symmetryOff, r.explorer, r.complete, r.violations, r.states, r.transitions]).toEqual([true, null, 'packed', true, [], states, transitions]);
  });

  it('off unless asked: the whole space', () => {
    const r = search(failClosed, {}, false);
    expect([r.symmetry, r.states, r.transitions]).toEqual([false, 17611, 48482]);
  });

  it('the object explorer stores the same classes', () => {
    const options = exploreOptions(EXPLORE_DEFAULTS);
    const system = outboxSystem(options, { rules: failClosed }, steppersFor(failClosed, null));
    const r = explore(system, { statesMax: 100_000 }, undefined, worldSymmetry(system));
    expect([r.complete, r.states, r.transitions, r.depth]).toEqual([true, 6581, 19115, 22]);
  });

  it('engines of different rule sets are never merged: under skew, classes are finer than without it', () => {
    const sizes = { engines: 2, skew: true };
    const skewed = search(failClosed, sizes, true, { oldRules: freshCycle, stopAtFirst: false });
    const whole = search(failClosed, sizes, false, { oldRules: freshCycle, stopAtFirst: false });
    expect(skewed.symmetry).toBe(true);
    expect(skewed.states).toBeLessThan(whole.states);
    expect(skewed.violations.map((v) => [v.violation.property, v.events.length])).toEqual(whole.violations.map((v) => [v.violation.property, v.events.length]));
  });
});

describe('symmetry: the canonical form', () => {
  const proc = (pid: number, state: EngineProc['state'] = 'idle', id: string | null = null): EngineProc => ({
    pid,
    version: 'new',
    state,
    ctx: { pid, attemptsMax: 2, id, file: null, envelope: null, outcome: null, pending: null, effect: null },
  });
  const world = (engines: EngineProc[], claims: World['claims'], nextPid: number): World => ({
    records: {}, claims, live: {}, archived: [], quarantined: [], broker: {}, engines, produced: {}, published: [], reported: {},
    nextPid, nextGeneration: 1, crashes: 0, corruptions: 0, operatorActions: 0, parkedAttempts: [], parkedGone: [], healing: false,
  });
  // Engine 2 claiming a, engine 3 idle, dead 1 holding b; and the same with every pid renamed.
  const a = world([proc(2, 'claiming', 'a'), proc(3)], { a: { kind: 'held', owner: 2 }, b: { kind: 'held', owner: 1 } }, 4);
  const b = world([proc(5), proc(7, 'claiming', 'a')], { a: { kind: 'held', owner: 7 }, b: { kind: 'held', owner: 6 } }, 9);
  // The same engines, but the dead pid holds a's claim instead: not of a's class.
  const c = world([proc(2, 'claiming', 'a'), proc(3)], { a: { kind: 'held', owner: 1 }, b: { kind: 'held', owner: 2 } }, 4);

  it('packed: states equal up to renaming pids have one canonical form, others not', () => {
    const layout = new PackedLayout(['a', 'b'], 3);
    const t = new PackedTables();
    const sym = new PackedSymmetry(layout, t);
    const canon = (w: World) => {
      const out = new Int32Array(layout.width);
      sym.canonical(layout.pack(w, t), out);
      return [...out];
    };
    expect(canon(a)).toEqual(canon(b));
    expect(canon(a)).not.toEqual(canon(c));
    // The renaming between two states of a class takes one to the other.
    // (The claiming engine's class was interned first: it comes first.)
    expect(sym.between(layout.pack(a, t), layout.pack(b, t))).toEqual({ from: [2, 3, 1], to: [7, 5, 6] });
  });

  it("packed: a renamed held claim keeps its lease's end (states that differ in it stay apart); a claim with a field it does not know is refused", () => {
    const layout = new PackedLayout(['a', 'b'], 3);
    const t = new PackedTables();
    const sym = new PackedSymmetry(layout, t);
    const leased = (until: number) => world([proc(2, 'claiming', 'a'), proc(3)], { a: { kind: 'held', owner: 2, until } }, 4);
    const canon = (w: World) => {
      const out = new Int32Array(layout.width);
      sym.canonical(layout.pack(w, t), out);
      return out;
    };
    expect([...canon(leased(5))]).not.toEqual([...canon(leased(6))]);
    // The canonical form renames the holder (pid 2 becomes 1, as the object form does) and keeps the lease's end.
    expect(layout.unpack(canon(leased(5)), t).claims).toEqual(canonicalWorld(leased(5)).world.claims);
    expect(canonicalWorld(leased(5)).world.claims).toEqual({ a: { kind: 'held', owner: 1, until: 5 } });
    const odd = world([proc(2, 'claiming', 'a'), proc(3)], { a: { kind: 'held', owner: 2, note: 1 } as unknown as World['claims'][string] }, 4);
    expect(() => sym.canonical(layout.pack(odd, t), new Int32Array(layout.width))).toThrow(Unrepresentable);
  });

  it('objects: the same classes; the form is a world with pids 1..n, dead holders after, the next pid after them', () => {
    expect(canonicalWorld(a).world).toEqual(canonicalWorld(b).world);
    expect(canonicalWorld(a).world).not.toEqual(canonicalWorld(c).world);
    const w = canonicalWorld(a).world;
    expect([w.engines.map((p) => [p.pid, p.ctx.pid, p.state]), w.claims, w.nextPid]).toEqual([
      [[1, 1, 'claiming'], [2, 2, 'idle']],
      { a: { kind: 'held', owner: 1 }, b: { kind: 'held', owner: 3 } },
      4,
    ]);
  });
});

describe('symmetry: a cycle among classes is closed into a real cycle', () => {
  // Two engines, each a bit; an event flips one engine's bit. Classes: the bits as a multiset.
  type Toy = [number, number];
  type Flip = { pid: 1 | 2 };
  const after = (s: Toy, events: readonly Flip[]): Toy => {
    const t: Toy = [s[0], s[1]];
    for (const e of events) t[e.pid - 1] ^= 1;
    return t;
  };
  const toy: Symmetry<Toy, Flip> = {
    print: (s, out) => {
      out[0] = Math.min(s[0], s[1]);
      out[1] = Math.max(s[0], s[1]);
    },
    // The only renaming that changes a state swaps the two engines.
    carry: (from, to, events) => (from[0] === to[0] && from[1] === to[1] ? [...events] : events.map((e) => ({ pid: e.pid === 1 ? 2 : 1 }))),
    same: (a, b) => a[0] === b[0] && a[1] === b[1],
  };
  it('flip e1, flip e2 leads from (0, 1) to (1, 0), of its class: repeated with the engines swapped, it returns', () => {
    expect(closeCycle(toy, [0, 1], [{ pid: 1 }, { pid: 2 }], after)).toEqual([{ pid: 1 }, { pid: 2 }, { pid: 2 }, { pid: 1 }]);
  });
  it('a cycle that returns to its state is kept as it is', () => {
    expect(closeCycle(toy, [0, 1], [{ pid: 1 }, { pid: 1 }], after)).toEqual([{ pid: 1 }, { pid: 1 }]);
  });
});

describe('symmetry: every mutant keeps its explore verdict', () => {
  /** What `explore` says of a rule set: whole or not, and the first violation with the length of its shortest trace. */
  const verdict = (r: ReturnType<typeof search>) => ({ complete: r.complete, first: r.violations.map((v) => [v.violation.property, v.events.length]) });
  it.each([...MUTANTS, ...SURVIVORS].map((m) => [m.rules.name, m.rules] as const))('%s: the same verdict in the default world, with and without', (_name, rules) => {
    const on = search(rules, {}, true, { liveness: true });
    const off = search(rules, {}, false, { liveness: true });
    expect(on.symmetry).toBe(true);
    expect(verdict(on)).toEqual(verdict(off));
    expect(on.states).toBeLessThanOrEqual(off.states);
  }, 120_000);
});

describe('symmetry: counterexamples are real paths whose traces replay', () => {
  const replay = (rules: RuleSet, v: ReturnType<typeof search>['violations'][number]) => {
    const c = counterexampleOf(exploreOptions(EXPLORE_DEFAULTS), v);
    return simulateEvents(outboxSystem(c.options, { rules }, steppersFor(rules, null)), c.events, { healStepsMax: BOUNDS_DEFAULT.healStepsMax });
  };
  it.each([
    // (With two crashes its first violation is a body lost, before the phantom.)
    ['fresh-cycle', freshCycle, 'no-silent-loss'],
    ['steal-live-claim', stealLiveClaim, 'exclusive-attempt'],
    // Lassos: a cycle found among classes is repeated until it returns to its real state.
    ['retry-past-cap', retryPastCap, 'quiet-after-healing'],
    ['unclassified-not-counted', unclassifiedNotCounted, 'quiet-after-healing'],
  ] as const)('%s: %s, its trace replays to the violation', (_name, rules, property) => {
    const r = search(rules, { crashesMax: 2 }, true, { liveness: true });
    const v = r.violations[0];
    expect(v.violation.property).toBe(property);
    const sim = replay(rules, v);
    expect(sim.invalidAt).toBeNull();
    expect(sim.violation?.property).toBe(property);
  });
});

describe('symmetry: a rule set that reads an engine pid', () => {
  it('stamp-version (stores who.pid on the record): symmetry off, said why, the whole space searched (each engine its own steps)', () => {
    const r = search(stampVersion, {}, true);
    expect(r.symmetry).toBe(false);
    expect(r.symmetryOff).toMatch(/reads an engine's pid \(who\.pid, in stamp-version\.preSend\)/);
    expect(r.explorer).toBe('packed');
    const options = exploreOptions(EXPLORE_DEFAULTS);
    const whole = explore(outboxSystem(options, { rules: stampVersion }, steppersFor(stampVersion, null)), { statesMax: 100_000 });
    expect([r.complete, r.states, r.transitions]).toEqual([true, whole.states, whole.transitions]);
  });

  it('without symmetry too: a step derived once for every engine would break on a stamped pid (it once counted 27,193 states); each engine\'s are derived for it', () => {
    const r = search(stampVersion, {}, false);
    expect([r.explorer, r.states, r.transitions]).toEqual(['packed', 22822, 60543]);
  });

  it('under skew: the old version reads it as well; symmetry stays off, and the search is clean', () => {
    // It found parked-stays-parked until a PARKED pre-send write was no longer POSTed (docs/rules.md, 'Who decides').
    const r = search(stampVersion, { skew: true }, true, { oldRules: stampVersionOld, liveness: true });
    expect([r.symmetry, r.complete, r.violations]).toEqual([false, true, []]);
  });
});

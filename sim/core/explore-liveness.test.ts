/**
 * The liveness search's parts on small hand-made graphs and a toy system:
 * bottom components (retrying forever) against cycles a schedule can leave,
 * per steady mode; quiet states checked for `eventually` properties; and
 * both explorers giving the same liveness verdicts and traces.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { explore, GrowableIndex, searchResult } from './explore.ts';
import { FingerprintSet } from './fingerprint.ts';
import { explorePacked, type PackedSystem } from './explore-packed.ts';
import { bottomCycle, LivenessSearch, livenessTraceEvents, StepModesCache, stuckModes, TarjanScratch, type LivenessGraph, type SteadyLiveness } from './explore-liveness.ts';
import { FingerprintFlags } from './fingerprint-flags.ts';
import type { TransitionSystem } from './system.ts';

/** Per-state lists of (target, modes) pairs as bottomCycle's arrays: each state's first edge, the edges' targets, their mode masks. */
function edgeArrays(edges: number[][]): readonly [Int32Array, Int32Array, Int32Array] {
  const first: number[] = [];
  const targets: number[] = [];
  const masks: number[] = [];
  for (const out of edges) {
    first.push(targets.length);
    for (let k = 0; k < out.length; k += 2) {
      targets.push(out[k]);
      masks.push(out[k + 1]);
    }
  }
  first.push(targets.length);
  return [Int32Array.from(first), Int32Array.from(targets), Int32Array.from(masks)];
}

/** bottomCycle on per-state lists of (target, modes) pairs. */
function bottom(edges: number[][], mode: number): number[] | null {
  return bottomCycle(...edgeArrays(edges), mode);
}

describe('bottomCycle: a component with a cycle that no edge of the mode leaves', () => {
  const ALL = 3;
  it('gives the same answers with its arrays reused from run to run (a region is searched per mode, regions one after another)', () => {
    const graphs: number[][][] = [
      [[1, ALL], [2, ALL], [1, ALL]],
      [[1, ALL], [2, ALL], [1, ALL, -1, ALL]],
      // More states than the scratch starts with: it grows, and smaller graphs after it see no stale marks.
      Array.from({ length: 40 }, (_, i) => (i < 39 ? [i + 1, 1] : [20, 1, 0, 2])),
      [[0, 2]],
      [[1, 1], [0, 1]],
      [[1, ALL], [2, ALL], [1, ALL, 3, ALL], []],
    ];
    const scratch = new TarjanScratch();
    for (const round of [0, 1]) {
      for (const edges of graphs) {
        for (const mode of [1, 2]) {
          const [first, targets, masks] = edgeArrays(edges);
          expect([round, bottomCycle(first, targets, masks, mode, scratch)?.sort((a, b) => a - b)]).toEqual([round, bottom(edges, mode)?.sort((a, b) => a - b)]);
        }
      }
    }
    expect(bottom(graphs[2], 1)?.length).toBe(20);
    expect(bottom(graphs[3], 2)).toEqual([0]);
  });

  it('finds a closed cycle, and not a cycle with a way out', () => {
    // 0 -> 1 -> 2 -> 1: {1, 2} is closed.
    expect(bottom([[1, ALL], [2, ALL], [1, ALL]], 1)?.sort()).toEqual([1, 2]);
    // The same with an edge from 2 to a quiet state (-1): it can be left.
    expect(bottom([[1, ALL], [2, ALL], [1, ALL, -1, ALL]], 1)).toBeNull();
    // ...or to a component already finished (3, a sink without a cycle): left too.
    expect(bottom([[1, ALL], [2, ALL], [1, ALL, 3, ALL], []], 1)).toBeNull();
  });
  it('a self-loop is a cycle; a state with no edge is none', () => {
    expect(bottom([[0, ALL]], 1)).toEqual([0]);
    expect(bottom([[]], 1)).toBeNull();
  });
  it('only the edges of the mode count', () => {
    // 1 <-> 2 under both modes; 2 leaves to a quiet state only under mode 2.
    const edges = [[1, ALL], [2, ALL], [1, ALL, -1, 2]];
    expect(bottom(edges, 1)?.sort()).toEqual([1, 2]);
    expect(bottom(edges, 2)).toBeNull();
  });
});

describe('FingerprintFlags', () => {
  it('keeps bits per fingerprint through growth, and says what a growth would take', () => {
    const f = new FingerprintFlags(2);
    for (let i = 0; i < 100; i++) f.set(i, i * 7, i % 2 === 0 ? 1 : 2);
    f.set(4, 28, 4);
    expect([f.get(4, 28), f.get(5, 35), f.get(1000, 1), f.size]).toEqual([5, 2, 0, 100]);
    expect(f.growthBytes === 0 || f.growthBytes === 2 * f.bytes).toBe(true);
  });
});

/**
 * A toy: a worker retries a job; `fail` is the broker's steady answer mode
 * 1 (mode 0 is success). With `capped`, the retries stop at 2 (parks); a
 * fault `lose` drops the job silently. Eventually property: a job is done or
 * parked once quiet.
 */
interface Toy {
  job: 'none' | 'queued' | 'trying' | 'done' | 'parked' | 'lost';
  tries: number;
  faults: number;
}
type ToyEvent = 'add' | 'start' | 'ok' | 'fail' | 'lose';

function toySystem(capped: boolean, loses: boolean): TransitionSystem<Toy, ToyEvent> {
  return {
    initial: () => ({ job: 'none', tries: 0, faults: 0 }),
    choices(s) {
      const worker: ToyEvent[] = s.job === 'queued' ? ['start'] : [];
      const broker: ToyEvent[] = s.job === 'trying' ? ['ok', 'fail'] : [];
      const other: ToyEvent[] = s.job === 'none' ? ['add'] : loses && s.faults === 0 && s.job === 'queued' ? ['lose'] : [];
      return [
        { group: 'engine', weight: 1, events: worker },
        { group: 'broker', weight: 1, events: broker },
        { group: 'fault', weight: 1, events: other },
      ];
    },
    step(s, e) {
      const t = { ...s };
      if (e === 'add') t.job = 'queued';
      if (e === 'start') t.job = 'trying';
      if (e === 'ok') t.job = 'done';
      if (e === 'fail') {
        t.tries = capped ? Math.min(t.tries + 1, 2) : 0;
        t.job = capped && t.tries >= 2 ? 'parked' : 'queued';
      }
      if (e === 'lose') Object.assign(t, { job: 'lost', faults: 1 });
      return { state: t, tags: [] };
    },
    label: (e) => e,
    key: (s) => JSON.stringify(s),
    properties: [
      {
        name: 'job-settled',
        kind: 'eventually',
        description: 'a job is done or parked once quiet',
        check: (s) => (s.job === 'lost' ? { property: 'job-settled', subject: 'job', body: '', layer: 'toy', detail: 'lost' } : null),
      },
    ],
    heal: (s) => s,
  };
}

function toyLiveness(system: TransitionSystem<Toy, ToyEvent>): SteadyLiveness<Toy, ToyEvent> {
  return {
    properties: ['job-settled'],
    modes: ['ok', 'fail'],
    healStepsMax: 10,
    atRest(s) {
      if (s.job === 'queued' || s.job === 'trying') return 'busy';
      return system.properties[0].check(s);
    },
    steadyState: () => true,
    steady: (e, m) => e === 'start' || e === ['ok', 'fail'][m],
  };
}

/** The toy on packed states: [job, tries, faults]. */
function toyPacked(system: TransitionSystem<Toy, ToyEvent>): PackedSystem<ToyEvent> {
  const JOBS = ['none', 'queued', 'trying', 'done', 'parked', 'lost'] as const;
  const unpack = (s: Int32Array): Toy => ({ job: JOBS[s[0]], tries: s[1], faults: s[2] });
  const pack = (t: Toy, out: Int32Array) => out.set([JOBS.indexOf(t.job), t.tries, t.faults]);
  return {
    width: 3,
    initial: (out) => pack(system.initial(), out),
    events: (s) => system.choices(unpack(s)).flatMap((g) => g.events),
    apply: (s, e, out) => pack(system.step(unpack(s), e).state, out),
    expand(s, sink) {
      const events = system.choices(unpack(s)).flatMap((g) => g.events);
      for (let i = 0; i < events.length; i++) {
        pack(system.step(unpack(s), events[i]).state, sink.out);
        if (sink.take(i)) return;
      }
    },
    always: [],
    check: () => null,
  };
}

function packedLiveness(system: TransitionSystem<Toy, ToyEvent>): SteadyLiveness<Int32Array, ToyEvent> {
  const l = toyLiveness(system);
  const JOBS = ['none', 'queued', 'trying', 'done', 'parked', 'lost'] as const;
  return { properties: l.properties, modes: l.modes, healStepsMax: l.healStepsMax, steady: l.steady, atRest: (s) => l.atRest({ job: JOBS[s[0]], tries: s[1], faults: s[2] }), steadyState: () => true };
}

describe('explore with liveness, on a toy system, in both explorers', () => {
  it.each([
    ['capped retries, no fault', true, false, null],
    ['uncapped retries', false, false, 'quiet-after-healing'],
    ['a fault that loses the job', true, true, 'job-settled'],
  ] as const)('%s: %s', (_name, capped, loses, property) => {
    const system = toySystem(capped, loses);
    const objects = explore(system, { statesMax: 1000, stopAtFirst: false }, toyLiveness(system));
    const packed = explorePacked(toyPacked(system), { statesMax: 1000, stopAtFirst: false }, packedLiveness(system));
    expect(objects.checked).toEqual(['job-settled', 'quiet-after-healing']);
    expect(packed.checked).toEqual(objects.checked);
    expect(objects.complete).toBe(true);
    expect(objects.violations.map((v) => v.violation.property)).toEqual(property === null ? [] : [property]);
    expect(packed.violations.map((v) => [v.violation.property, v.events, v.healed])).toEqual(objects.violations.map((v) => [v.violation.property, v.events, v.healed]));
  });

  it('a lasso: the shortest stem, the faults stop, then the cycle under the mode that keeps it going, repeated past the bound', () => {
    const system = toySystem(false, false);
    const r = explore(system, { statesMax: 1000 }, toyLiveness(system));
    const v = r.violations[0];
    expect(v.events).toEqual(['add']);
    expect(v.healed).toEqual({ mode: 'fail', cycle: ['start', 'fail'] });
    expect(v.violation.detail).toContain('with the broker answering fail, a cycle of 2 steps repeats forever');
    expect(livenessTraceEvents(v, 10)).toEqual(['add', null, 'start', 'fail', 'start', 'fail', 'start', 'fail', 'start', 'fail', 'start', 'fail']);
  });

  it('a violation at a quiet state: the shortest path to it, then the faults stop', () => {
    const system = toySystem(true, true);
    const v = explore(system, { statesMax: 1000 }, toyLiveness(system)).violations[0];
    expect([v.events, v.healed, livenessTraceEvents(v, 10)]).toEqual([['add', 'lose'], { mode: null, cycle: [] }, ['add', 'lose', null]]);
  });
});

describe('a cycle search held to its bound', () => {
  it('gives up past the bound, says so, and makes a whole search partial', () => {
    const system = toySystem(false, false);
    const graph: LivenessGraph<Toy, ToyEvent> = {
      print(s, out) {
        out[0] = ['none', 'queued', 'trying', 'done', 'parked', 'lost'].indexOf(s.job) + 1;
        out[1] = s.tries;
      },
      successors: (s, keep) => system.choices(s).flatMap((g) => g.events).filter(keep).map((event) => ({ event, state: system.step(s, event).state })),
      shortestPathTo: () => null,
      stateAfter: () => system.initial(),
    };
    const search = new LivenessSearch(toyLiveness(system), graph, 1);
    expect(search.visit({ job: 'queued', tries: 0, faults: 0 }, () => [])).toBe(false);
    expect(search.cut).toBe('the cycle search reached 1 states from one state: quiet-after-healing not searched beyond');
    const r = searchResult(new FingerprintSet(4), new GrowableIndex(), { transitions: 0, depth: 0 }, [], true, null, search.checked, search);
    expect([r.complete, r.stoppedBy]).toEqual([false, search.cut]);
  });
});

describe('a busy state outside the steady states', () => {
  /** The toy's liveness with steady states only where no fault was taken, and a graph that counts its prints. */
  const counted = (busy: boolean) => {
    const system = toySystem(false, false);
    const l = toyLiveness(system);
    const asked = { prints: 0, atRest: 0 };
    const spec: SteadyLiveness<Toy, ToyEvent> = {
      ...l,
      atRest: (s) => (asked.atRest++, l.atRest(s)),
      steadyState: (s) => s.faults === 0,
      ...(busy ? { busy: (s: Toy) => s.job === 'queued' || s.job === 'trying' } : {}),
    };
    const graph: LivenessGraph<Toy, ToyEvent> = {
      print(s, out) {
        asked.prints++;
        out[0] = ['none', 'queued', 'trying', 'done', 'parked', 'lost'].indexOf(s.job) + 1;
        out[1] = s.tries * 16 + s.faults;
      },
      successors: (s, keep) => system.choices(s).flatMap((g) => g.events).filter(keep).map((event) => ({ event, state: system.step(s, event).state })),
      shortestPathTo: () => null,
      stateAfter: () => system.initial(),
    };
    return { search: new LivenessSearch(spec, graph), asked };
  };

  it('is neither printed nor asked whether it is at rest when the system says it is busy', () => {
    const { search, asked } = counted(true);
    expect(search.visit({ job: 'trying', tries: 1, faults: 1 }, () => [])).toBe(false);
    expect(asked).toEqual({ prints: 0, atRest: 0 });
    // A steady state is printed as before: its cycle search needs its flags.
    expect(search.visit({ job: 'done', tries: 1, faults: 0 }, () => [])).toBe(false);
    expect(asked.prints).toBe(1);
  });

  it('is printed and asked without the test (the test changes no verdict: see the toy searches above)', () => {
    const { search, asked } = counted(false);
    expect(search.visit({ job: 'trying', tries: 1, faults: 1 }, () => [])).toBe(false);
    expect(asked).toEqual({ prints: 1, atRest: 1 });
  });

  it('gives the same verdicts and traces with and without the test, on both explorers', () => {
    for (const [capped, loses] of [
      [true, false],
      [false, false],
      [true, true],
    ] as const) {
      const system = toySystem(capped, loses);
      const plain = packedLiveness(system);
      const withBusy: SteadyLiveness<Int32Array, ToyEvent> = { ...plain, busy: (s) => s[0] === 1 || s[0] === 2, steadyState: (s) => s[2] === 0 };
      const without: SteadyLiveness<Int32Array, ToyEvent> = { ...plain, steadyState: (s) => s[2] === 0 };
      const a = explorePacked(toyPacked(system), { statesMax: 1000, stopAtFirst: false }, withBusy);
      const b = explorePacked(toyPacked(system), { statesMax: 1000, stopAtFirst: false }, without);
      expect([a.states, a.transitions, a.complete]).toEqual([b.states, b.transitions, b.complete]);
      expect(a.violations.map((v) => [v.violation.property, v.events, v.healed])).toEqual(b.violations.map((v) => [v.violation.property, v.events, v.healed]));
    }
  });
});

describe('stuckModes: the modes bottomCycle finds a component under, in one pass', () => {
  /** A deterministic generator for the graphs below (a linear congruential one). */
  const lcg = (seed: number) => () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;

  it('agrees with bottomCycle per mode on 3,000 random regions (edges leaving, self-loops, states without edges, 4 modes, the low ones or modes 9 to 12)', () => {
    const random = lcg(23);
    const scratch = new TarjanScratch();
    const seen = { stuck: 0, free: 0 };
    for (let g = 0; g < 3000; g++) {
      // Every other region uses modes above the eighth: its freedom is kept in 32-bit words, not bytes.
      const shift = g % 2 === 0 ? 0 : 8;
      const n = 1 + Math.floor(random() * 12);
      const edges: number[][] = [];
      for (let v = 0; v < n; v++) {
        const out: number[] = [];
        const degree = Math.floor(random() * 4);
        for (let k = 0; k < degree; k++) out.push(random() < 0.15 ? -1 : Math.floor(random() * n), (1 + Math.floor(random() * 15)) << shift);
        edges.push(out);
      }
      const [first, targets, masks] = edgeArrays(edges);
      const stuck = stuckModes(first, targets, masks, 0b1111 << shift, scratch) >>> shift;
      for (let m = 0; m < 4; m++) {
        const found = bottomCycle(first, targets, masks, 1 << (m + shift), scratch) !== null;
        expect([g, m, (stuck & (1 << m)) !== 0]).toEqual([g, m, found]);
        seen[found ? 'stuck' : 'free']++;
      }
    }
    // Both answers are met often.
    expect(Math.min(seen.stuck, seen.free)).toBeGreaterThan(1000);
  });

  it('agrees with bottomCycle where freedom flows against the numbering, past its sweeps (the reversed-edge propagation): 300 random regions of 40 to 80 states whose edges lead mostly to earlier states', () => {
    const random = seedrandom('stuck-modes-against-order');
    const scratch = new TarjanScratch();
    let stuckSeen = 0;
    for (let g = 0; g < 300; g++) {
      // Every other region uses modes 9 and 10 (freedom in 32-bit words, not bytes).
      const shift = g % 2 === 0 ? 0 : 8;
      const n = 40 + Math.floor(random() * 40);
      const edges: number[][] = [];
      for (let v = 0; v < n; v++) {
        const out: number[] = [];
        // A chain down to state 0 under every mode, then a few random edges.
        if (v > 0) out.push(v - 1, 0b11 << shift);
        const extra = Math.floor(random() * 2);
        for (let k = 0; k < extra; k++) out.push(random() < 0.05 ? -1 : Math.floor(random() * n), (1 + Math.floor(random() * 3)) << shift);
        edges.push(out);
      }
      const [first, targets, masks] = edgeArrays(edges);
      const stuck = stuckModes(first, targets, masks, 0b11 << shift, scratch) >>> shift;
      for (let m = 0; m < 2; m++) {
        const found = bottomCycle(first, targets, masks, 1 << (m + shift), scratch) !== null;
        expect([g, m, (stuck & (1 << m)) !== 0]).toEqual([g, m, found]);
        if (found) stuckSeen++;
      }
    }
    expect(stuckSeen).toBeGreaterThan(50);
  });

  it('a chain whose freedom flows against the numbering: free once past the sweeps too', () => {
    // State v steps to v - 1 only; state 0 has no step (a way out). 60 states need 60 sweeps from the last to the first.
    const chain = Array.from({ length: 60 }, (_, v) => (v === 0 ? [] : [v - 1, 1]));
    expect(stuckModes(...edgeArrays(chain), 1)).toBe(0);
    // With state 0 stepping to itself instead, every state is stuck.
    chain[0] = [0, 1];
    expect(stuckModes(...edgeArrays(chain), 1)).toBe(1);
  });

  it('a cycle with a way out under one mode only is stuck under the others', () => {
    // 0 -> 1 -> 0 under modes 1 and 2; 1 -> out under mode 1 only.
    const [first, targets, masks] = edgeArrays([[1, 0b11], [0, 0b11, -1, 0b01]]);
    expect(stuckModes(first, targets, masks, 0b111)).toBe(0b010);
  });
});

describe('StepModesCache: the modes of a step by its index and value', () => {
  it('answers what the modes function answers, over 200,000 random steps: 40 events at 100 indices, each index taking many events in turn', () => {
    const random = seedrandom('step-modes');
    // Distinct values of the same shape: only identity tells them apart.
    const events = Array.from({ length: 40 }, (_, i) => ({ kind: 'step', i }));
    const modes = events.map(() => Math.floor(random() * 256));
    let asked = 0;
    const cache = new StepModesCache<{ kind: string; i: number }>({
      stepModes: (e) => {
        asked++;
        return modes[e.i];
      },
    });
    let index = 0;
    for (let n = 0; n < 200_000; n++) {
      // Mostly the next index (a state's successors in order), sometimes a new state's first; events mostly near their last place.
      index = random() < 0.1 ? 0 : (index + 1) % 100;
      const e = events[(index + Math.floor(random() * 6)) % events.length];
      const got = cache.at(index, e);
      if (got !== modes[e.i]) expect([n, index, e.i, got]).toEqual([n, index, e.i, modes[e.i]]);
    }
    // The sample hit and missed: both paths were compared.
    expect(asked).toBeGreaterThan(1000);
    expect(asked).toBeLessThan(150_000);
  });
});

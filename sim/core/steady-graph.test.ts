import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { SteadyGraph } from './steady-graph.ts';

/** A random graph of `n` states: per state its edges (target, modes), a root flag, and whether it was expanded. */
function randomGraph(random: () => number, n: number, modes: number) {
  const states = Array.from({ length: n }, () => {
    const expanded = random() < 0.9;
    const edges: [number, number][] = [];
    if (expanded) {
      const count = Math.floor(random() * 3);
      for (let k = 0; k < count; k++) edges.push([Math.floor(random() * n), 1 + Math.floor(random() * ((1 << modes) - 1))]);
    }
    return { expanded, root: random() < 0.3, edges };
  });
  // States are expanded in number order: those after the first not expanded are not either.
  const cut = states.findIndex((s) => !s.expanded);
  return cut < 0 ? states : states.map((s, i) => (i >= cut ? { ...s, expanded: false, edges: [] } : s));
}

/** States reachable from `from` by edges of `mode` (`from` included). */
function reach(edges: [number, number][][], from: number, mode: number): Set<number> {
  const seen = new Set([from]);
  const work = [from];
  while (work.length > 0) {
    const v = work.pop() as number;
    for (const [t, m] of edges[v]) {
      if ((m & mode) === 0 || seen.has(t)) continue;
      seen.add(t);
      work.push(t);
    }
  }
  return seen;
}

/**
 * By definition: the components under `mode` that have a cycle, have no
 * edge of the mode leaving them, and are reached from a root.
 */
function bottomComponents(graph: ReturnType<typeof randomGraph>, mode: number): Set<number>[] {
  const edges = graph.map((s) => s.edges);
  const reached = graph.map((_, v) => reach(edges, v, mode));
  const fromRoots = new Set<number>();
  graph.forEach((s, v) => s.root && reached[v].forEach((x) => fromRoots.add(x)));
  const found: Set<number>[] = [];
  for (let v = 0; v < graph.length; v++) {
    if (!fromRoots.has(v)) continue;
    const component = new Set([...reached[v]].filter((w) => reached[w].has(v)));
    if (Math.min(...component) !== v) continue;
    const cyclic = component.size > 1 || edges[v].some(([t, m]) => t === v && (m & mode) !== 0);
    const closed = [...component].every((w) => edges[w].every(([t, m]) => (m & mode) === 0 || component.has(t)));
    if (cyclic && closed) found.push(component);
  }
  return found;
}

describe('SteadyGraph.bottomComponent', () => {
  it('finds, in the first mode that has one, a component with a cycle that no edge leaves, reached from a root (2,000 random graphs)', () => {
    const random = seedrandom('steady-graph');
    let lassos = 0;
    for (let round = 0; round < 2000; round++) {
      const n = 1 + Math.floor(random() * 12);
      const modes = 1 + Math.floor(random() * 3);
      const graph = randomGraph(random, n, modes);
      // Every other graph declares 8 more modes than its edges use: their masks are kept as 32-bit integers, not bytes (see maskArray).
      const steps = new SteadyGraph(round % 2 === 0 ? modes : modes + 8);
      for (const s of graph) {
        if (!s.expanded) break;
        steps.begin(s.root);
        for (const [t, m] of s.edges) steps.edge(t, m);
      }
      const got = steps.bottomComponent();
      let expected: { mode: number; components: Set<number>[] } | null = null;
      for (let m = 0; m < modes && expected === null; m++) {
        const components = bottomComponents(graph, 1 << m);
        if (components.length > 0) expected = { mode: m, components };
      }
      if (expected === null) {
        expect([round, got]).toEqual([round, null]);
        continue;
      }
      lassos++;
      expect([round, got?.mode]).toEqual([round, expected.mode]);
      const states = new Set(got?.states);
      expect([round, expected.components.some((c) => c.size === states.size && [...c].every((x) => states.has(x)))]).toEqual([round, true]);
    }
    // Both answers are common in the sample.
    expect(lassos).toBeGreaterThan(200);
    expect(lassos).toBeLessThan(1800);
  });

  it('keeps masks of more than 8 modes whole: a lasso under the tenth mode, whose other modes leave', () => {
    const steps = new SteadyGraph(10);
    // 0 <-> 1 under mode 9; under mode 0, 1 leads to 2, which has no edge.
    steps.begin(true);
    steps.edge(1, 1 << 9);
    steps.begin(true);
    steps.edge(0, 1 << 9);
    steps.edge(2, 1);
    steps.begin(true);
    expect(steps.bottomComponent()).toEqual({ mode: 9, states: [1, 0] });
  });

  it('a state not expanded is a way out: a cycle through it is no lasso until it is expanded', () => {
    const steps = new SteadyGraph(1);
    // 0 -> 1 -> 2, and 2 -> 1 once state 2 is expanded.
    steps.begin(true);
    steps.edge(1, 1);
    steps.begin(false);
    steps.edge(2, 1);
    expect(steps.bottomComponent()).toBeNull();
    steps.begin(false);
    steps.edge(1, 1);
    expect(steps.bottomComponent()).toEqual({ mode: 0, states: [2, 1] });
  });

  it('counts its bytes, and says before a state what recording it and a margin of edges after it would allocate', () => {
    const steps = new SteadyGraph(1, 4096);
    expect(steps.growthBytes).toBe(0);
    // The first arrays hold 4,096 states and 4,096 edges: a state with up to 4,096 edges after it fits only while none is recorded.
    steps.begin(false);
    steps.edge(0, 1);
    const edgesGrowth = steps.growthBytes;
    expect(edgesGrowth).toBeGreaterThan(0);
    // Asked about once: the edges' growth, then nothing until another growth comes near.
    expect([steps.growthToAsk(), steps.growthToAsk()]).toEqual([edgesGrowth, 0]);
    for (let i = 1; i < 4096; i++) {
      steps.begin(false);
      steps.edge(i, 1);
    }
    // The next state doubles the states' arrays as well: only that growth is new.
    expect(steps.growthBytes).toBeGreaterThan(edgesGrowth);
    expect(steps.growthToAsk()).toBe(steps.growthBytes - edgesGrowth);
    const before = steps.bytes;
    const asked = steps.growthBytes;
    steps.begin(false);
    steps.edge(0, 1);
    // What was foreseen is what the doubled arrays take: each grew by its old size.
    expect(steps.bytes - before).toBe(asked / 2);
  });
});

/**
 * The HTML page's statechart is read off the XState machine: one box per
 * state and one arc per (source, target) pair of its transitions, so a state
 * or a transition added to the machine appears on the page with no edit
 * here. The engines' states per step come from the trace's states.
 */
import { createMachine } from 'xstate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lifecycleMachine, LIFECYCLE_STATES } from '../../model/lifecycle.ts';
import { machineConfig } from '../../model/statechart-export.ts';
import type { Trace } from '../../sim/trace-format.ts';
import { statesOf } from './states.ts';
import { engineStatesOf, statechartLayout, statechartSvg } from './svg-statechart.ts';
import { phantomSample, removeDir, tempDir } from './test-traces.ts';

const dir = tempDir('render-svg-statechart-');
let trace: Trace;
beforeAll(async () => {
  trace = (await phantomSample(dir)).trace;
});
afterAll(() => removeDir(dir));

describe('the SVG statechart', () => {
  it("has a box per state of the lifecycle machine and an arc per pair its transitions join", () => {
    const layout = statechartLayout(lifecycleMachine);
    expect(layout.states.map((s) => s.name)).toEqual([...LIFECYCLE_STATES]);
    expect(layout.states.filter((s) => s.initial).map((s) => s.name)).toEqual(['idle']);
    const config = machineConfig(lifecycleMachine);
    const pairs = new Set<string>();
    for (const [from, st] of Object.entries(config.states)) for (const t of [...Object.values(st.on ?? {}).flat(), ...(st.always ?? [])]) pairs.add(`${from}>${t.target}`);
    expect(new Set(layout.edges.map((e) => `${e.from}>${e.to}`))).toEqual(pairs);
    const post = layout.edges.find((e) => e.from === 'posting' && e.to === 'completing');
    expect(post?.events).toEqual(['POST']);
    expect(layout.edges.find((e) => e.from === 'preSend' && e.to === 'posting')?.events).toEqual(['STEP', 'always']);
    // Every arrowhead's tip is on the box of the state its transition leads to.
    for (const e of layout.edges) {
      const box = layout.states.find((s) => s.name === e.to);
      const [tx, ty] = e.head[0];
      expect(tx).toBeGreaterThanOrEqual(box?.x ?? Infinity);
      expect(tx).toBeLessThanOrEqual((box?.x ?? -Infinity) + 112);
      expect([box?.y, (box?.y ?? 0) + 40]).toContain(ty);
    }
    // Boxes in a row, apart, inside the picture.
    for (let i = 1; i < layout.states.length; i++) expect(layout.states[i].x).toBeGreaterThan(layout.states[i - 1].x + 100);
    expect(layout.width).toBeGreaterThan(layout.states.at(-1)?.x ?? 0);
  });

  it('draws any flat machine it is given: a new state or transition needs no edit here', () => {
    const toy = createMachine({ id: 'toy', initial: 'a', states: { a: { on: { GO: 'b' } }, b: { on: { BACK: 'a', STAY: 'b' } }, c: {} } });
    const layout = statechartLayout(toy);
    expect(layout.states.map((s) => s.name)).toEqual(['a', 'b', 'c']);
    expect(layout.edges.map((e) => [e.from, e.to, e.events.join()])).toEqual([
      ['a', 'b', 'GO'],
      ['b', 'a', 'BACK'],
      ['b', 'b', 'STAY'],
    ]);
    const svg = statechartSvg(layout);
    expect(svg.match(/<g class="state[^"]*" data-state="/g)).toHaveLength(3);
    expect(svg.match(/<g class="edge" data-edge="/g)).toHaveLength(3);
    expect(svg).toContain('data-edge="b&gt;a"');
    expect(svg).not.toMatch(/url\(|https?:|href/);
  });

  it("lists each engine's state at every step and the moves a step made", () => {
    const states = statesOf(trace);
    const { at, moves } = engineStatesOf(states);
    expect(at).toHaveLength(states.length);
    // Every engine starts idle; the first scan moves its engine from idle to claiming.
    expect(at[0].length).toBeGreaterThan(0);
    expect(at[0].every((e) => e.state === 'idle')).toBe(true);
    const scan = trace.steps.findIndex((s) => /^e\d+ scan /.test(s.label)) + 1;
    const scanner = /^(e\d+) /.exec(trace.steps[scan - 1].label)?.[1];
    expect(at[scan]).toContainEqual({ engine: scanner, state: 'claiming' });
    expect(moves[scan]).toEqual(['idle>claiming']);
    expect(moves[0]).toEqual([]);
    // A producer step moves no engine.
    expect(moves[trace.steps.findIndex((s) => s.label.startsWith('produce')) + 1]).toEqual([]);
    // Every move is an arc of the chart, or a pass through an eventless transition (preSend's `always`).
    const arcs = new Set(statechartLayout(lifecycleMachine).edges.map((e) => `${e.from}>${e.to}`));
    for (const m of moves.flat()) expect(arcs.has(m) || m === 'claiming>posting').toBe(true);
  });
});

/**
 * The swarm draws each kind's knob from its own named stream: adding a kind
 * to the table moves no other kind's weight, and the knobs the swarm draws
 * are the event table's.
 */
import { describe, expect, it } from 'vitest';
import { seededChooser } from '../core/chooser.ts';
import { EVENT_KINDS } from './events/table.ts';
import { ANSWER_KNOBS, ANSWERS, CLOCK_KNOB, DEDUPE_WINDOW_KNOB, drawKnobs, STALL_KNOB, FAULT_KNOBS, FAULTS, swarmOptions, type SwarmKnob } from './options.ts';

const SEEDS = 2_000;

describe('swarm knobs', () => {
  it('draws every table knob, each from the stream its table entry names', () => {
    const table = EVENT_KINDS.flatMap((k) => (k.knob === null ? [] : [{ name: k.name, stream: k.knob.stream, draw: k.knob.draw }]));
    expect([...ANSWER_KNOBS, ...FAULT_KNOBS, DEDUPE_WINDOW_KNOB, CLOCK_KNOB, STALL_KNOB].sort((a, b) => a.name.localeCompare(b.name))).toEqual(table.sort((a, b) => a.name.localeCompare(b.name)));
    expect(ANSWER_KNOBS.map((k) => k.name)).toEqual([...ANSWERS]);
    expect(FAULT_KNOBS.map((k) => k.name)).toEqual([...FAULTS]);
  });

  it('a kind added anywhere in a copy of the table leaves every other kind drawn as before, for every seed', () => {
    const dummy: SwarmKnob = { name: 'dummy', stream: 'answer:dummy', draw: 'on' };
    const knobs = [...ANSWER_KNOBS, ...FAULT_KNOBS, DEDUPE_WINDOW_KNOB];
    let dummyOn = 0;
    for (let seed = 0; seed < SEEDS; seed++) {
      const before = drawKnobs(seed, knobs);
      // First, in the middle, and last: its place in the list does not matter either.
      const first = drawKnobs(seed, [dummy, ...knobs]);
      const middle = drawKnobs(seed, [...knobs.slice(0, 4), dummy, ...knobs.slice(4)]);
      const last = drawKnobs(seed, [...knobs, dummy]);
      expect(first.slice(1)).toEqual(before);
      expect([...middle.slice(0, 4), ...middle.slice(5)]).toEqual(before);
      expect(last.slice(0, -1)).toEqual(before);
      if (last[last.length - 1] > 0) dummyOn++;
    }
    // The dummy is drawn like any kind: on in about three seeds in four.
    expect(dummyOn / SEEDS).toBeGreaterThan(0.65);
    expect(dummyOn / SEEDS).toBeLessThan(0.85);
  });

  it('the positional draw it replaces did move later kinds (the test can fail)', () => {
    // The old swarm drew every weight from one stream in list order.
    const positional = (seed: number, knobs: readonly SwarmKnob[]) => {
      const c = seededChooser(seed);
      const pick = (n: number) => c.int('swarm', n);
      return knobs.map((k) => (k.draw === 'base' ? 6 + pick(6) : pick(4) === 0 ? 0 : 1 + pick(4)));
    };
    const knobs = [...ANSWER_KNOBS, ...FAULT_KNOBS];
    const dummy: SwarmKnob = { name: 'dummy', stream: 'answer:dummy', draw: 'on' };
    let moved = 0;
    for (let seed = 0; seed < 100; seed++) if (JSON.stringify(positional(seed, [dummy, ...knobs]).slice(1)) !== JSON.stringify(positional(seed, knobs))) moved++;
    expect(moved).toBeGreaterThan(90);
  });

  it('weights are in range: the healthy answer 6-11, the others 0-4 and sometimes off', () => {
    const offs = new Set<string>();
    for (let seed = 0; seed < 500; seed++) {
      const o = swarmOptions(seed);
      expect(o.answerWeights).toHaveLength(ANSWERS.length);
      expect(o.faultWeights).toHaveLength(FAULTS.length);
      expect(o.answerWeights[0]).toBeGreaterThanOrEqual(6);
      expect(o.answerWeights[0]).toBeLessThanOrEqual(11);
      [...o.answerWeights.slice(1), ...o.faultWeights].forEach((w, i) => {
        expect(w).toBeGreaterThanOrEqual(0);
        expect(w).toBeLessThanOrEqual(4);
        if (w === 0) offs.add(String(i));
      });
      expect(o.healAnswer).not.toBe('crash-in-post');
    }
    expect(offs.size).toBe(ANSWERS.length - 1 + FAULTS.length);
  });
});

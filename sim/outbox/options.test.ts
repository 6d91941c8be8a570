/**
 * The swarm draws each kind's knob from its own named stream: adding a kind
 * to the table moves no other kind's weight, and the knobs the swarm draws
 * are the event table's.
 */
import { describe, expect, it } from 'vitest';
import { seededChooser } from '../core/chooser.ts';
import { EVENT_KINDS } from './events/table.ts';
import { describeOptions, drawKnobs, swarmKnobs, swarmOptions, type SwarmKnob } from './options.ts';

const SEEDS = 2_000;

describe('swarm knobs', () => {
  it('draws every table knob but those that follow a setting, each from the stream its table entry names, kept by kind name', () => {
    const table = EVENT_KINDS.flatMap((k) => (k.knob === null || k.knob.draw === 'setting' ? [] : [{ name: k.name, stream: k.knob.stream, draw: k.knob.draw }]));
    expect(swarmKnobs()).toEqual(table);
    const o = swarmOptions(3);
    expect(Object.keys(o.weights)).toEqual(table.map((k) => k.name));
    expect(Object.keys(o.settings ?? {})).toEqual(EVENT_KINDS.flatMap((k) => (k.setting ? [k.setting.name] : [])));
    // The options line names each weight by its kind.
    const words = describeOptions(o).split(/[ [\]]/);
    for (const k of table) expect(words).toContain(`${k.name}:${o.weights[k.name]}`);
  });

  it('a kind added anywhere in a copy of the table leaves every other kind drawn as before, for every seed', () => {
    const dummy: SwarmKnob = { name: 'dummy', stream: 'answer:dummy', draw: 'on' };
    const knobs = swarmKnobs();
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
    const knobs = swarmKnobs();
    const dummy: SwarmKnob = { name: 'dummy', stream: 'answer:dummy', draw: 'on' };
    let moved = 0;
    for (let seed = 0; seed < 100; seed++) if (JSON.stringify(positional(seed, [dummy, ...knobs]).slice(1)) !== JSON.stringify(positional(seed, knobs))) moved++;
    expect(moved).toBeGreaterThan(90);
  });

  it('weights are in range: the healthy answer 6-11, the others 0-4 and sometimes off', () => {
    const offs = new Set<string>();
    for (let seed = 0; seed < 500; seed++) {
      const o = swarmOptions(seed);
      expect(o.weights.accept).toBeGreaterThanOrEqual(6);
      expect(o.weights.accept).toBeLessThanOrEqual(11);
      for (const k of swarmKnobs().filter((x) => x.draw === 'on')) {
        const w = o.weights[k.name];
        expect(w).toBeGreaterThanOrEqual(0);
        expect(w).toBeLessThanOrEqual(4);
        if (w === 0) offs.add(k.name);
      }
      expect(o.healAnswer).not.toBe('crash-in-post');
    }
    expect(offs.size).toBe(swarmKnobs().length - 1);
  });
});

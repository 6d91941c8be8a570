/**
 * The outbox reducer: a crash and the restart that replaced the engine, which
 * did nothing for the violation, drop out of a shrunk counterexample although
 * later steps name the restarted engine's pid (issue 21 item 4).
 */
import { describe, expect, it } from 'vitest';
import { freshCycle } from '../../model/catalog/index.ts';
import { steppersFor } from '../check.ts';
import { shrink } from '../core/shrink.ts';
import { simulateEvents } from '../core/simulate.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from './explore-options.ts';
import { exploreOutbox } from './explore-outbox.ts';
import type { WorldOptions } from './options.ts';
import { outboxSystem } from './outbox-system.ts';
import { outboxReducer } from './shrink.ts';
import { labelOf, type WorldEvent } from './world.ts';

const steppers = steppersFor(freshCycle, null);
const systemFor = (o: WorldOptions) => outboxSystem(o, { rules: freshCycle }, steppers);

describe('shrinking renames pids: a crash and restart that do nothing drop out', () => {
  // fresh-cycle's shortest counterexample without crashes, then the same with e1 crashed and restarted first (as e3, which takes e1's steps).
  const found = exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, crashesMax: 0 }), { rules: freshCycle }, steppers, { statesMax: 1_000_000 }).violations[0];
  const property = found.violation.property;
  const options = exploreOptions({ ...EXPLORE_DEFAULTS, crashesMax: 1 });
  const noisy: WorldEvent[] = [
    { kind: 'crash', pid: 1, at: 'idle' },
    { kind: 'restart', version: 'new' },
    ...found.events.map((e) => ('pid' in e && e.pid === 1 ? { ...e, pid: 3 } : e)),
  ];

  it('the padded trace is a counterexample, whose later steps name the restarted pid', () => {
    const sim = simulateEvents(systemFor(options), noisy);
    expect([sim.invalidAt, sim.violation?.property]).toEqual([null, property]);
    expect(noisy.some((e) => 'pid' in e && e.pid === 3)).toBe(true);
  });

  it('shrinks without the pair, to the length of the crash-free one, and still replays', () => {
    const r = shrink({ options, system: systemFor(options), events: noisy }, property, outboxReducer(systemFor), 4000);
    const events = r.scenario.events;
    expect(events.filter((e) => e !== null && (e.kind === 'crash' || e.kind === 'restart')).map((e) => labelOf(e as WorldEvent))).toEqual([]);
    expect(events.length).toBeLessThanOrEqual(found.events.length);
    const replay = simulateEvents(r.scenario.system, events);
    expect([replay.invalidAt, replay.violation?.property]).toEqual([null, property]);
  });
});

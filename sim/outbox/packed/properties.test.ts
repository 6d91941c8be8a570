/**
 * The packed properties skip a check only when no slot the property reads
 * changed: a property of the engines reads every engine slot. (Once the
 * engine slots were counted from the engine count, which another slot now
 * follows, so the last engine's slot was not read: a violation made by the
 * last engine's step went unseen, and explore found a longer trace or none.)
 */
import { describe, expect, it } from 'vitest';
import stealLiveClaim from '../../../properties/mutants/steal-live-claim.ts';
import { steppersFor } from '../../check.ts';
import { ALL_CHANGED, changedSlots } from '../../core/explore-packed.ts';
import { explore } from '../../core/explore.ts';
import { exclusiveAttempt } from '../properties.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { exploreOutbox } from '../explore-outbox.ts';
import { outboxSystem } from '../outbox-system.ts';
import type { EngineProc } from '../world.ts';
import { ENGINES, PackedLayout, PackedTables } from './layout.ts';
import { ENGINE_VERDICTS_MAX, MemoProperty } from './properties.ts';
import type { Property } from '../../core/system.ts';
import type { World } from '../world.ts';

describe('packed properties read every slot of the fields they declare', () => {
  it('exclusive-attempt is checked when only the last engine changed', () => {
    const layout = new PackedLayout(['a'], 2);
    const t = new PackedTables();
    const proc = (pid: number, state: EngineProc['state']): EngineProc => ({
      pid, version: 'new', state, ctx: { pid, attemptsMax: 2, id: 'a', file: null, envelope: null, outcome: null, pending: null, effect: null },
    });
    const world = (second: EngineProc['state']) => ({
      records: {}, claims: {}, live: {}, archived: [], quarantined: [], broker: {}, engines: [proc(1, 'completing'), proc(2, second)], produced: {}, published: [], reported: {},
      nextPid: 3, nextGeneration: 1, crashes: 0, corruptions: 0, operatorActions: 0, parkedAttempts: [], parkedGone: [], healing: false,
    });
    const before = layout.pack(world('posting'), t);
    const after = layout.pack(world('completing'), t);
    const p = new MemoProperty(exclusiveAttempt, layout, t);
    expect(p.check(before, ALL_CHANGED)).toBeNull();
    expect(p.check(after, changedSlots(after, before, layout.width))?.property).toBe('exclusive-attempt');
  });

  it('a property of the engines is checked once per combination of engine slots, its memo begun again when full if it answered enough, else dropped, with the same verdicts', () => {
    const layout = new PackedLayout(['a'], 2);
    const t = new PackedTables();
    const proc = (pid: number, state: EngineProc['state']): EngineProc => ({
      pid, version: 'new', state, ctx: { pid, attemptsMax: 2, id: 'a', file: null, envelope: null, outcome: null, pending: null, effect: null },
    });
    const world = (second: EngineProc['state'], produced: number) => ({
      records: {}, claims: {}, live: {}, archived: [], quarantined: [], broker: {}, engines: [proc(1, 'completing'), proc(2, second)], produced: { a: produced }, published: [], reported: {},
      nextPid: 3, nextGeneration: 1, crashes: 0, corruptions: 0, operatorActions: 0, parkedAttempts: [], parkedGone: [], healing: false,
    });
    let checks = 0;
    const counted: Property<World> = { ...exclusiveAttempt, check: (w) => (checks++, exclusiveAttempt.check(w)) };
    const p = new MemoProperty(counted, layout, t);
    const clean = layout.pack(world('posting', 1), t);
    const violating = layout.pack(world('completing', 1), t);
    // Another state with the same engines (a slot the property does not read differs).
    const cleanToo = layout.pack(world('posting', 2), t);
    expect(p.check(clean, ALL_CHANGED)).toBeNull();
    expect(p.check(violating, ALL_CHANGED)?.property).toBe('exclusive-attempt');
    expect(p.check(cleanToo, ALL_CHANGED)).toBeNull();
    expect(p.check(violating, ALL_CHANGED)?.property).toBe('exclusive-attempt');
    expect(checks).toBe(2);
    // Filled with other combinations of engines, each met twice (the memo answered as many checks as it held): it starts again and answers as before.
    const other = new Int32Array(clean);
    const fill = (from: number, times: number): void => {
      for (let k = from; k < from + ENGINE_VERDICTS_MAX - 2; k++) {
        other[layout.globals + ENGINES + 1] = t.procs.id(proc(3 + k, 'idle'));
        for (let n = 0; n < times; n++) expect(p.check(other, ALL_CHANGED)).toBeNull();
      }
    };
    fill(0, 2);
    expect(checks).toBe(ENGINE_VERDICTS_MAX);
    // Full: the next new combination begins it again (the two states above are then checked once more, then answered).
    other[layout.globals + ENGINES + 1] = t.procs.id(proc(2 * ENGINE_VERDICTS_MAX + 3, 'idle'));
    expect(p.check(other, ALL_CHANGED)).toBeNull();
    expect(p.check(violating, ALL_CHANGED)?.property).toBe('exclusive-attempt');
    expect(p.check(violating, ALL_CHANGED)?.property).toBe('exclusive-attempt');
    expect(p.check(clean, ALL_CHANGED)).toBeNull();
    expect(checks).toBe(ENGINE_VERDICTS_MAX + 3);
    // Filled again with combinations met once (one answer for what it held): dropped, and every check made afresh, with the same verdicts.
    fill(ENGINE_VERDICTS_MAX, 1);
    expect(checks).toBe(2 * ENGINE_VERDICTS_MAX + 1);
    expect(p.check(violating, ALL_CHANGED)?.property).toBe('exclusive-attempt');
    expect(p.check(violating, ALL_CHANGED)?.property).toBe('exclusive-attempt');
    expect(p.check(clean, ALL_CHANGED)).toBeNull();
    expect(checks).toBe(2 * ENGINE_VERDICTS_MAX + 4);
  });

  it('a mutant that steals a live claim: the packed explorer finds the violation where the object system does', () => {
    const options = exploreOptions(EXPLORE_DEFAULTS);
    const steppers = steppersFor(stealLiveClaim, null);
    const packed = exploreOutbox(options, { rules: stealLiveClaim }, steppers, { statesMax: 100_000 }, { verify: true });
    const objects = explore(outboxSystem(options, { rules: stealLiveClaim }, steppers), { statesMax: 100_000 });
    expect([packed.states, packed.violations[0]?.events]).toEqual([objects.states, objects.violations[0]?.events]);
    expect(packed.violations[0]?.violation.property).toBe('exclusive-attempt');
  });
});

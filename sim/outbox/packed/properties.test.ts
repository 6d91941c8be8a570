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
import { PackedLayout, PackedTables } from './layout.ts';
import { MemoProperty } from './properties.ts';

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

  it('a mutant that steals a live claim: the packed explorer finds the violation where the object system does', () => {
    const options = exploreOptions(EXPLORE_DEFAULTS);
    const steppers = steppersFor(stealLiveClaim, null);
    const packed = exploreOutbox(options, { rules: stealLiveClaim }, steppers, { statesMax: 100_000 }, { verify: true });
    const objects = explore(outboxSystem(options, { rules: stealLiveClaim }, steppers), { statesMax: 100_000 });
    expect([packed.states, packed.violations[0]?.events]).toEqual([objects.states, objects.violations[0]?.events]);
    expect(packed.violations[0]?.violation.property).toBe('exclusive-attempt');
  });
});

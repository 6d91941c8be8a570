/**
 * An engine's own step is keyed by its record's kind and status only when
 * the statechart step never touched the record it was told (`read`): the
 * steppers are watched, a step that reads the record keeps its program
 * under the whole record, and a shared program gives the object system's
 * step on records it was not derived from.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { outboxSystem, type Steppers } from '../outbox-system.ts';
import type { Stepper } from '../stepper.ts';
import type { World } from '../world.ts';
import { reachedStates } from './reached-states.ts';
import { StepReads } from './step-reads.ts';
import { packedOutbox } from './system.ts';

/** Operator actions on one engine: records that differ in their counts meet every engine step. */
const SIZES: ExploreSizes = { ...EXPLORE_DEFAULTS, engines: 1, bodiesPerId: 1, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 3 };

/** A statechart that, releasing, also reads the record's resend epoch and skips the release on a later epoch: its step depends on the record. */
function reading(inner: Stepper): Stepper {
  return (memory, event) => {
    if (memory.state === 'releasing' && event.type === 'STEP' && event.read.kind === 'found' && event.read.record.resendEpoch > 0) {
      return { state: 'disposing', ctx: memory.ctx, effects: [] };
    }
    return inner(memory, event);
  };
}

function setUp(alter: (st: Steppers) => Steppers, watch: boolean, verify: boolean) {
  const options = exploreOptions(SIZES);
  const worldRules = { rules: failClosed };
  const stepReads = new StepReads();
  const st = alter(steppersFor(failClosed, null));
  const objectSystem = outboxSystem(options, worldRules, watch ? stepReads.wrap(st) : st);
  return packedOutbox(options, worldRules, objectSystem, { verify, ...(watch ? { stepReads } : {}) });
}

const same = (st: Steppers): Steppers => st;
const epochOf = (w: World): number => (w.records.a?.kind === 'record' ? w.records.a.record.resendEpoch : 0);

describe('StepReads', () => {
  it('counts the statechart steps while armed, and notes a touch of `read` (a copy of the event touches it too)', () => {
    const seen: unknown[] = [];
    const inner: Stepper = (memory, event) => {
      seen.push(event.type === 'STEP' && memory.state === 'disposing' ? event.read : memory.state === 'releasing' ? { ...event } : null);
      return { state: memory.state, ctx: memory.ctx, effects: [] };
    };
    const watch = new StepReads();
    const st = watch.wrap({ new: inner, old: inner });
    const step = { type: 'STEP' as const, read: { kind: 'absent' as const }, claim: { kind: 'free' as const }, live: null };
    const ctx = { pid: 1, attemptsMax: 1, id: null, file: null, envelope: null, outcome: null, pending: null, effect: null };
    const cases: [string, boolean][] = [['idle', false], ['disposing', true], ['releasing', true]];
    for (const [state, touched] of cases) {
      watch.arm();
      st.new({ state: state as 'idle', ctx }, step);
      watch.disarm();
      expect([state, watch.calls, watch.readSeen]).toEqual([state, 1, touched]);
    }
    watch.arm();
    st.new({ state: 'posting', ctx }, { type: 'POST', reply: 'ok', claim: { kind: 'free' } });
    expect([watch.calls, watch.readSeen]).toEqual([1, true]);
  });
});

describe('packed transitions: an engine step keyed by what its statechart read', () => {
  it('the statechart as it is: programs shared across records (fewer derivations than unwatched), the same states', () => {
    const watched = setUp(same, true, false);
    const plain = setUp(same, false, false);
    const a = reachedStates(watched, 6_000);
    const b = reachedStates(plain, 6_000);
    expect(a.length).toBe(b.length);
    expect(watched.transitions.derived).toBeLessThan(plain.transitions.derived);
  });

  it('a statechart that reads the record where fail-closed does not (releasing): its steps keep the whole record, verify mode finds no difference', () => {
    const system = setUp((st) => ({ new: reading(st.new), old: reading(st.old) }), true, true);
    const states = reachedStates(system, 6_000);
    // Releasing steps met records of later epochs (else the test would prove nothing).
    const releasing = states.filter((s) => system.unpack(s).engines.some((p) => p.state === 'releasing'));
    expect(new Set(releasing.map((s) => epochOf(system.unpack(s)))).size).toBeGreaterThan(1);
  });
});

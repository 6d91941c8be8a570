/**
 * An engine's own step is keyed by the values its statechart read of the
 * record it was told (`read`), not by the whole record: the steppers are
 * watched field by field, a step that reads a field has it in its key, a
 * step that reads more than fields (a spread) keeps its program under the
 * whole record, and a shared program gives the object system's step on
 * records it was not derived from. A read the watch does not see (made
 * around it, not through `read`) shares wrongly: verify mode throws.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import type { EngineEvent } from '../../../model/lifecycle.ts';
import { foundRead } from '../../../model/record.ts';
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

const epochOfRead = (event: EngineEvent): number => (event.type === 'STEP' && event.read.kind === 'found' ? event.read.record.resendEpoch : 0);

/** A statechart that, releasing, also reads the record's resend epoch (through `read`) and skips the release on a later epoch: its step depends on the record. */
function reading(inner: Stepper): Stepper {
  return (memory, event) => {
    if (memory.state === 'releasing' && epochOfRead(event) > 0) return { state: 'disposing', ctx: memory.ctx, effects: [] };
    return inner(memory, event);
  };
}

/** The same decision made around the watch: the statechart runs watched, then its result is changed by an epoch the watch never saw read. */
function readingAround(inner: Stepper): Stepper {
  return (memory, event) => {
    const out = inner(memory, event);
    return memory.state === 'releasing' && epochOfRead(event) > 0 ? { state: 'disposing', ctx: memory.ctx, effects: [] } : out;
  };
}

/**
 * How the steppers are watched: not at all (an engine step keyed by its
 * whole record), without the rule sets (only a step that never touched
 * `read` shares), with them (a step shares across records that agree on
 * what it read).
 */
type Watch = 'none' | 'untouched' | 'fields';

function setUp(alter: (st: Steppers) => Steppers, watch: Watch, verify: boolean, around: (st: Steppers) => Steppers = same) {
  const options = exploreOptions(SIZES);
  const worldRules = { rules: failClosed };
  const stepReads = new StepReads();
  const st = alter(steppersFor(failClosed, null));
  const watched = watch === 'none' ? st : watch === 'untouched' ? stepReads.wrap(st) : stepReads.wrap(st, worldRules);
  const objectSystem = outboxSystem(options, worldRules, around(watched));
  return packedOutbox(options, worldRules, objectSystem, { verify, ...(watch !== 'none' ? { stepReads } : {}) });
}

const same = (st: Steppers): Steppers => st;
const both = (f: (inner: Stepper) => Stepper) => (st: Steppers): Steppers => ({ new: f(st.new), old: f(st.old), oldQueued: f(st.oldQueued) });
const epochOf = (w: World): number => (w.records.a?.kind === 'record' ? w.records.a.record.resendEpoch : 0);

describe('StepReads', () => {
  const ctx = { pid: 1, attemptsMax: 1, id: null, file: null, envelope: null, outcome: null, pending: null, effect: null };
  const record = { schema: 1, status: 'READY' as const, payload: 'A', digest: 'd', attempts: 0, resendEpoch: 2 };
  const step: EngineEvent = { type: 'STEP', read: foundRead(record), claim: { kind: 'free' }, live: null };
  /** Runs `inner` once, armed, on `step`: what the watch saw, and the step's output. */
  const run = (inner: Stepper) => {
    const watch = new StepReads();
    const st = watch.wrap({ new: inner, old: inner, oldQueued: inner }, { rules: failClosed });
    watch.arm();
    const out = st.new({ state: 'disposing', ctx }, step);
    watch.disarm();
    return { watch, out, paths: [...watch.watch.paths], values: [...watch.watch.values] };
  };

  it('notes the fields a step read and what it saw, through a copy of the event too; a step that read nothing touched nothing', () => {
    const quiet = run((memory) => ({ state: memory.state, ctx: memory.ctx, effects: [] }));
    expect([quiet.watch.calls, quiet.watch.readSeen, quiet.watch.whole, quiet.paths]).toEqual([1, false, false, []]);
    const reader = run((memory, event) => {
      const copy = { ...event };
      const status = copy.type === 'STEP' && copy.read.kind === 'found' ? copy.read.record.status : null;
      return { state: memory.state, ctx: { ...memory.ctx, outcome: status === 'READY' ? 'confirmed' : null }, effects: [] };
    });
    expect([reader.watch.readSeen, reader.watch.whole]).toEqual([true, false]);
    expect(reader.paths).toEqual(['kind', 'record', 'record.status']);
    expect(reader.values).toEqual(['sfound', 'object', 'sREADY']);
  });

  it('a spread of the record, a look at the stored fields, a POST or a second step keys the whole record', () => {
    const spread = run((memory, event) => ({ state: memory.state, ctx: memory.ctx, effects: event.type === 'STEP' && event.read.kind === 'found' ? [{ kind: 'write-record', id: 'a', record: { ...event.read.record } }] : [] }));
    expect(spread.watch.whole).toBe(true);
    expect(run((memory, event) => ({ state: memory.state, ctx: { ...memory.ctx, outcome: event.type === 'STEP' && event.read.kind === 'found' && event.read.stored.missing.length > 0 ? 'confirmed' : null }, effects: [] })).watch.whole).toBe(true);
    const watch = new StepReads();
    const inner: Stepper = (memory) => ({ state: memory.state, ctx: memory.ctx, effects: [] });
    const st = watch.wrap({ new: inner, old: inner, oldQueued: inner }, { rules: failClosed });
    watch.arm();
    st.new({ state: 'posting', ctx }, { type: 'POST', reply: 'ok', claim: { kind: 'free' } });
    expect([watch.calls, watch.readSeen, watch.whole]).toEqual([1, true, true]);
    watch.arm();
    st.new({ state: 'disposing', ctx }, step);
    expect(watch.whole).toBe(false);
    st.new({ state: 'disposing', ctx }, step);
    expect([watch.calls, watch.whole]).toEqual([2, true]);
  });

  it('a step that kept the watched read in its output is run again on the plain read (no stand-in leaves the step), keyed by the whole record', () => {
    const kept = run((memory, event) => ({ state: memory.state, ctx: memory.ctx, effects: event.type === 'STEP' && event.read.kind === 'found' ? [{ kind: 'write-record', id: 'a', record: event.read.record }] : [] }));
    expect(kept.watch.whole).toBe(true);
    const written = kept.out.effects[0];
    // The plain record itself: a stand-in would not be the same object.
    expect(written.kind === 'write-record' && written.record === record).toBe(true);
  });
});

describe('packed transitions: an engine step keyed by what its statechart read', () => {
  it('the statechart as it is: programs shared across records that agree on the fields read (fewer derivations than sharing only steps that read nothing, and than unwatched), the same states', () => {
    const systems = (['fields', 'untouched', 'none'] as const).map((w) => setUp(same, w, false));
    const counts = systems.map((system) => reachedStates(system, 6_000).length);
    expect(new Set(counts).size).toBe(1);
    const [fields, untouched, none] = systems.map((system) => system.transitions.derived);
    expect(fields).toBeLessThan(untouched);
    expect(untouched).toBeLessThan(none);
  });

  it('a statechart that reads the epoch through `read` where fail-closed does not (releasing): the epoch is in its key, verify mode finds no difference', () => {
    const system = setUp(both(reading), 'fields', true);
    const states = reachedStates(system, 6_000);
    // Releasing steps met records of later epochs (else the test would prove nothing).
    const releasing = states.filter((s) => system.unpack(s).engines.some((p) => p.state === 'releasing'));
    expect(new Set(releasing.map((s) => epochOf(system.unpack(s)))).size).toBeGreaterThan(1);
  });

  it('the same read of the epoch made around the watch (not in the key) shares a program where the epoch differs: verify mode throws', () => {
    const system = setUp(same, 'fields', true, both(readingAround));
    expect(() => reachedStates(system, 6_000)).toThrow(/differs from the object system in the step/);
  });
});

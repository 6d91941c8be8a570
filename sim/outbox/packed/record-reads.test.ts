/**
 * A broker answer's program is kept under the record's kind and status only
 * when the derivation saw the step read no more of the record: the watch
 * notes every access, a step that reads more keeps its program under the
 * whole record, and the shared program gives the object system's step on a
 * record it was not derived from.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import type { RecordSlot } from '../../../model/types.ts';
import { steppersFor } from '../../check.ts';
import type { TransitionSystem } from '../../core/system.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import type { World, WorldEvent } from '../world.ts';
import { reachedStates } from './reached-states.ts';
import { RecordProjection, RecordReads } from './record-reads.ts';
import { packedOutbox } from './system.ts';

const slot = (over: Record<string, unknown> = {}): RecordSlot => ({
  kind: 'record',
  record: { schema: 1, status: 'READY', payload: 'A', digest: 'd', attempts: 0, resendEpoch: 0, ...over },
});

describe('RecordReads', () => {
  it("a read of the slot's kind and its record's status is within the projection; any other access is beyond it", () => {
    const within = new RecordReads();
    const w = within.watch(slot());
    expect([w.kind, w.kind === 'record' ? w.record.status : null]).toEqual(['record', 'READY']);
    within.close();
    expect([within.beyond, within.escaped]).toEqual([false, false]);
    const probes: [string, (s: RecordSlot) => unknown][] = [
      ['a field', (s) => (s.kind === 'record' ? s.record.attempts : null)],
      ['the payload', (s) => (s.kind === 'record' ? s.record.payload : null)],
      ['a spread of the record', (s) => (s.kind === 'record' ? { ...s.record } : null)],
      ['a spread of the slot', (s) => ({ ...s })],
      ['its keys', (s) => (s.kind === 'record' ? Object.keys(s.record) : null)],
      ['`in`', (s) => (s.kind === 'record' ? 'reason' in s.record : null)],
      ['JSON', (s) => JSON.stringify(s)],
      ['a write', (s) => (s.kind === 'record' ? Object.assign(s.record, { attempts: 1 }) : null)],
    ];
    for (const [what, probe] of probes) {
      const r = new RecordReads();
      probe(r.watch(slot()));
      expect([what, r.beyond]).toEqual([what, true]);
    }
    const torn = new RecordReads();
    const t = torn.watch({ kind: 'torn', bytes: 'x' });
    expect(t.kind === 'torn' ? t.bytes : null).toBe('x');
    expect(torn.beyond).toBe(true);
  });

  it('a slot watched unread notes any access at all', () => {
    for (const probe of [(v: { owner: number }) => v.owner, (v: object) => ({ ...v }), (v: object) => 'owner' in v]) {
      const r = new RecordReads();
      probe(r.watchUnread({ owner: 1 }));
      expect(r.beyond).toBe(true);
    }
  });

  it('an access after close is an escape (the slot was kept in the next world)', () => {
    const r = new RecordReads();
    const w = r.watch(slot());
    r.close();
    expect(w.kind).toBe('record');
    expect([r.beyond, r.escaped]).toEqual([false, true]);
    // The next derivation starts clean, and a record read twice is one stand-in.
    r.reset();
    const again = r.watch(slot());
    expect(again.kind === 'record' && again.record === again.record).toBe(true);
    expect([r.beyond, r.escaped]).toEqual([false, false]);
  });
});

describe('RecordProjection', () => {
  it('one code per kind and status: absent, torn, each status; records differing elsewhere share', () => {
    const values: (RecordSlot | undefined)[] = [undefined, slot(), slot({ resendEpoch: 3 }), slot({ status: 'PARKED' }), { kind: 'torn', bytes: 'x' }, slot({ status: 7 }), slot({ status: '7' }), slot({ status: { x: 1 } }), slot({ status: { x: 1 } })];
    const p = new RecordProjection((id) => values[id]);
    const codes = values.map((_, i) => p.of(i));
    expect(codes[0]).toBe(0);
    expect(codes[4]).toBe(1);
    expect(codes[1]).toBe(codes[2]);
    expect(new Set([codes[0], codes[1], codes[3], codes[4], codes[5], codes[6], codes[7], codes[8]]).size).toBe(8);
  });
});

/** A world of operator actions: records that differ only in their counts meet the broker's answers. */
const SIZES: ExploreSizes = { ...EXPLORE_DEFAULTS, engines: 1, bodiesPerId: 1, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 3 };

/** Two bodies and two engines: a body produced, or a quarantined one restored, while an engine holds the claim. */
const BUSY: ExploreSizes = { ...EXPLORE_DEFAULTS, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 2 };

function setUp(alter?: (before: World, after: World) => World, when: (e: WorldEvent) => boolean = (e) => e.kind === 'answer', sizes: ExploreSizes = SIZES) {
  const options = exploreOptions(sizes);
  const worldRules = { rules: failClosed };
  const base = outboxSystem(options, worldRules, steppersFor(failClosed, null));
  const objectSystem: TransitionSystem<World, WorldEvent> =
    alter === undefined
      ? base
      : {
          ...base,
          step: (w, e) => {
            const r = base.step(w, e);
            return when(e) ? { ...r, state: alter(w, r.state) } : r;
          },
        };
  return { options, worldRules, objectSystem };
}

const epochOf = (w: World): number => {
  const s = w.records.a;
  return s?.kind === 'record' ? s.record.resendEpoch : 0;
};

describe('packed transitions: a broker answer keyed by the record it reads', () => {
  it('a program derived for one record serves a record that differs only in what the answer does not read, and gives the object system\'s step', () => {
    const { options, worldRules, objectSystem } = setUp();
    const system = packedOutbox(options, worldRules, objectSystem);
    let w = objectSystem.initial();
    // Produce, start a pass and step until the engine POSTs.
    for (let i = 0; i < 12 && !objectSystem.choices(w).some((c) => c.events.some((e) => e.kind === 'answer')); i++) {
      w = objectSystem.step(w, objectSystem.choices(w).flatMap((c) => c.events).find((e) => e.kind !== 'crash') as WorldEvent).state;
    }
    const answers = objectSystem.choices(w).flatMap((c) => c.events).filter((e) => e.kind === 'answer');
    expect(answers.length).toBeGreaterThan(1);
    const a = w.records.a;
    if (a?.kind !== 'record') throw new Error('record-reads.test: no record');
    const later: World = { ...w, records: { a: { kind: 'record', record: { ...a.record, resendEpoch: a.record.resendEpoch + 2, attempts: a.record.attempts + 1 } } } };
    const out = new Int32Array(system.width);
    for (const [world, derives] of [[w, answers.length], [later, 0]] as const) {
      const s = system.layout.pack(world, system.tables);
      const before = system.transitions.derived;
      for (const e of answers) {
        system.transitions.run(s, system.transitions.programFor(s, e), out);
        expect(objectSystem.key(system.unpack(out))).toBe(objectSystem.key(objectSystem.step(world, e).state));
      }
      expect(system.transitions.derived - before).toBe(derives);
    }
  });

  it('an answer that reads more of the record (here its resend epoch) keeps its program under the whole record: verify mode finds no difference', () => {
    // The answer also counts the record's epoch into the operator's count (a counter: its program adds a delta).
    const { options, worldRules, objectSystem } = setUp((before, after) => ({ ...after, operatorActions: after.operatorActions + epochOf(before) }));
    const system = packedOutbox(options, worldRules, objectSystem, { verify: true });
    const states = reachedStates(system, 4_000);
    // The walk met answers on records of one status with different epochs (else the test would prove nothing).
    const epochs = new Set(states.filter((s) => system.events(s).some((e) => e.kind === 'answer')).map((s) => epochOf(system.unpack(s))));
    expect(epochs.size).toBeGreaterThan(1);
  });

  it('the same walk on the unaltered system shares programs across epochs (fewer derivations than with the whole record)', () => {
    const plain = setUp();
    const altered = setUp((before, after) => ({ ...after, operatorActions: after.operatorActions + 0 * epochOf(before) }));
    const derived = [plain, altered].map(({ options, worldRules, objectSystem }) => {
      const system = packedOutbox(options, worldRules, objectSystem);
      reachedStates(system, 4_000);
      return system.transitions.derived;
    });
    expect(derived[0]).toBeLessThan(derived[1]);
  });

  it("a producer or a restore that reads more than whether a claim is there (its owner) keeps its program under the whole slots: verify mode finds no difference", () => {
    const owner = (w: World): number => {
      const c = w.claims.a;
      return c?.kind === 'held' ? c.owner : 0;
    };
    for (const kind of ['produce', 'restore']) {
      const { options, worldRules, objectSystem } = setUp((before, after) => ({ ...after, operatorActions: after.operatorActions + owner(before) }), (e) => e.kind === kind, BUSY);
      const system = packedOutbox(options, worldRules, objectSystem, { verify: true });
      const states = reachedStates(system, 6_000);
      expect(states.some((s) => system.events(s).some((e) => e.kind === kind) && owner(system.unpack(s)) > 0)).toBe(true);
    }
  });

  it('producers and restores share programs across records of one status and claims, files and holdings that are there (fewer derivations than with the whole slots)', () => {
    const count = (when: (e: WorldEvent) => boolean): number => {
      // Altered to read a claim's owner (0 times: the same steps) when `when` says: then nothing is shared for those events.
      const { options, worldRules, objectSystem } = setUp((before, after) => ({ ...after, operatorActions: after.operatorActions + 0 * (before.claims.a?.kind === 'held' ? before.claims.a.owner : 0) }), when, BUSY);
      const system = packedOutbox(options, worldRules, objectSystem);
      reachedStates(system, 6_000);
      return system.transitions.derived;
    };
    const none = count(() => false);
    expect(none).toBeLessThan(count((e) => e.kind === 'produce'));
    expect(none).toBeLessThan(count((e) => e.kind === 'restore'));
  });
});

/** An operator's requeues, a corruption and a broker's answers on one engine: live files and holdings of many generations meet them. */
const FAULTY: ExploreSizes = { ...EXPLORE_DEFAULTS, engines: 1, bodiesPerId: 2, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 2, corruptionsMax: 1 };

/** Kinds whose keys hold the live file only as whether it is there. */
const LIVE_KINDS = ['requeue', 'resubmit', 'field-corrupt', 'tear-record', 'legacy-record', 'answer', 'step'];
/** Kinds whose keys hold the broker's holding only as whether it is there. */
const HOLDING_KINDS = ['requeue', 'resubmit', 'field-corrupt', 'tear-record', 'legacy-record'];

describe('packed transitions: operator actions, storage faults, answers and engine steps keyed by whether a live file and a holding are there', () => {
  const generation = (w: World): number => w.live.a?.generation ?? 0;
  /** A number of the broker's holding (a hash of its text): 0 when there is none. */
  const holding = (w: World): number => (w.broker.a === undefined ? 0 : 1 + [...JSON.stringify(w.broker.a)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 10_007, 0));
  const run = (read: (w: World) => number, times: number, when: (e: WorldEvent) => boolean, verify: boolean) => {
    // Altered to count what `read` reads (times 0: the same steps) into the operator's count when `when` says.
    const { options, worldRules, objectSystem } = setUp((before, after) => ({ ...after, operatorActions: after.operatorActions + times * read(before) }), when, FAULTY);
    const system = packedOutbox(options, worldRules, objectSystem, { verify });
    const states = reachedStates(system, 8_000);
    return { system, states };
  };

  it('they share programs across live files and holdings that are there (fewer derivations than when they are read)', () => {
    const none = run(generation, 0, () => false, false).system.transitions.derived;
    for (const [read, kinds] of [[generation, ['requeue', 'field-corrupt', 'answer', 'step']], [holding, ['requeue', 'field-corrupt']]] as const) {
      for (const kind of kinds) {
        const derived = run(read, 0, (e) => e.kind === kind, false).system.transitions.derived;
        expect([kind, none < derived]).toEqual([kind, true]);
      }
    }
  });

  it('one that reads the live file (its generation) or the holding keeps it in its key: verify mode finds no difference (a disposal that archives the live file is stepped again on the plain slots: no proxy is archived)', () => {
    for (const [read, kinds, seen] of [[generation, LIVE_KINDS, ['step', 'answer']], [holding, HOLDING_KINDS, ['requeue', 'field-corrupt']]] as const) {
      const { system, states } = run(read, 1, (e) => kinds.includes(e.kind), true);
      // The walk met these events where different live files or holdings were there (else the test would prove nothing).
      for (const kind of seen) {
        const met = states.filter((s) => system.events(s).some((e) => e.kind === kind)).map((s) => read(system.unpack(s)));
        expect([kind, new Set(met).size > 1]).toEqual([kind, true]);
      }
    }
  });
});

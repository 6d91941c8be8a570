/**
 * Slots an event should not touch at all (an operator's requeue and the
 * live file; a corruption and the claim, the producer's count, the reported
 * body; a late landing and the record) are given to the step as watched
 * maps, and the step's program is kept for every value they hold
 * (`transitions.ts`, UNTOUCHED), as is a broker answer's live file (its
 * POST event carries none); a broker answer's holding is watched for
 * whether it is there (a broker that answers every second POST alike reads
 * no more). Held here: whole searches give the same
 * states and the same transitions as keys that hold those slots; a step
 * altered to read one of them keeps it in its key (verify mode, which
 * steps every transition through the object system too, finds no
 * difference); the watch notes every route into a map.
 */
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle } from '../../../model/catalog/index.ts';
import type { RuleSet } from '../../../model/rules.ts';
import { steppersFor } from '../../check.ts';
import type { TransitionSystem } from '../../core/system.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import type { World, WorldEvent } from '../world.ts';
import { reachedStates } from './reached-states.ts';
import { RecordReads } from './record-reads.ts';
import { packedOutbox, type PackedOutbox } from './system.ts';

interface Case {
  name: string;
  sizes: Partial<ExploreSizes>;
  rules: RuleSet;
  oldRules?: RuleSet;
  /** States searched (breadth-first: the same first states on both keyings when their transitions agree). */
  states: number;
  /** The kinds whose keys hold untouched slots that the search must meet (else the case would prove nothing). */
  kinds: string[];
  /** False where the steps read what is watched (a broker that reads the holding): then they fall back, and share nothing more. */
  shares?: false;
}

/** Worlds of the suite (`small-worlds.ts`) with the kinds concerned, and two more: two ids (a restore watches each id's slots of one map), version skew (each operator action twice). */
const CASES: Case[] = [
  { name: '1 corruption, no crash', sizes: { corruptionsMax: 1, crashesMax: 0 }, rules: failClosed, states: 12_000, kinds: ['field-corrupt', 'tear-record', 'tear-claim', 'legacy-record', 'newer-schema'] },
  { name: '1 engine, 2 operator actions, 1 corruption', sizes: { engines: 1, operatorActionsMax: 2, corruptionsMax: 1 }, rules: failClosed, states: 12_000, kinds: ['requeue', 'resubmit', 'restore', 'produce', 'field-corrupt'] },
  { name: '2 ids, 1 body each, 1 engine, 1 operator action, 1 corruption', sizes: { ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, operatorActionsMax: 1, corruptionsMax: 1 }, rules: failClosed, states: 12_000, kinds: ['requeue', 'restore', 'produce', 'tear-record'] },
  { name: 'retention: 1 sweep', sizes: { settings: { retention: 1 } }, rules: failClosed, states: 8_000, kinds: ['sweep'] },
  { name: '2 engines, 2 operator actions', sizes: { operatorActionsMax: 2 }, rules: failClosed, states: 12_000, kinds: ['requeue', 'resubmit', 'restore'] },
  { name: 'late landing: 1 POST in transit', sizes: { settings: { lateLanding: 1 } }, rules: failClosed, states: 8_000, kinds: ['land', 'post-in-transit'] },
  // The broker modes of the suite: id-ok (the default world) and id-409 read no holding at a second POST; key compares keys, none tells a duplicate, log appends.
  { name: 'default (broker id-ok)', sizes: {}, rules: failClosed, states: 8_000, kinds: ['answer'] },
  { name: 'broker id-409', sizes: { broker: 'id-409' }, rules: failClosed, states: 8_000, kinds: ['answer'] },
  { name: 'broker key', sizes: { broker: 'key' }, rules: failClosed, states: 8_000, kinds: ['answer'], shares: false },
  { name: 'broker none', sizes: { broker: 'none' }, rules: failClosed, states: 8_000, kinds: ['answer'], shares: false },
  { name: 'broker log', sizes: { broker: 'log' }, rules: failClosed, states: 10_000, kinds: ['answer'], shares: false },
  { name: 'version skew, 1 engine, 1 operator action', sizes: { engines: 1, skew: true, operatorActionsMax: 1, crashesMax: 0 }, rules: failClosed, oldRules: freshCycle, states: 8_000, kinds: ['requeue'] },
];

function systems(c: Case, objectStep?: (base: TransitionSystem<World, WorldEvent>) => TransitionSystem<World, WorldEvent>['step']) {
  const options = exploreOptions({ ...EXPLORE_DEFAULTS, ...c.sizes });
  const worldRules = { rules: c.rules, ...(c.oldRules ? { oldRules: c.oldRules } : {}) };
  const base = outboxSystem(options, worldRules, steppersFor(c.rules, c.oldRules ?? null));
  const objectSystem = objectStep === undefined ? base : { ...base, step: objectStep(base) };
  return { options, worldRules, objectSystem };
}

/** A 32-bit FNV-1a over a text, continued from `h`. */
function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16_777_619) >>> 0;
  return h;
}

/**
 * The first `max` states breadth-first, each as the object system keys it,
 * and a hash over every transition from them (state, event, next state, the
 * states numbered in the order first reached), with the kinds met.
 */
function relation(system: PackedOutbox, objectSystem: TransitionSystem<World, WorldEvent>, max: number) {
  const states = reachedStates(system, max);
  const index = new Map(states.map((s, i) => [s.join(), i]));
  let hash = fnv(2_166_136_261, '');
  for (const s of states) hash = fnv(hash, objectSystem.key(system.unpack(s)));
  let transitions = 0;
  const kinds = new Set<string>();
  const out = new Int32Array(system.width);
  for (let i = 0; i < states.length; i++) {
    for (const e of system.events(states[i])) {
      system.apply(states[i], e, out);
      // A state beyond the bound is keyed by what it is (it has no number).
      const j = index.get(out.join());
      hash = fnv(hash, `${i} ${JSON.stringify(e)} ${j === undefined ? objectSystem.key(system.unpack(out)) : j}`);
      transitions++;
      kinds.add(e.kind);
    }
  }
  return { states: states.length, transitions, hash, kinds, derived: system.transitions.derived };
}

describe('packed transitions: slots an event does not touch are left out of its key, or held by whether they are there', () => {
  for (const c of CASES) {
    it(`${c.name}: the same states and transitions as keys that hold them${c.shares === false ? '' : ', from fewer derivations'}`, () => {
      const [fine, whole] = [true, false].map((watch) => {
        const { options, worldRules, objectSystem } = systems(c);
        const system = packedOutbox(options, worldRules, objectSystem);
        system.transitions.narrowKeys = watch;
        return relation(system, objectSystem, c.states);
      });
      expect(c.kinds.filter((k) => !fine.kinds.has(k))).toEqual([]);
      expect({ states: fine.states, transitions: fine.transitions, hash: fine.hash }).toEqual({ states: whole.states, transitions: whole.transitions, hash: whole.hash });
      if (c.shares !== false) expect(fine.derived).toBeLessThan(whole.derived);
    }, 120_000);
  }
});

/** What an altered step reads of an id's slot, as a number (0 where absent): it is added to the operator's count. */
const READS: [string, (w: World) => number][] = [
  ['claim', (w) => (w.claims.a === undefined ? 0 : w.claims.a.kind === 'held' ? 1 + w.claims.a.owner : 1)],
  ['live file', (w) => (w.live.a === undefined ? 0 : 1 + w.live.a.generation)],
  ['holding', (w) => (w.broker.a === undefined ? 0 : 1 + JSON.stringify(w.broker.a).length)],
  ['count', (w) => w.produced.a ?? 0],
  ['reported body', (w) => (w.reported.a === undefined ? 0 : 1 + w.reported.a.length)],
  ['record', (w) => (w.records.a === undefined ? 0 : 1 + JSON.stringify(w.records.a).length)],
];

/**
 * Per kind, slots its key leaves out (an altered step that reads one must
 * keep it), where they differ between states the walk enables the kind in:
 * the reported body of a requeued, restored or landing id is the same in
 * all of them, and its map is watched as the others are (field-corrupt and
 * produce read it here).
 */
const UNTOUCHED_BY: [string, string[], string][] = [
  ['requeue', ['live file', 'holding', 'count'], '2 engines, 2 operator actions'],
  ['field-corrupt', ['claim', 'live file', 'holding', 'count', 'reported body'], '1 engine, 2 operator actions, 1 corruption'],
  ['produce', ['claim', 'holding', 'reported body', 'record'], '1 engine, 2 operator actions, 1 corruption'],
  ['restore', ['claim', 'holding', 'count', 'record'], '1 engine, 2 operator actions, 1 corruption'],
  ['land', ['claim', 'live file', 'count', 'record'], 'late landing: 1 POST in transit'],
  ['answer', ['holding', 'live file'], 'default (broker id-ok)'],
];

describe('packed transitions: a step that reads an untouched slot keeps it in its key', () => {
  for (const [kind, slots, name] of UNTOUCHED_BY) {
    const c = CASES.find((x) => x.name === name) as Case;
    it(`${kind}, altered to read its id's ${slots.join(', ')}: verify mode finds no difference, and the walk met the kind where they differ`, () => {
      for (const [what, read] of READS.filter(([w]) => slots.includes(w))) {
        const { options, worldRules, objectSystem } = systems(c, (base) => (w, e) => {
          const r = base.step(w, e);
          return e.kind === kind ? { ...r, state: { ...r.state, operatorActions: r.state.operatorActions + read(w) } } : r;
        });
        const system = packedOutbox(options, worldRules, objectSystem, { verify: true });
        const states = reachedStates(system, 8_000);
        const met = states.filter((s) => system.events(s).some((e) => e.kind === kind)).map((s) => read(system.unpack(s)));
        expect([kind, what, new Set(met).size > 1]).toEqual([kind, what, true]);
      }
    }, 120_000);
  }
});

describe('a map watched untouched', () => {
  it('notes every route into it: a read of the id or another, `in`, keys, a spread, JSON, for-in, entries, assign; structuredClone refuses it', () => {
    const probes: [string, (m: Record<string, number>) => unknown][] = [
      ['the id', (m) => m.a],
      ['an absent id', (m) => m.b],
      ['`in`', (m) => 'a' in m],
      ['keys', (m) => Object.keys(m)],
      ['a spread', (m) => ({ ...m })],
      ['JSON', (m) => JSON.stringify(m)],
      [
        'for-in',
        (m) => {
          const out: string[] = [];
          for (const k in m) out.push(k);
          return out;
        },
      ],
      ['entries', (m) => Object.entries(m)],
      ['assign', (m) => Object.assign({}, m)],
      ['a write', (m) => (m.a = 2)],
    ];
    for (const [what, probe] of probes) {
      const r = new RecordReads();
      probe(r.watchUnread({ a: 1 }));
      expect([what, r.beyond]).toEqual([what, true]);
    }
    const r = new RecordReads();
    const m = r.watchUnread({ a: 1 });
    expect(() => structuredClone(m)).toThrow();
    // Copied by reference (as a world copy copies its maps) and compared by identity: not an access.
    const copy = { m };
    expect([copy.m === m, r.beyond]).toEqual([true, false]);
  });
});

/**
 * The packed explorer against the object system it is derived from: whole
 * searches in `verify` mode (every event list, step and verdict computed
 * both ways, any difference throws), then the same search on both
 * explorers, which must agree on every count and counterexample.
 */
import envelopeGzipLarge from '../../../properties/rule-api/envelope-gzip-large.ts';
import envelopeLatin1 from '../../../properties/rule-api/envelope-latin1.ts';
import quarantineCauseFromReply from '../../../properties/rule-api/quarantine-cause-from-reply.ts';
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle } from '../../../model/catalog/index.ts';
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import { TIME_ORIGIN } from '../../../model/time.ts';
import { steppersFor } from '../../check.ts';
import { explore } from '../../core/explore.ts';
import type { TransitionSystem } from '../../core/system.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { exploreOutbox } from '../explore-outbox.ts';
import { outboxSystem } from '../outbox-system.ts';
import { labelOf, type World, type WorldEvent } from '../world.ts';
import envelopeIdIsKey from '../../../properties/mutants/envelope-id-is-key.ts';
import corruptAsAbsent from '../../../properties/mutants/corrupt-as-absent.ts';
import retentionDeletesRecord from '../../../properties/mutants/retention-deletes-record.ts';
import tombstoneDelivered from '../../../properties/rule-api/tombstone-delivered.ts';
import leaseUnfenced from '../../../properties/rule-api/lease-unfenced.ts';
import rebuildParkedSameBody from '../../../properties/mutants/rebuild-parked-same-body.ts';
import okFalseAsConfirmed from '../../../properties/mutants/ok-false-as-confirmed.ts';
import keyMarksRequeue from '../../../properties/rule-api/key-marks-requeue.ts';
import retryBackoff from '../../../properties/rule-api/retry-backoff.ts';
import poisonRetried from '../../../properties/rule-api/poison-retried.ts';
import poisonParked from '../../../properties/rule-api/poison-parked.ts';
import { outboxLiveness } from '../explore-liveness.ts';
import { BOUNDS_DEFAULT } from '../../check.ts';
import { kindOn } from './kinds.ts';
import { Unrepresentable } from './layout.ts';
import { PACKED_KINDS, packedOutbox } from './system.ts';
import type { WorldOptions } from '../options.ts';

/** The world with the kinds the packed explorer does not list switched off (a world with them is searched by the object system). */
function packable(o: WorldOptions): WorldOptions {
  return { ...o, weights: Object.fromEntries(Object.entries(o.weights).map(([k, v]) => [k, PACKED_KINDS.has(k) ? v : 0])) };
}

/** fail-closed whose decisions throw when told a time before the clock's origin: every caller tells them the time from it (model/time.ts). */
/** fail-closed whose key also carries the attempt: every retry a new key (retries-deduped, until an operator acts). */
const keyPerAttempt: RuleSet = extendRules(failClosed, {
  name: 'key-per-attempt',
  summary: 'fail-closed whose key carries the attempt count.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${id}#${record.resendEpoch}#${record.attempts}` }),
});

const clockFromOrigin: RuleSet = extendRules(failClosed, {
  name: 'clock-from-origin',
  summary: 'fail-closed that refuses a clock below TIME_ORIGIN',
  selectable: (_record, view) => {
    if (view.now < TIME_ORIGIN) throw new Error(`selectable told now ${view.now}`);
    return true;
  },
  preSend: (record, view) => {
    if ((view?.now ?? TIME_ORIGIN) < TIME_ORIGIN) throw new Error(`preSend told now ${view?.now}`);
    return failClosed.preSend(record, view);
  },
});

interface Case {
  name: string;
  sizes: Partial<ExploreSizes>;
  rules: RuleSet;
  oldRules?: RuleSet;
  statesMax: number;
}

/** Takes a dead owner's claim only while no attempt of the record is counted: a claim decision that reads the record. */
const claimByRecord: RuleSet = extendRules(failClosed, {
  name: 'claim-by-record',
  summary: "fail-closed, but a dead owner's claim is taken only while the record counts no attempt",
  mayClaim: (claim, view) => failClosed.mayClaim(claim, view) && !(claim.kind === 'held' && !claim.mine && (view?.record.attempts ?? 0) > 0),
});

const CASES: Case[] = [
  { name: 'default world', sizes: {}, rules: failClosed, statesMax: 30_000 },
  { name: 'corruptions and operator actions', sizes: { engines: 1, corruptionsMax: 2, operatorActionsMax: 2 }, rules: failClosed, statesMax: 30_000 },
  { name: 'two ids', sizes: { ids: 2, bodiesPerId: 1, engines: 2, crashesMax: 1 }, rules: failClosed, statesMax: 20_000 },
  { name: 'version skew', sizes: { engines: 2, skew: true }, rules: failClosed, oldRules: freshCycle, statesMax: 20_000 },
  { name: 'broker id-409', sizes: { engines: 2, broker: 'id-409' }, rules: failClosed, statesMax: 15_000 },
  { name: 'broker key, three engines', sizes: { engines: 3, broker: 'key', attemptsMax: 3 }, rules: failClosed, statesMax: 20_000 },
  { name: 'broker none', sizes: { engines: 1, broker: 'none', crashesMax: 2, corruptionsMax: 1 }, rules: failClosed, statesMax: 15_000 },
  // Bodies parked and then replaced: a broker answer's program depends on them (an engine's cached expansion once did not).
  { name: 'parked bodies replaced (per-body parked-stays-parked)', sizes: { engines: 1, crashesMax: 1, operatorActionsMax: 1 }, rules: rebuildParkedSameBody, statesMax: 30_000 },
  // Field corruptions (one per declared field and damage), as the suite's corruption world has them.
  { name: 'field corruptions, no crash', sizes: { corruptionsMax: 1, crashesMax: 0 }, rules: failClosed, statesMax: 30_000 },
  // The retention sweeper (a counter of its own; enabled only on ids no engine works on), with and without tombstones.
  { name: 'retention: 2 sweeps', sizes: { settings: { retention: 2 } }, rules: failClosed, statesMax: 40_000 },
  { name: 'retention: 1 sweep, tombstones, operator', sizes: { engines: 1, operatorActionsMax: 1, settings: { retention: 1 } }, rules: tombstoneDelivered, statesMax: 40_000 },
  // Late landing: POSTs in transit (a list slot of its own) land in any order, also while healing.
  { name: 'late landing: 1 POST in transit', sizes: { settings: { lateLanding: 1 } }, rules: failClosed, statesMax: 40_000 },
  { name: 'late landing: 2 POSTs in transit, broker key, 1 engine, crashes', sizes: { engines: 1, broker: 'key', crashesMax: 2, settings: { lateLanding: 2 } }, rules: failClosed, statesMax: 40_000 },
  // A dedupe window: every broker step (answer, POST left in transit, landing) ages the broker's memory; forget drops an entry.
  { name: 'dedupe window 2, 1 engine', sizes: { engines: 1, settings: { dedupeWindow: 2 } }, rules: failClosed, statesMax: 40_000 },
  { name: 'dedupe window 1, late landing, broker key', sizes: { engines: 1, broker: 'key', crashesMax: 0, settings: { dedupeWindow: 1, lateLanding: 1 } }, rules: failClosed, statesMax: 40_000 },
  // A clock: every step is told the time, claims carry their lease's end, stalls run the clock past it.
  { name: 'clock to tick 2, lease 1, 1 body, no crash', sizes: { bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1 } }, rules: failClosed, statesMax: 40_000 },
  { name: 'clock to tick 3, lease 2, 1 engine, crashes', sizes: { engines: 1, settings: { ticks: 3, lease: 2 } }, rules: failClosed, statesMax: 40_000 },
  { name: 'clock to tick 2, no lease', sizes: { engines: 1, settings: { ticks: 2 } }, rules: failClosed, statesMax: 40_000 },
  // A back-off that selectable reads against the clock: the packed listing asks selectable itself, with the time as every decision sees it
  // (from the clock's origin: it told selectable the bare ticks once, and a stamp another decision wrote never came due).
  { name: 'a back-off selectable reads, clock to tick 3', sizes: { engines: 1, bodiesPerId: 1, crashesMax: 0, settings: { ticks: 3 } }, rules: retryBackoff, statesMax: 40_000 },
  { name: 'selectable refuses a clock below its origin, clock to tick 2', sizes: { engines: 1, bodiesPerId: 1, operatorActionsMax: 1, settings: { ticks: 2 } }, rules: clockFromOrigin, statesMax: 40_000 },
  { name: 'selectable refuses a clock below its origin, no clock', sizes: { engines: 1, bodiesPerId: 1, operatorActionsMax: 1 }, rules: clockFromOrigin, statesMax: 40_000 },
  // A rule set that classifies ok:false apart from a 400: the broker's refuse-ok-false is offered (events/broker.ts), to
  // its engines, and under skew to the other version's too.
  { name: 'ok:false told apart', sizes: { engines: 2 }, rules: okFalseAsConfirmed, statesMax: 20_000 },
  { name: 'ok:false told apart by the old version only', sizes: { engines: 2, skew: true }, rules: failClosed, oldRules: okFalseAsConfirmed, statesMax: 20_000 },
  // A broker answer that, under skew after an operator's action, reads the record to ask the other version's key (events/rekeyed.ts).
  // A key per attempt under a broker deduping by key: a second store is noted until an operator acts anywhere, then
  // excused (events/rekeyed.ts): an answer's program derived before an action was replayed after one until the keys held it.
  { name: 'a key per attempt, broker key, an operator action, two ids', sizes: { ids: 2, bodiesPerId: 1, engines: 1, broker: 'key', operatorActionsMax: 1 }, rules: keyPerAttempt, statesMax: 40_000 },
  { name: 'version skew after a requeue, keys apart, broker key', sizes: { engines: 2, bodiesPerId: 1, operatorActionsMax: 1, broker: 'key', skew: true }, rules: keyMarksRequeue, oldRules: failClosed, statesMax: 20_000 },
  // A body that kills the engine about to POST it (events/poison.ts): a crash and a restart inside an engine's step.
  { name: 'a poison message, two engines', sizes: { settings: { poison: 1 } }, rules: poisonRetried, statesMax: 20_000 },
  // A disposal that quarantines with a cause that says not delivered: the step reads the broker's holding (honest-park's note).
  { name: 'a quarantine cause named from the reply, broker id-409', sizes: { engines: 2, bodiesPerId: 1, broker: 'id-409' }, rules: quarantineCauseFromReply, statesMax: 20_000 },
  // A claim decided by the record it would work on (a row lease): the engine's claiming step reads the record's attempts.
  { name: 'a claim decided by the record', sizes: { engines: 2, bodiesPerId: 1 }, rules: claimByRecord, statesMax: 20_000 },
  // An envelope that encodes bodies, and the decode that reads them back (docs/rules.md, 'Encoded envelopes'): the engine's
  // envelope holds the body decoded, a lossy decoding's too.
  { name: 'a compressed envelope decoded, large bodies', sizes: { engines: 2, bodiesPerId: 1, bodyShape: 'large:2049' }, rules: envelopeGzipLarge, statesMax: 20_000 },
  { name: 'a lossy decoding, astral bodies', sizes: { engines: 2, bodiesPerId: 1, bodyShape: 'astral' }, rules: envelopeLatin1, statesMax: 20_000 },
  { name: 'a flawed rule set, all violations', sizes: { engines: 2, operatorActionsMax: 1 }, rules: freshCycle, statesMax: 20_000 },
];

function setUp(c: Case) {
  const options = packable(exploreOptions({ ...EXPLORE_DEFAULTS, ...c.sizes }));
  const worldRules = { rules: c.rules, ...(c.oldRules ? { oldRules: c.oldRules } : {}) };
  const steppers = steppersFor(c.rules, c.oldRules ?? null);
  return { options, worldRules, steppers, objectSystem: outboxSystem(options, worldRules, steppers) };
}

/** `objectSystem` with the state after each event that `when` picks passed through `alter` (a system that breaks what packing assumes). */
function alterSteps(objectSystem: TransitionSystem<World, WorldEvent>, when: (e: WorldEvent) => boolean, alter: (w: World) => World): TransitionSystem<World, WorldEvent> {
  return {
    ...objectSystem,
    step: (w, e) => {
      const r = objectSystem.step(w, e);
      return when(e) ? { ...r, state: alter(r.state) } : r;
    },
  };
}

/** The first event enabled in `w` that `pick` accepts. */
function firstEvent(objectSystem: TransitionSystem<World, WorldEvent>, w: World, pick: (e: WorldEvent) => boolean): WorldEvent {
  const e = objectSystem.choices(w).flatMap((c) => c.events).find(pick);
  if (e === undefined) throw new Error('packed.test: no such event enabled');
  return e;
}

const summary = (r: ReturnType<typeof explore<World, WorldEvent>>) => ({
  complete: r.complete,
  stoppedBy: r.stoppedBy,
  states: r.states,
  transitions: r.transitions,
  depth: r.depth,
  violations: r.violations.map((v) => ({ ...v.violation, events: v.events.map(labelOf) })),
});

describe('packed explorer: derived from the object system, equal to it', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s: verify mode finds no difference, and both explorers agree', (_name, c) => {
    const { options, worldRules, steppers, objectSystem } = setUp(c);
    const bounds = { statesMax: c.statesMax, stopAtFirst: false };
    const verified = exploreOutbox(options, worldRules, steppers, bounds, { verify: true });
    const object = explore(objectSystem, bounds);
    expect(summary(verified)).toEqual(summary(object));
    expect(verified.states).toBeGreaterThan(100);
  }, 60_000);

  it('the flawed rule set is caught by both, with the same shortest trace', () => {
    const c = CASES[CASES.length - 1];
    const { options, worldRules, steppers, objectSystem } = setUp(c);
    const packed = exploreOutbox(options, worldRules, steppers, { statesMax: 200_000 });
    const object = explore(objectSystem, { statesMax: 200_000 });
    expect(packed.violations[0]?.violation.property).toBe('no-phantom-delivery');
    expect(packed.violations.map((v) => v.events)).toEqual(object.violations.map((v) => v.events));
  });
});

/**
 * A world whose settings turn kinds on: the packed explorer searches it (no
 * fall-back to the object explorer) and finds the object system's states,
 * transitions and violations. Returns the packed search for the caller's own checks.
 */
function packedAgreesOn(c: Case, kinds: readonly string[]): ReturnType<typeof exploreOutbox> {
  const { options, worldRules, steppers, objectSystem } = setUp(c);
  expect(kinds.filter((k) => !kindOn(options, k))).toEqual([]);
  const bounds = { statesMax: c.statesMax, stopAtFirst: false };
  const packed = exploreOutbox(options, worldRules, steppers, bounds);
  expect([packed.explorer, packed.fallback]).toEqual(['packed', null]);
  expect(summary(packed)).toEqual(summary(explore(objectSystem, bounds)));
  return packed;
}

describe('field corruptions on packed states', () => {
  it('a world with field-corrupt on is searched by the packed explorer, with the object system\'s counts and shortest counterexample', () => {
    const packed = packedAgreesOn({ name: 'corrupt-as-absent', sizes: { corruptionsMax: 1, crashesMax: 0 }, rules: corruptAsAbsent, statesMax: 200_000 }, ['field-corrupt']);
    expect(packed.violations.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('retention on packed states', () => {
  it('the suite\'s retention world is searched by the packed explorer, with the object system\'s states, transitions and violations of retention-deletes-record', () => {
    const packed = packedAgreesOn({ name: 'retention-deletes-record', sizes: { settings: { retention: 1 } }, rules: retentionDeletesRecord, statesMax: 300_000 }, ['sweep']);
    expect(packed.violations.length).toBeGreaterThan(0);
    expect(packed.violations.some((v) => v.events.some((e) => e.kind === 'sweep'))).toBe(true);
  }, 120_000);
});

describe('poison messages on packed states', () => {
  // The suite's poison world, and the default world with a poison message (two engines, a crash).
  const POISON_WORLDS = [
    ['the suite\'s poison world', { engines: 1, bodiesPerId: 1, attemptsMax: 2, crashesMax: 0, settings: { poison: 1 } }],
    ['the default world with 1 poison message', { settings: { poison: 1 } }],
  ] as const;
  it.each(
    POISON_WORLDS.flatMap(([name, sizes]) => [
      [name, 'fail-closed', sizes, failClosed, []],
      [name, 'poison-parked', sizes, poisonParked, []],
      [name, 'poison-retried', sizes, poisonRetried, ['quiet-after-healing']],
    ] as const),
  )("%s, %s: searched by the packed explorer with the eventually properties, with the object system's states, transitions and violations", (_name, _rulesName, sizes, rules, found) => {
    const c: Case = { name: rules.name, sizes, rules, statesMax: 300_000 };
    const { options, worldRules, steppers, objectSystem } = setUp(c);
    expect(kindOn(options, 'poison')).toBe(true);
    const bounds = { statesMax: c.statesMax, stopAtFirst: false, liveness: true };
    const packed = exploreOutbox(options, worldRules, steppers, bounds);
    expect([packed.explorer, packed.fallback, packed.complete]).toEqual(['packed', null, true]);
    expect(summary(packed)).toEqual(summary(explore(objectSystem, bounds, outboxLiveness(options, objectSystem, BOUNDS_DEFAULT.healStepsMax))));
    expect([...new Set(packed.violations.map((v) => v.violation.property))]).toEqual(found);
  }, 120_000);
});

/** The suite's setting worlds, each with fail-closed (clean) and a rule set that breaks in it. */
const SETTING_WORLDS = [
  { world: 'late-landing', sizes: { settings: { lateLanding: 1 } }, kinds: ['land', 'timeout-in-transit'], flawed: ['fresh-cycle', freshCycle] },
  { world: 'dedupe-window', sizes: { engines: 1, settings: { dedupeWindow: 2 } }, kinds: ['forget'], flawed: ['fresh-cycle', freshCycle] },
  { world: 'clock', sizes: { bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1 } }, kinds: ['tick', 'stall'], flawed: ['lease-unfenced', leaseUnfenced] },
] as const;

describe('the setting worlds on packed states', () => {
  it.each(
    SETTING_WORLDS.flatMap((w) => [
      [w.world, 'fail-closed (clean)', w, failClosed, 0],
      [w.world, `${w.flawed[0]} (flawed)`, w, w.flawed[1], 1],
    ] as const),
  )("the suite's %s world, %s: searched by the packed explorer, with the object system's states, transitions and violations", (name, _rulesName, w, rules, violating) => {
    const packed = packedAgreesOn({ name, sizes: w.sizes, rules, statesMax: 300_000 }, w.kinds);
    expect(packed.complete).toBe(true);
    expect(Math.min(packed.violations.length, 1)).toBe(violating);
  }, 120_000);
});

describe('packed transitions: the derivation refuses what its key cannot explain', () => {
  it('throws when an event changes a slot outside its key, instead of replaying a wrong step', () => {
    const { options, worldRules, objectSystem } = setUp(CASES[0]);
    // A objectSystem whose crash also rewrites a record: a crash's key holds no record slot.
    const skewed = alterSteps(objectSystem, (e) => e.kind === 'crash', (w) => ({ ...w, records: { ...w.records, a: { kind: 'torn', bytes: 'x' } } }));
    const system = packedOutbox(options, worldRules, skewed);
    const s = new Int32Array(system.width);
    system.initial(s);
    // Listing the events derives their programs (the crash's among them).
    expect(() => system.events(s)).toThrow(/slot 0 of id a changed .*"kind":"crash".* key misses a slot/);
    const crash: WorldEvent = { kind: 'crash', pid: 1, at: 'idle' };
    expect(() => system.apply(s, crash, new Int32Array(system.width))).toThrow(/key misses a slot/);
  });
});

describe('packed transitions: one derivation serves every engine', () => {
  it('derives a step of e1 once and replays it, pids renamed, for e2 in the same situation', () => {
    const { options, worldRules, objectSystem } = setUp(CASES[0]);
    const system = packedOutbox(options, worldRules, objectSystem);
    const w = objectSystem.step(objectSystem.initial(), { kind: 'produce', id: 'a' }).state;
    const s = system.layout.pack(w, system.tables);
    const picks = objectSystem.choices(w).flatMap((c) => c.events).filter((e) => e.kind === 'scan' || e.kind === 'drain');
    expect(picks.map((e) => ('pid' in e ? e.pid : 0))).toEqual([1, 2]);
    const before = system.transitions.derived;
    const out = new Int32Array(system.width);
    for (const e of picks) {
      system.transitions.run(s, system.transitions.programFor(s, e), out);
      expect(objectSystem.key(system.unpack(out))).toBe(objectSystem.key(objectSystem.step(w, e).state));
    }
    expect(system.transitions.derived - before).toBe(1);
  });

  it('refuses a step that writes a pid its key does not hold', () => {
    const { options, worldRules, objectSystem } = setUp(CASES[0]);
    // A objectSystem whose claims go to the other engine: the holder is then no placeholder of the step.
    const wrong = alterSteps(
      objectSystem,
      (e) => e.kind === 'step' && e.at === 'claiming',
      (w) => ({ ...w, claims: Object.fromEntries(Object.entries(w.claims).map(([id, c]) => [id, c.kind === 'held' ? { kind: 'held' as const, owner: 99 } : c])) }),
    );
    const system = packedOutbox(options, worldRules, wrong);
    let w = objectSystem.step(objectSystem.initial(), { kind: 'produce', id: 'a' }).state;
    w = objectSystem.step(w, firstEvent(objectSystem, w, (e) => e.kind === 'scan' || e.kind === 'drain')).state;
    const claiming = firstEvent(objectSystem, w, (e) => e.kind === 'step' && e.at === 'claiming');
    expect(() => system.transitions.programFor(system.layout.pack(w, system.tables), claiming)).toThrow(/wrote pid 99, which its key does not hold/);
  });
});

describe('packed layout', () => {
  it('unpacks to a world with the same canonical key as the one packed', () => {
    const { options, worldRules, objectSystem } = setUp(CASES[1]);
    const system = packedOutbox(options, worldRules, objectSystem);
    let w = objectSystem.initial();
    const s = new Int32Array(system.width);
    // A fixed walk through produce, engine steps, a crash and corruptions.
    for (let i = 0; i < 40; i++) {
      system.layout.pack(w, system.tables, s);
      expect(objectSystem.key(system.unpack(s))).toBe(objectSystem.key(w));
      const events = objectSystem.choices(w).flatMap((g) => g.events);
      if (events.length === 0) break;
      w = objectSystem.step(w, events[(i * 7) % events.length]).state;
    }
  });

  it('refuses a world holding an id it has no slots for, before anything is lost', () => {
    const { options, worldRules, objectSystem } = setUp(CASES[0]);
    const system = packedOutbox(options, worldRules, objectSystem);
    const w = objectSystem.initial();
    const foreign: World = { ...w, broker: { ...w.broker, 'a#0': { body: 'A', key: 'a#0' } } };
    expect(() => system.layout.pack(foreign, system.tables)).toThrow(Unrepresentable);
    expect(() => system.layout.pack(foreign, system.tables)).toThrow(/broker\["a#0"\], and "a#0" is no outbox id/);
  });
});

describe('a rule set the packed layout cannot hold', () => {
  it('envelopes filed under another id: searched on the object system instead, the same search', () => {
    const c: Case = { name: 'envelope id is the key', sizes: {}, rules: envelopeIdIsKey, statesMax: 50_000 };
    const { options, worldRules, steppers, objectSystem } = setUp(c);
    const bounds = { statesMax: c.statesMax, stopAtFirst: false };
    const r = exploreOutbox(options, worldRules, steppers, bounds);
    expect(r.explorer).toBe('objects');
    expect(r.fallback).toMatch(/holds an envelope for "a#0" while working on "a"/);
    expect(summary(r)).toEqual(summary(explore(objectSystem, bounds)));
    expect(r.violations[0]?.violation.property).toBe('no-phantom-delivery');
  });
});

/**
 * The outbox system as a {@link TransitionSystem}: its choices, steps and labels are
 * generated from the event table (`events/`, docs/faults.md); this file adds
 * the initial world, the end of faults (heal) and quiescence.
 */
import { outboxProperties } from './properties.ts';
import { schemaOf } from '../../model/schema.ts';
import { canonicalJson } from '../core/canonical.ts';
import type { ChoiceGroup, FieldBits, StepResult, TransitionSystem } from '../core/system.ts';
import { worldEncoder } from './encode.ts';
import { choicesOf, lazyChoicesOf, stepOf } from './events/choose.ts';
import type { Steppers, WorldContext, WorldRules } from './events/context.ts';
import { answerEvent, HEALTHY_ANSWER } from './events/broker.ts';
import { hasClock, later, LOOK_AHEAD_TICKS } from './events/clock.ts';
import { nextStep } from './events/engine.ts';
import { POISON_CRASH_TAG } from './events/poison.ts';
import { gonePids, oldWritesQueuedIn, stableIdsIn } from './events/process.ts';
import { sessionClaimsIn } from './events/faults.ts';
import { queuedRelease } from './queued-release.ts';
import { nothingFails, parkedOnlyOnFailure } from './nothing-fails.ts';
import { kindOf, labelOf, OWNED_SLOTS } from './events/table.ts';
import { changedFields, WORLD_FIELDS } from './events/listing-memo.ts';
import type { WorldOptions } from './options.ts';
import { newEngineProc, xstateStepper } from './stepper.ts';
import { idBody } from './id-body.ts';
import { bodyName, worldIdNames, type EngineProc, type World, type WorldEvent } from './world.ts';
import { copyWorld, emptyList } from './world-copy.ts';
import { uniformOptions } from './options-copy.ts';
import { ruleFaultOf } from '../../model/rule-fault.ts';
import { markProbe, type ProbePosition } from './probe-position.ts';

export type { Steppers, WorldRules } from './events/context.ts';

/** Whether two worlds hold the same durable parts as the same objects (then their durable parts are equal). */
function sameDurable(a: World, b: World): boolean {
  return a.records === b.records && a.claims === b.claims && a.live === b.live && a.archived === b.archived && a.quarantined === b.quarantined && a.broker === b.broker;
}

/** Whether one durable part is equal in two worlds: the same object, or the same canonical JSON. */
function samePart(a: unknown, b: unknown): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}

/**
 * Whether two worlds' durable parts (what survives every crash) are equal,
 * part by part: a JSON value is self-delimiting, so the parts' encodings are
 * all equal exactly when the encoding of the list of them is, and a part
 * that is the very same object (most are) is not encoded.
 */
function sameDurableValue(a: World, b: World): boolean {
  return (
    samePart(a.records, b.records) &&
    samePart(a.claims, b.claims) &&
    samePart(a.live, b.live) &&
    samePart(a.archived, b.archived) &&
    samePart(a.quarantined, b.quarantined) &&
    samePart(a.broker, b.broker)
  );
}

/** Rounds a world waiting for time is waited out in at the liveness bound (`waitOut`): each a pass taken or a wait. */
const WAIT_OUT_ROUNDS = 64;

/** Builds the outbox system for one world's options and rule sets. */
export function outboxSystem(
  drawn: WorldOptions,
  worldRules: WorldRules,
  steppers: Steppers = {
    new: xstateStepper(worldRules.rules),
    old: xstateStepper(worldRules.oldRules ?? worldRules.rules),
    oldQueued: xstateStepper(queuedRelease(worldRules.oldRules ?? worldRules.rules)),
  },
): TransitionSystem<World, WorldEvent> {
  // Every seed's options of one hidden class, whichever way they were drawn (options-copy.ts).
  const options = uniformOptions(drawn);
  const ids = worldIdNames(options);
  // An older version that writes QUEUED in flight runs its engines on that release's stepper (queued-release.ts).
  const ctx: WorldContext = { options, ids, skew: options.skew && worldRules.oldRules !== undefined, worldRules, steppers: oldWritesQueuedIn(options) ? { ...steppers, old: steppers.oldQueued } : steppers, sessionClaims: sessionClaimsIn(options) };
  // A world with a clock (events/clock.ts): its quiet is also judged later.
  const timed = hasClock(options);

  const initial = (): World => {
    const engines: EngineProc[] = [];
    for (let i = 0; i < options.engines; i++) {
      const version = ctx.skew && i % 2 === 0 ? 'old' : 'new';
      engines.push(newEngineProc(i + 1, version, options.attemptsMax));
    }
    // Copied field by field (copyWorld): the worlds a run makes from this one are such copies, and
    // a first world of another hidden class (a literal of fewer fields, then the owned slots spread
    // in) made every read of a world in the seed loop polymorphic.
    return copyWorld({
      records: {},
      claims: {},
      live: {},
      archived: emptyList(),
      quarantined: emptyList(),
      broker: {},
      engines,
      produced: Object.fromEntries(ids.map((id) => [id, 0])),
      published: emptyList(),
      reported: {},
      nextPid: options.engines + 1,
      nextGeneration: 1,
      crashes: 0,
      corruptions: 0,
      operatorActions: 0,
      parkedAttempts: emptyList(),
      parkedGone: emptyList(),
      healing: false,
      // Every slot a kind owns, present and undefined until the kind writes it (undefined reads,
      // encodes and prints as absent): all the worlds of a run then share one shape, and the
      // code that reads and copies worlds stays fast (a slot added later, in one order or
      // another, made some twenty shapes of world in a swarm, and every read of a world slow).
      ...UNSET_SLOTS,
    });
  };

  const choices = (w: World) => choicesOf(w, ctx);
  const step = (w: World, e: WorldEvent) => noteParkedGone(w, e, stepOf(w, e, ctx));

  /**
   * The steps of the look-ahead being re-run after a decision broke in it
   * (see {@link traced}); null otherwise, so the tests pay one test of a
   * variable per step.
   */
  let log: ProbePosition | null = null;
  /** Whether every engine is quiet at each time the look-ahead probes (clock.ts, `LOOK_AHEAD_TICKS`); each probe noted in the log when re-run. */
  const quietAhead = (w: World): boolean => {
    for (const ticks of LOOK_AHEAD_TICKS) {
      if (log !== null) log.later = ticks;
      if (!quietAt(later(w, ticks))) return false;
    }
    return true;
  };
  /** Steps `e` in the look-ahead: noted first, so that a step that breaks a decision is the log's last. */
  const probeStep = (w: World, e: WorldEvent) => {
    if (log !== null) log.events.push(e);
    return step(w, e);
  };

  /**
   * `test`, which steps passes the run has not taken: when a rule set's
   * decision breaks in it, the test is run again on the same world with
   * its steps logged, and the fault carries them (probe-position.ts), so
   * that its trace reaches the broken decision.
   */
  const traced =
    <T>(kind: ProbePosition['test'], test: (w: World) => T) =>
    (w: World): T => {
      try {
        return test(w);
      } catch (err) {
        const fault = ruleFaultOf(err);
        if (fault !== null && log === null) {
          log = { test: kind, later: 0, events: [] };
          try {
            test(w);
          } catch {
            // The same fault again (the rules are pure): the log holds the steps to it.
            markProbe(fault, log);
          } finally {
            log = null;
          }
        }
        throw err;
      }
    };

  /**
   * Quiet: every engine is idle, and no engine starting a pass now (on any
   * live file or READY record, with the broker giving its steady answer)
   * would change anything durable or POST anything: retrying forever is not
   * quiet. Decided by stepping the statechart itself.
   */
  const quiescent = traced('quiet', (w: World): boolean => {
    // Plain loops here and in quietAt, not `some`, `flatMap` and `filter` with closures: the liveness phase asks at every step.
    for (let i = 0; i < w.engines.length; i++) if (w.engines[i].state !== 'idle') return false;
    // Listed once for both questions below (the liveness phase asks at every step).
    const now = choices(w);
    // A step the world takes by itself (a POST in transit landing) will happen: not quiet until it has.
    for (let i = 0; i < now.length; i++) {
      const events = now[i].events;
      for (let k = 0; k < events.length; k++) if (kindOf(events[k]).bySelf === true) return false;
    }
    if (w.engines.length === 0) return true;
    // With a clock, quiet also later: a pass that would act once a window opens or a lease
    // expires (time runs on once faults stop) means the system is waiting, not done.
    if (!quietAt(w, now)) return false;
    return !timed || quietAhead(w);
  });

  /**
   * No engine starting a pass in `w` now would change anything durable or
   * POST anything (`listed`: `choices(w)`, when already listed). Every
   * engine is asked: idle engines are not alike. A rule may decide on the
   * pid (rules.md invites stamping one), an old and a new version run side
   * by side under version skew, and an engine restarted under its old pid
   * holds its predecessor's claims as its own (events/process.ts). Asking
   * the first engine alone called a world quiet that another engine would
   * still change (docs/properties.md, 'quiet-after-healing (liveness bound)').
   */
  const quietAt = (w: World, listed: ChoiceGroup<WorldEvent>[] = choices(w)): boolean => {
    for (let i = 0; i < w.engines.length; i++) if (!quietFor(w, listed, w.engines[i].pid)) return false;
    return true;
  };

  /** Whether engine `pid`, idle like every engine, would change nothing durable and POST nothing in any pass it could start in `w`. */
  const quietFor = (w: World, listed: ChoiceGroup<WorldEvent>[], pid: number): boolean => {
    // All engines are idle: the probe's engine events are the starts of its passes.
    const starts: WorldEvent[] = [];
    for (let i = 0; i < listed.length; i++) {
      const events = listed[i].events;
      for (let k = 0; k < events.length; k++) {
        const e = events[k];
        if ('pid' in e && e.pid === pid && kindOf(e).group === 'engine') starts.push(e);
      }
    }
    for (const start of starts) {
      // Each pass starts from `w`: the log holds the one being walked.
      if (log !== null) log.events.length = 0;
      const ended = endPass(probeStep(w, start).state, pid);
      if (ended === null) return false;
      if (sameDurable(ended, w)) continue;
      if (!sameDurableValue(ended, w)) return false;
    }
    return true;
  };

  /**
   * Engine `pid`'s pass in `w` walked on until the engine is idle (at most
   * 32 steps), the broker giving its steady answer: the world then, or null
   * when a step POSTs. The quiet test walks each pass it could start so, and
   * `settle` each pass under way. A step in which a poison body kills the
   * engine counts as a POST here.
   */
  const endPass = (w: World, pid: number): World | null => {
    let cur = w;
    for (let i = 0; i < 32; i++) {
      const p = cur.engines.find((x) => x.pid === pid);
      if (p === undefined || p.state === 'idle') break;
      const out = probeStep(cur, p.state === 'posting' ? answerEvent(p.pid, options.healAnswer) : nextStep(p));
      // A pass that ends in a poison body's crash is a crash loop, not quiet (as one that POSTs is not).
      if (out.tags.includes('layer:post') || out.tags.includes(POISON_CRASH_TAG)) return null;
      cur = out.state;
    }
    return cur;
  };

  /**
   * `w` once every engine's pass under way ends, when no step of those
   * passes POSTs or changes anything durable; null otherwise
   * (`TransitionSystem.settle`).
   */
  const settle = traced('settle', (w: World): World | null => {
    let cur = w;
    for (const busy of w.engines) {
      if (busy.state === 'idle') continue;
      const next = endPass(cur, busy.pid);
      if (next === null || next.engines.some((x) => x.pid === busy.pid && x.state !== 'idle')) return null;
      if (!sameDurable(next, cur) && !sameDurableValue(next, cur)) return null;
      cur = next;
    }
    return cur;
  });

  /**
   * Quiet now (every engine idle, no pass would act at the clock's present
   * reading) but not quiet later: a window opens or a lease expires. With a
   * clock the world's own quiet test looks later (and waits for a POST in
   * transit); without one, time stands still and only this probe looks, so
   * that such a world's liveness is left to the worlds with a clock
   * (docs/rules.md, 'Time').
   */
  const waitsForTime = traced('quiet', (w: World): boolean => {
    if (w.engines.length === 0 || w.engines.some((p) => p.state !== 'idle') || !quietAt(w)) return false;
    return timed ? !quiescent(w) : !quietAhead(w);
  });

  /**
   * Engine `pid`'s pass walked to its end as {@link endPass} walks it, its
   * POST taken with the broker's steady answer: the world then, or null
   * when a poison body kills the engine or the pass does not end within 32
   * steps.
   */
  const walkPass = (w: World, pid: number): World | null => {
    let cur = w;
    for (let i = 0; i < 32; i++) {
      const p = cur.engines.find((x) => x.pid === pid);
      if (p === undefined) return null;
      if (p.state === 'idle') return cur;
      const out = probeStep(cur, p.state === 'posting' ? answerEvent(p.pid, options.healAnswer) : nextStep(p));
      if (out.tags.includes(POISON_CRASH_TAG)) return null;
      cur = out.state;
    }
    return null;
  };

  /** The first pass an idle engine could start in `w` that changes anything durable or POSTs, walked to its end ({@link walkPass}); null when none does, or one breaks off. */
  const actingPass = (w: World): World | null => {
    const listed = choices(w);
    for (const proc of w.engines) {
      for (let i = 0; i < listed.length; i++) {
        for (const start of listed[i].events) {
          if (!('pid' in start) || start.pid !== proc.pid || kindOf(start).group !== 'engine') continue;
          const walked = walkPass(probeStep(w, start).state, proc.pid);
          if (walked === null) return null;
          if (!sameDurable(walked, w) && !sameDurableValue(walked, w)) return walked;
        }
      }
    }
    return null;
  };

  /**
   * `TransitionSystem.waitOut`: the world at the liveness phase's bound
   * waited out, as the phase would have gone on. Round by round (at most
   * {@link WAIT_OUT_ROUNDS}): quiet, it is the answer; a pass under way is
   * walked to its end, a landing taken; a pass acts now, the first such is
   * taken; every pass waits, the clock moves on to the nearest look-ahead
   * at which one acts
   * (`LOOK_AHEAD_TICKS`: a schedule the liveness phase's long waits would
   * have taken, given steps). A back-off of seven days in milliseconds was
   * reported retrying for ever: its 400 steps were spent on passes that
   * changed nothing, and the clock reached 5.9 days. A rule that retries for
   * ever still acts after every round: null, busy as before.
   */
  const waitOut = traced('quiet', (w: World): World | null => {
    if (!timed) return null;
    let cur = w;
    for (let round = 0; round < WAIT_OUT_ROUNDS; round++) {
      if (quiescent(cur)) return cur;
      // A pass under way is walked to its end; a step the world takes by itself (a landing) is taken.
      const busy = cur.engines.find((p) => p.state !== 'idle');
      if (busy !== undefined) {
        const next = walkPass(cur, busy.pid);
        if (next === null) return null;
        cur = next;
        continue;
      }
      const bySelf = choices(cur).flatMap((g) => g.events).find((e) => kindOf(e).bySelf === true);
      if (bySelf !== undefined) {
        cur = probeStep(cur, bySelf).state;
        continue;
      }
      if (!quietAt(cur)) {
        const next = actingPass(cur);
        if (next === null) return null;
        cur = next;
        continue;
      }
      const ticks = LOOK_AHEAD_TICKS.find((t) => !quietAt(later(cur, t)));
      if (ticks === undefined) return null;
      cur = later(cur, ticks);
    }
    return null;
  });

  // Under stable identities an engine comes back under the name of one that is gone, at healing too (events/process.ts).
  const stable = stableIdsIn(options);
  const heal = (w: World): World => {
    const engines = [...w.engines];
    let nextPid = w.nextPid;
    if (stable) for (const pid of gonePids(w)) if (engines.length < options.engines) engines.push(newEngineProc(pid, 'new', options.attemptsMax));
    while (engines.length < options.engines) engines.push(newEngineProc(nextPid++, 'new', options.attemptsMax));
    const healed = copyWorld(w);
    healed.engines = engines;
    healed.nextPid = nextPid;
    healed.healing = true;
    return healed;
  };

  const system: TransitionSystem<World, WorldEvent> = {
    initial,
    choices,
    step,
    label: labelOf,
    key: worldEncoder(ids),
    // A world where nothing fails judges parks too (nothing-fails.ts).
    properties: [...outboxProperties(options.atMostOnce === true, schemaOf(worldRules.rules), writtenBodies(ids, options)), ...(nothingFails(options, HEALTHY_ANSWER) ? [parkedOnlyOnFailure] : [])],
    heal,
    quiescent,
    settle,
    waitOut,
    groups: lazyChoicesOf(ctx),
    waitsForTime,
    ...(WORLD_BITS !== null ? { fieldBits: WORLD_BITS } : {}),
  };
  return system;
}

/** The bodies the producer writes for each id, in order (events/producer.ts): what delivered-as-written compares the broker with. */
function writtenBodies(ids: readonly string[], options: WorldOptions): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i < ids.length; i++) {
    const bodies: string[] = [];
    for (let k = 0; k < options.bodiesPerId; k++) bodies.push(bodyName(i, k, options.bodiesPerId, options.sameBodies === true, options.bodyShape));
    out[ids[i]] = bodies;
  }
  return out;
}

/**
 * The world's fields as bits for the seed runner's property checks: each
 * field compared written out (`changedFields`), not read by name from a list.
 * Null for a world of more than 31 fields (the runner then compares by name).
 */
const WORLD_BITS: FieldBits<World> | null =
  WORLD_FIELDS.length <= 31 ? { bitOf: (f) => (WORLD_FIELDS.includes(f) ? 1 << WORLD_FIELDS.indexOf(f) : 0), changed: changedFields } : null;

/** The slots the table's kinds own, each undefined (see `initial`). */
const UNSET_SLOTS: Partial<World> = Object.fromEntries(OWNED_SLOTS.map((slot) => [slot, undefined]));

/**
 * A PARKED record replaced other than by an operator's requeue (a fresh
 * cycle, a rebuilt or torn record) leaves its body parked: noted in
 * `parkedGone`, so that parked-stays-parked holds per body, not only while
 * the record says PARKED.
 */
function noteParkedGone(w: World, e: WorldEvent, out: StepResult<World>): StepResult<World> {
  // The same records object: no record was replaced (most steps; the loop below would find nothing).
  if (out.state.records === w.records) return out;
  let gone: string[] | null = null;
  // Every step comes here: the ids in Object.keys order, without listing them.
  const records = w.records;
  for (const id in records) {
    const before = records[id];
    // A PARKED record without payload (a tombstone the retention sweeper left) names no body to note.
    if (before.kind !== 'record' || before.record.status !== 'PARKED' || typeof before.record.payload !== 'string') continue;
    const after = out.state.records[id];
    if (after === before || (after?.kind === 'record' && after.record.status === 'PARKED' && after.record.payload === before.record.payload)) continue;
    const item = idBody(id, before.record.payload);
    if (out.state.parkedGone.includes(item) || gone?.includes(item)) continue;
    gone = [...(gone ?? []), item];
  }
  // Looked up only when a park was replaced (rare): every step comes here.
  if (gone === null || kindOf(e).releasesPark === true) return out;
  const state = copyWorld(out.state);
  state.parkedGone = [...out.state.parkedGone, ...gone].sort();
  // Written out as stepOf writes its result (not `{ ...out, state }`, an object of another hidden
  // class): the seed loop reads every step's result, and a second class there deoptimised it.
  return { state, tags: out.tags };
}

/**
 * The outbox world as a {@link PackedSystem}: what `explore` searches when it
 * runs fast. Its transitions are derived from the object system
 * ({@link PackedTransitions}); its enabled events are listed straight off the
 * vector in the object system's order; its properties are the object system's
 * own, checked on the slots each property reads (`properties.ts`). With `verify` every event
 * list, step and verdict is also computed the slow way and compared (the
 * differential tests run whole searches so).
 */
import { readSlot } from '../../../model/record.ts';
import { holdsPostLegacyField, schemaOf } from '../../../model/schema.ts';
import { selects } from '../../../model/rules.ts';
import { canonicalJson } from '../../core/canonical.ts';
import type { PackedSystem, SuccessorSink } from '../../core/explore-packed.ts';
import type { TransitionSystem } from '../../core/system.ts';
import { PairTable } from '../../core/pair-table.ts';
import { TupleTable } from '../../core/tuple-table.ts';
import type { WorldRules } from '../outbox-system.ts';
import { answerOffered, ANSWERS, FAULTS, type FaultName, type WorldOptions } from '../options.ts';
import { idNames, type EngineProc, type World, type WorldEvent } from '../world.ts';
import { EVENT_KINDS } from '../events/table.ts';
import * as L from './layout.ts';
import { PackedLayout, PackedTables, Unrepresentable } from './layout.ts';
import { MemoProperty } from './properties.ts';
import { PackedTransitions } from './transitions.ts';

// Slot positions copied to module constants (see transitions.ts).
const { BROKER, CLAIM, CORRUPTIONS, CRASHES, ENGINE_COUNT, ENGINES, HEALING, LIVE, OPERATOR, PER_ID, PRODUCED, QUARANTINED, REC } = L;

/** One engine's enabled events (engine steps and broker answers) and their programs. */
interface EngineExpansion {
  engine: WorldEvent[];
  broker: WorldEvent[];
  /** The engine's crash, when crashes are still allowed. */
  crash: WorldEvent[];
  enginePrograms: Int32Array[];
  brokerPrograms: Int32Array[];
  crashPrograms: Int32Array[];
}

/**
 * The kinds of the event table this file lists by hand (`listEngine`,
 * `middleEvents`, `lastEvents`), for speed; `table-agreement.test.ts` holds
 * each to its table entry. A world that enables a kind not listed here is
 * {@link Unrepresentable}: it is searched on the object system, which takes
 * every kind from the table, so a new kind is searched correctly, if slower,
 * before anyone specialises it here.
 */
export const PACKED_KINDS: ReadonlySet<string> = new Set([
  'scan',
  'drain',
  'step',
  ...ANSWERS,
  'restart',
  'upgrade',
  'produce',
  'requeue',
  'requeue-reset',
  'resubmit',
  'restore',
  'crash',
  'tear-record',
  'newer-schema',
  'legacy-record',
  'tear-claim',
]);

/** Options of a packed outbox system. */
export interface PackedOptions {
  /** Compute everything also through the object system and throw on any difference (tests). */
  verify?: boolean;
}

/** The packed outbox system with the object system it was derived from. */
export interface PackedOutbox extends PackedSystem<WorldEvent> {
  layout: PackedLayout;
  tables: PackedTables;
  transitions: PackedTransitions;
  unpack(s: Int32Array): World;
}

export function packedOutbox(
  options: WorldOptions,
  worldRules: WorldRules,
  objectSystem: TransitionSystem<World, WorldEvent>,
  packed: PackedOptions = {},
): PackedOutbox {
  const ids = idNames(options.ids);
  for (const k of EVENT_KINDS) {
    if (!PACKED_KINDS.has(k.name) && (k.knob === null || k.knob.weight(options) > 0)) {
      throw new Unrepresentable(`the packed explorer does not list the events of kind ${k.name}, which this world enables`);
    }
  }
  // An engine's context holds one bit per id (see `contextOf`).
  if (ids.length > 30) throw new Error(`packed outbox: at most 30 ids (${ids.length} given)`);
  const skew = options.skew && worldRules.oldRules !== undefined;
  const layout = new PackedLayout(ids, options.engines);
  const tables = new PackedTables();
  const transitions = new PackedTransitions(layout, tables, objectSystem);
  const g = layout.globals;
  const always = objectSystem.properties.filter((p) => p.kind === 'always').map((p) => new MemoProperty(p, layout, tables));
  const schemaKnown = { new: worldRules.rules.schemaKnown, old: (worldRules.oldRules ?? worldRules.rules).schemaKnown };
  const shapes = { new: worldRules.rules.recordShape, old: (worldRules.oldRules ?? worldRules.rules).recordShape };
  const schemas = { new: schemaOf(worldRules.rules), old: schemaOf(worldRules.oldRules ?? worldRules.rules) };
  const crashOn = options.faultWeights[FAULTS.indexOf('crash')] > 0;
  const faultOn = (k: FaultName) => options.faultWeights[FAULTS.indexOf(k)] > 0;

  // Event objects are made once and shared, so listing the enabled events allocates one array.
  const eventCache = new Map<number, WorldEvent>();
  const cached = (code: number, make: () => WorldEvent): WorldEvent => {
    let e = eventCache.get(code);
    if (e === undefined) {
      e = make();
      eventCache.set(code, e);
    }
    return e;
  };
  const ev = (kind: number, pid: number, sub: number) => kind * 2 ** 24 + pid * 2 ** 8 + sub;
  const STATES = ['idle', 'claiming', 'preSend', 'posting', 'completing', 'releasing', 'disposing'] as const;

  /**
   * Whether an engine would drain a record slot: it reads as a READY record its
   * rule set selects. Without `selectable` that depends on the version only; with
   * it, on the engine (its decision is told the pid), so the memo is per engine.
   */
  const drainable = new PairTable();
  const rulesFor = { new: worldRules.rules, old: worldRules.oldRules ?? worldRules.rules };
  const readyFor = (recId: number, proc: EngineProc, j: number): boolean => {
    const version = proc.version;
    const rules = rulesFor[version];
    // The decision is told the id and the pid: both are in the key (at most 30 ids).
    const k = ((rules.selectable === undefined ? 0 : proc.pid) * 32 + j) * 2 + (version === 'old' ? 1 : 0);
    let r = drainable.get(recId, k);
    if (r < 0) {
      const read = readSlot(tables.records.value(recId), schemaKnown[version], shapes[version], schemas[version]);
      const who = { pid: proc.pid, rules: rules.name, schema: rules.schemaKnown };
      r = read.kind === 'found' && selects(rules, read.record, { id: ids[j], who }) ? 1 : 0;
      drainable.set(recId, k, r);
    }
    return r === 1;
  };

  const listEngine = (s: Int32Array, proc: EngineProc, engineEvents: WorldEvent[], brokerEvents: WorldEvent[]): void => {
    const pid = proc.pid;
    if (proc.state === 'idle') {
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        if (s[j * PER_ID + LIVE] !== 0) engineEvents.push(cached(ev(0, pid, j), () => ({ kind: 'scan', pid, id })));
        else if (readyFor(s[j * PER_ID + REC], proc, j)) engineEvents.push(cached(ev(1, pid, j), () => ({ kind: 'drain', pid, id })));
      }
    } else if (proc.state === 'posting') {
      const healing = s[g + HEALING] === 1;
      for (let i = 0; i < ANSWERS.length; i++) {
        const answer = ANSWERS[i];
        if (!answerOffered(options, answer, healing, s[g + CRASHES])) continue;
        brokerEvents.push(cached(ev(2, pid, i), () => ({ kind: 'answer', pid, answer })));
      }
    } else {
      const at = proc.state;
      engineEvents.push(cached(ev(3, pid, STATES.indexOf(at)), () => ({ kind: 'step', pid, at })));
    }
  };

  /**
   * One engine's events and their programs depend only on its process, the
   * slots of the ids it may touch, whether the claims' holders are alive, and
   * a few world-wide slots: memoised on those (`expansionMemo`). In front of
   * that memo, the engine's process and its context (see `contextOf` below,
   * one per state) find the expansion in one probe of a small table, so a
   * state with several engines costs one pair lookup per engine.
   */
  const expansionMemo = new TupleTable();
  const expansions: EngineExpansion[] = [];
  const engineKey = new Int32Array(8 + ids.length * (PER_ID + 1));
  const expansionKey = (s: Int32Array, proc: EngineProc, procId: number): number => {
    let n = 0;
    engineKey[n++] = procId;
    engineKey[n++] = s[g + HEALING];
    engineKey[n++] = s[g + CRASHES] < options.crashesMax ? 1 : 0;
    const only = proc.state === 'idle' || proc.ctx.id === null ? -1 : ids.indexOf(proc.ctx.id);
    for (let j = 0; j < ids.length; j++) {
      if (only >= 0 && j !== only) continue;
      // What the engine's events read of the id (see PackedTransitions.buildKey).
      engineKey[n++] = s[j * PER_ID + REC];
      engineKey[n++] = s[j * PER_ID + CLAIM];
      engineKey[n++] = s[j * PER_ID + LIVE];
      if (proc.state === 'posting') engineKey[n++] = s[j * PER_ID + BROKER];
      engineKey[n++] = transitions.holderAlive(s, j);
    }
    // A broker answer notes a POST of a body parked and replaced since (parked-stays-parked per body).
    if (proc.state === 'posting') engineKey[n++] = s[g + L.PARKED_GONE];
    return n;
  };
  const expansionOfKey = (s: Int32Array, procId: number): number => {
    const proc = tables.procs.value(procId);
    if (proc === undefined) throw new Error('packed outbox: empty engine slot');
    const n = expansionKey(s, proc, procId);
    let x = expansionMemo.find(engineKey, n);
    if (x >= 0) return x;
    const engine: WorldEvent[] = [];
    const broker: WorldEvent[] = [];
    listEngine(s, proc, engine, broker);
    const crash: WorldEvent[] = [];
    if (s[g + CRASHES] < options.crashesMax && crashOn) {
      const { pid, state: at } = proc;
      crash.push(cached(ev(9, pid, STATES.indexOf(at)), () => ({ kind: 'crash', pid, at })));
    }
    x = expansionMemo.add(engineKey, n);
    expansions[x] = {
      engine,
      broker,
      crash,
      enginePrograms: engine.map((e) => transitions.programFor(s, e)),
      brokerPrograms: broker.map((e) => transitions.programFor(s, e)),
      crashPrograms: crash.map((e) => transitions.programFor(s, e)),
    };
    return x;
  };

  /**
   * A state's prefix: every slot before the engines (per id slots, lists,
   * counters, the engine count). Few states differ in it (thousands of
   * prefixes for millions of states), so it indexes what depends on nothing
   * else: the events that are not an engine's, and engines' contexts.
   */
  const prefixWidth = g + ENGINES;
  const prefixes = new TupleTable();
  const lastPrefix = new Int32Array(prefixWidth);
  let lastPrefixIndex = -1;
  const prefixOf = (s: Int32Array): number => {
    // States expanded one after another mostly share their prefix.
    let same = lastPrefixIndex >= 0;
    for (let i = 0; same && i < prefixWidth; i++) same = lastPrefix[i] === s[i];
    if (same) return lastPrefixIndex;
    let x = prefixes.find(s, prefixWidth);
    if (x < 0) x = prefixes.add(s, prefixWidth);
    for (let i = 0; i < prefixWidth; i++) lastPrefix[i] = s[i];
    lastPrefixIndex = x;
    return x;
  };

  /**
   * What of a prefix any engine reads: healing, whether crashes are left,
   * the bodies parked and replaced since (a broker answer to a POST of one
   * is noted for parked-stays-parked, so its cached program depends on them),
   * and per id the record, claim, live file and broker's holding. Prefixes
   * that differ elsewhere (counts produced, reported bodies, lists) share
   * it, which keeps the engines' tables small.
   */
  const engineViews = new TupleTable();
  const engineViewOf: number[] = [];
  const engineViewKey = new Int32Array(3 + 4 * ids.length);
  const engineView = (s: Int32Array, prefix: number): number => {
    let v = engineViewOf[prefix];
    if (v === undefined) {
      let n = 0;
      engineViewKey[n++] = s[g + HEALING];
      engineViewKey[n++] = s[g + CRASHES] < options.crashesMax ? 1 : 0;
      engineViewKey[n++] = s[g + L.PARKED_GONE];
      for (let j = 0; j < ids.length; j++) {
        const o = j * PER_ID;
        engineViewKey[n++] = s[o + REC];
        engineViewKey[n++] = s[o + CLAIM];
        engineViewKey[n++] = s[o + LIVE];
        engineViewKey[n++] = s[o + BROKER];
      }
      v = engineViews.find(engineViewKey, n);
      if (v < 0) v = engineViews.add(engineViewKey, n);
      engineViewOf[prefix] = v;
    }
    return v;
  };

  /**
   * An engine's context: its view of the prefix, and for each id whether
   * its claim's holder is alive (all an engine sees of the others). With the
   * engine's process it finds the engine's expansion in one probe of a small
   * table.
   */
  const contexts = new PairTable();
  let lastContextView = -1;
  let lastAlive = 0;
  let lastContextId = -1;
  const contextOf = (s: Int32Array, prefix: number): number => {
    const view = engineView(s, prefix);
    let alive = 0;
    for (let j = 0; j < ids.length; j++) alive = alive * 2 + transitions.holderAlive(s, j);
    if (view === lastContextView && alive === lastAlive) return lastContextId;
    let c = contexts.get(view, alive);
    if (c < 0) contexts.set(view, alive, (c = contexts.size));
    lastContextView = view;
    lastAlive = alive;
    return (lastContextId = c);
  };
  const byContext = new PairTable();
  /** Engine k's expansion in `s`, whose context is `context`. */
  const expansionOf = (s: Int32Array, k: number, context: number): EngineExpansion => {
    const procId = s[g + ENGINES + k];
    let x = byContext.get(procId, context);
    if (x < 0) {
      x = expansionOfKey(s, procId);
      byContext.set(procId, context, x);
    }
    return expansions[x];
  };

  /** Events after the broker answers and before the crashes, in the object system's order. */
  const middleEvents = (s: Int32Array, out: WorldEvent[]): void => {
    const healing = s[g + HEALING] === 1;
    const count = s[g + ENGINE_COUNT];
    if (count < options.engines) {
      out.push(cached(ev(4, 0, 0), () => ({ kind: 'restart', version: 'new' })));
      if (skew && !healing) out.push(cached(ev(4, 0, 1), () => ({ kind: 'restart', version: 'old' })));
    }
    if (healing) return;
    if (skew) {
      for (let k = 0; k < count; k++) {
        const proc = tables.procs.value(s[g + ENGINES + k]);
        if (proc?.version === 'old') {
          const pid = proc.pid;
          out.push(cached(ev(5, pid, 0), () => ({ kind: 'upgrade', pid })));
        }
      }
    }
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j];
      if ((tables.numbers.value(s[j * PER_ID + PRODUCED]) ?? 0) < options.bodiesPerId) out.push(cached(ev(6, 0, j), () => ({ kind: 'produce', id })));
    }
    if (s[g + OPERATOR] < options.operatorActionsMax) {
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        const slot = tables.records.value(s[j * PER_ID + REC]);
        // As events/operator.ts: each action once per deployed version's tool (the old one's under skew).
        if (slot?.kind === 'record' && slot.record.status === 'PARKED') {
          out.push(cached(ev(7, 0, 2 * j), () => ({ kind: 'requeue', id, reset: false })));
          if (skew) out.push(cached(ev(7, 1, 2 * j), () => ({ kind: 'requeue', id, reset: false, version: 'old' })));
          out.push(cached(ev(7, 0, 2 * j + 1), () => ({ kind: 'requeue', id, reset: true })));
          if (skew) out.push(cached(ev(7, 1, 2 * j + 1), () => ({ kind: 'requeue', id, reset: true, version: 'old' })));
        }
        if (slot?.kind === 'record' && slot.record.status === 'READY') {
          out.push(cached(ev(14, 0, j), () => ({ kind: 'resubmit', id })));
          if (skew) out.push(cached(ev(14, 1, j), () => ({ kind: 'resubmit', id, version: 'old' })));
        }
      }
      const quarantined = tables.quarantineLists.value(s[g + QUARANTINED]) ?? [];
      quarantined.forEach((q, index) => {
        if (s[ids.indexOf(q.id) * PER_ID + LIVE] === 0) out.push(cached(ev(8, 0, index), () => ({ kind: 'restore', index })));
      });
    }
  };

  /** Events after the crashes: corruptions. */
  const lastEvents = (s: Int32Array, out: WorldEvent[]): void => {
    if (s[g + HEALING] === 1) return;
    if (s[g + CORRUPTIONS] < options.corruptionsMax) {
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        const slot = tables.records.value(s[j * PER_ID + REC]);
        if (slot?.kind === 'record') {
          if (faultOn('tear-record')) out.push(cached(ev(10, 0, j), () => ({ kind: 'tear-record', id })));
          if (slot.record.schema <= 1 && faultOn('newer-schema')) out.push(cached(ev(11, 0, j), () => ({ kind: 'newer-schema', id })));
          if (holdsPostLegacyField(slot.record, schemas.new) && faultOn('legacy-record')) out.push(cached(ev(12, 0, j), () => ({ kind: 'legacy-record', id })));
        }
        if (tables.claims.value(s[j * PER_ID + CLAIM])?.kind === 'held' && faultOn('tear-claim')) {
          out.push(cached(ev(13, 0, j), () => ({ kind: 'tear-claim', id })));
        }
      }
    }
  };

  /**
   * The enabled events in the object system's order: engine steps, broker
   * answers, restarts to operator actions, crashes, corruptions. `expand`
   * below walks the same order with programs in hand; written twice because
   * a shared walker with a callback per event measured about 7% slower on
   * the hottest path. Verify mode checks each against the object system.
   */
  const events = (s: Int32Array): WorldEvent[] => {
    const count = s[g + ENGINE_COUNT];
    const context = contextOf(s, prefixOf(s));
    const out: WorldEvent[] = [];
    for (let k = 0; k < count; k++) for (const e of expansionOf(s, k, context).engine) out.push(e);
    for (let k = 0; k < count; k++) for (const e of expansionOf(s, k, context).broker) out.push(e);
    middleEvents(s, out);
    if (s[g + HEALING] === 0) for (let k = 0; k < count; k++) for (const e of expansionOf(s, k, context).crash) out.push(e);
    lastEvents(s, out);
    return out;
  };

  /**
   * The events that are not an engine's (restarts to operator actions, and
   * corruptions) and their programs read nothing of the engines but their
   * count, and under version skew their versions: without skew they are
   * memoised on the prefix.
   */
  const prefixPrograms: ({ middle: Int32Array[]; last: Int32Array[] } | undefined)[] = [];
  const rest: WorldEvent[] = [];
  const programsOf = (s: Int32Array, list: (s: Int32Array, out: WorldEvent[]) => void): Int32Array[] => {
    rest.length = 0;
    list(s, rest);
    return rest.map((e) => transitions.programFor(s, e));
  };
  // An operator action also reads whether each claim's holder is alive (its `requeue` decision sees the
  // claim): with operator actions the memo is on the prefix and those bits.
  const byAlive = new PairTable();
  const memoIndex = (s: Int32Array, prefix: number): number => {
    if (options.operatorActionsMax === 0) return prefix;
    let alive = 0;
    for (let j = 0; j < ids.length; j++) alive = alive * 2 + transitions.holderAlive(s, j);
    let x = byAlive.get(prefix, alive);
    if (x < 0) byAlive.set(prefix, alive, (x = byAlive.size));
    return x;
  };
  const programsOfPrefix = (s: Int32Array, prefix: number): { middle: Int32Array[]; last: Int32Array[] } =>
    (prefixPrograms[memoIndex(s, prefix)] ??= { middle: programsOf(s, middleEvents), last: programsOf(s, lastEvents) });

  const scratch: EngineExpansion[] = [];
  /** Writes every successor of `s` to the sink in `events` order; stops when `take` returns true. */
  const expand = (s: Int32Array, sink: SuccessorSink): void => {
    const count = s[g + ENGINE_COUNT];
    const prefix = prefixOf(s);
    const context = contextOf(s, prefix);
    let i = 0;
    for (let k = 0; k < count; k++) {
      const x = expansionOf(s, k, context);
      scratch[k] = x;
      for (const p of x.enginePrograms) {
        transitions.run(s, p, sink.out, g + ENGINES + k);
        if (sink.take(i++)) return;
      }
    }
    for (let k = 0; k < count; k++) {
      for (const p of scratch[k].brokerPrograms) {
        transitions.run(s, p, sink.out, g + ENGINES + k);
        if (sink.take(i++)) return;
      }
    }
    const programs = skew ? null : programsOfPrefix(s, prefix);
    const middle = programs?.middle ?? programsOf(s, middleEvents);
    for (const p of middle) {
      transitions.run(s, p, sink.out);
      if (sink.take(i++)) return;
    }
    if (s[g + HEALING] === 1) return;
    for (let k = 0; k < count; k++) {
      for (const p of scratch[k].crashPrograms) {
        transitions.run(s, p, sink.out);
        if (sink.take(i++)) return;
      }
    }
    const last = programs?.last ?? programsOf(s, lastEvents);
    for (const p of last) {
      transitions.run(s, p, sink.out);
      if (sink.take(i++)) return;
    }
  };

  const unpack = (s: Int32Array): World => layout.unpack(s, tables);
  const differ = (what: string, fast: unknown, slow: unknown): never => {
    throw new Error(`packed outbox differs from the object system in ${what}: ${canonicalJson(fast)} against ${canonicalJson(slow)}`);
  };

  /** Throws unless `out` is the object system's step of `e` from `s`. */
  const verifyStep = (s: Int32Array, e: WorldEvent, out: Int32Array): void => {
    const slow = objectSystem.key(objectSystem.step(unpack(s), e).state);
    const fast = objectSystem.key(unpack(out));
    if (fast !== slow) differ(`the step ${JSON.stringify(e)}`, fast, slow);
  };

  const system: PackedOutbox = {
    width: layout.width,
    layout,
    tables,
    transitions,
    unpack,
    always: always.map((p) => p.property.name),
    initial(out) {
      layout.pack(objectSystem.initial(), tables, out);
    },
    events(s) {
      const fast = events(s);
      if (packed.verify) {
        const slow = objectSystem.choices(unpack(s)).flatMap((c) => c.events);
        if (canonicalJson(fast) !== canonicalJson(slow)) differ('enabled events', fast, slow);
      }
      return fast;
    },
    expand(s, sink) {
      if (!packed.verify) return expand(s, sink);
      const list = system.events(s);
      const checked: SuccessorSink = {
        out: sink.out,
        take(i) {
          verifyStep(s, list[i], checked.out);
          const stop = sink.take(i);
          checked.out = sink.out;
          return stop;
        },
      };
      expand(s, checked);
    },
    apply(s, e, out) {
      transitions.apply(s, e, out);
      if (packed.verify) verifyStep(s, e, out);
    },
    check(s, p, changed) {
      const v = always[p].check(s, changed);
      if (packed.verify) {
        const slow = always[p].property.check(unpack(s));
        if (canonicalJson(v) !== canonicalJson(slow)) differ(`the verdict of ${always[p].property.name}`, v, slow);
      }
      return v;
    },
  };
  return system;
}

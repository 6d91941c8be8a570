/**
 * The expansion cache: one engine's enabled events and their programs depend
 * only on its process, the slots of the ids it may touch, whether the
 * claims' holders are alive, and a few world-wide slots, so they are
 * memoised on those. In front of that memo, the engine's process and its
 * context (one per state: its view of the state's prefix and the holders'
 * liveness) find the expansion in one probe of a small table, so a state
 * with several engines costs one pair lookup per engine.
 */
import { dedupesByKey } from '../../../model/broker.ts';
import { PairTable } from '../../core/pair-table.ts';
import { TupleTable } from '../../core/tuple-table.ts';
import type { WorldEvent } from '../world.ts';
import type { PackedContext } from './context.ts';
import type { EngineEvents } from './engine-events.ts';
import * as L from './layout.ts';
import { programsOf, sparseInts } from './arrays.ts';
import { kindOn } from './kinds.ts';
import { emptyList } from '../world-copy.ts';

// Slot positions copied to module constants (see transitions.ts).
const { BROKER, CLAIM, CRASHES, ENGINES, HEALING, LIVE, PARKED_GONE, PER_ID, REC } = L;

/** One engine's enabled events (engine steps and broker answers) and their programs. */
export interface EngineExpansion {
  engine: WorldEvent[];
  broker: WorldEvent[];
  /** The engine's crash, when crashes are still allowed. */
  crash: WorldEvent[];
  enginePrograms: Int32Array[];
  brokerPrograms: Int32Array[];
  crashPrograms: Int32Array[];
}

/** Empty lists shared by every expansion with nothing in one (never written to). */
const NO_EVENTS: WorldEvent[] = emptyList();
const NO_PROGRAMS: Int32Array[] = emptyList();

export interface Expansions {
  /**
   * A state's prefix: every slot before the engines (per id slots, lists,
   * counters, the engine count). Few states differ in it (thousands of
   * prefixes for millions of states), so it indexes what depends on nothing
   * else: the events that are not an engine's, and engines' contexts.
   */
  prefixOf(s: Int32Array): number;
  /** The engines' context in `s` (whose prefix is `prefix`). */
  contextOf(s: Int32Array, prefix: number): number;
  /** Engine k's expansion in `s`, whose context is `context`. */
  expansionOf(s: Int32Array, k: number, context: number): EngineExpansion;
}

export function expansions(c: PackedContext, listing: EngineEvents): Expansions {
  const { options, ids, tables, transitions, g } = c;

  /** The programs of `events`, in order (a loop, not `map`: see `programsOf` in arrays.ts). */
  const programsFor = (s: Int32Array, events: WorldEvent[]): Int32Array[] => (events.length === 0 ? NO_PROGRAMS : programsOf(transitions, s, events));
  // Poison bodies (events/poison.ts): an engine's step into the POST of one is its crash and restart.
  const poisonOn = kindOn(options, 'poison');
  const expansionMemo = new TupleTable();
  const expanded: EngineExpansion[] = emptyList();
  const engineKey = new Int32Array(12 + ids.length * (PER_ID + 1));
  const expansionKey = (s: Int32Array, procId: number): number => {
    const proc = tables.procs.value(procId);
    if (proc === undefined) throw new Error('packed outbox: empty engine slot');
    let n = 0;
    engineKey[n++] = procId;
    engineKey[n++] = s[g + HEALING];
    engineKey[n++] = s[g + CRASHES] < options.crashesMax ? 1 : 0;
    // The clock (0 without one): every engine step is told the time.
    engineKey[n++] = s[g + L.CLOCK];
    const only = proc.state === 'idle' || proc.ctx.id === null ? -1 : ids.indexOf(proc.ctx.id);
    // A scan, or a disposal, that quarantines with a cause that says not delivered reads the broker's holding (honest-park,
    // events/engine-step.ts; transitions.ts keys it): an idle engine's scans, of every id, and a disposing engine's file.
    const disposing = proc.state === 'disposing' && proc.ctx.file !== null ? ids.indexOf(proc.ctx.file.id) : -1;
    if (disposing >= 0 && disposing !== only) engineKey[n++] = s[disposing * PER_ID + BROKER];
    // A broker deduping by key knows keys across ids (events/broker-keys.ts): its answers read every id's holding.
    const allHoldings = proc.state === 'posting' && dedupesByKey(options.broker);
    for (let j = 0; j < ids.length; j++) {
      if (only >= 0 && j !== only) {
        if (allHoldings) engineKey[n++] = s[j * PER_ID + BROKER];
        continue;
      }
      // What the engine's events read of the id (see PackedTransitions.buildKey).
      engineKey[n++] = s[j * PER_ID + REC];
      engineKey[n++] = s[j * PER_ID + CLAIM];
      engineKey[n++] = s[j * PER_ID + LIVE];
      if (proc.state === 'posting' || proc.state === 'idle' || j === disposing) engineKey[n++] = s[j * PER_ID + BROKER];
      engineKey[n++] = transitions.holderAlive(s, j);
    }
    // A broker answer notes a POST of a body parked and replaced since (parked-stays-parked per body).
    if (proc.state === 'posting') engineKey[n++] = s[g + PARKED_GONE];
    // Late landing's answer is offered while the POSTs in transit are fewer than the bound, and appends to them.
    if (proc.state === 'posting') engineKey[n++] = s[g + L.IN_TRANSIT];
    // Under a dedupe window an answer ages the broker's memory.
    if (proc.state === 'posting') engineKey[n++] = s[g + L.DEDUPE];
    // Whether an operator has acted, which a broker deduping by key reads (engineView above).
    if (allHoldings) engineKey[n++] = s[g + L.OPERATOR] > 0 ? 1 : 0;
    // A step reads the bodies marked poison, and once one is, the crashes they caused and the next pid (see engineView).
    if (poisonOn) {
      engineKey[n++] = s[g + L.POISONED];
      if (s[g + L.POISONED] !== 0) {
        engineKey[n++] = s[g + L.POISON_CRASHES];
        engineKey[n++] = s[g + L.NEXT_PID];
      }
    }
    return n;
  };
  const expansionOfKey = (s: Int32Array, procId: number): number => {
    const n = expansionKey(s, procId);
    let x = expansionMemo.find(engineKey, n);
    if (x >= 0) return x;
    const proc = tables.procs.value(procId);
    if (proc === undefined) throw new Error('packed outbox: empty engine slot');
    const engine: WorldEvent[] = [];
    const broker: WorldEvent[] = [];
    listing.list(s, proc, engine, broker);
    const crash = listing.crash(s, proc);
    x = expansionMemo.add(engineKey, n);
    // Derived in the order listed (engine, broker, crash); an empty list shares one empty value (an expansion is made per new key, tens of thousands in a suite world, and kept).
    const enginePrograms = programsFor(s, engine);
    const brokerPrograms = programsFor(s, broker);
    expanded[x] = {
      engine: engine.length === 0 ? NO_EVENTS : engine,
      broker: broker.length === 0 ? NO_EVENTS : broker,
      crash: crash.length === 0 ? NO_EVENTS : crash,
      enginePrograms,
      brokerPrograms,
      crashPrograms: programsFor(s, crash),
    };
    return x;
  };

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
  const engineViewOf = sparseInts();
  const engineViewKey = new Int32Array(10 + 4 * ids.length);
  // A broker deduping by key excuses a second store under another key once an operator has acted (events/rekeyed.ts):
  // its answers read whether one has, which no id's slot holds (transitions.ts, pushActed).
  const keyBroker = dedupesByKey(options.broker);
  const engineView = (s: Int32Array, prefix: number): number => {
    let v = engineViewOf[prefix];
    if (v === undefined) {
      let n = 0;
      engineViewKey[n++] = s[g + HEALING];
      engineViewKey[n++] = s[g + CRASHES] < options.crashesMax ? 1 : 0;
      engineViewKey[n++] = s[g + PARKED_GONE];
      engineViewKey[n++] = s[g + L.IN_TRANSIT];
      engineViewKey[n++] = s[g + L.DEDUPE];
      engineViewKey[n++] = s[g + L.CLOCK];
      if (keyBroker) engineViewKey[n++] = s[g + L.OPERATOR] > 0 ? 1 : 0;
      // The bodies marked poison, and once one is, the crashes they caused and the next pid (a crash's restart takes it).
      if (poisonOn) {
        engineViewKey[n++] = s[g + L.POISONED];
        if (s[g + L.POISONED] !== 0) {
          engineViewKey[n++] = s[g + L.POISON_CRASHES];
          engineViewKey[n++] = s[g + L.NEXT_PID];
        }
      }
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
   * its claim's holder is alive (all an engine sees of the others).
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
    let x = contexts.get(view, alive);
    if (x < 0) contexts.set(view, alive, (x = contexts.size));
    lastContextView = view;
    lastAlive = alive;
    return (lastContextId = x);
  };
  const byContext = new PairTable();
  /**
   * Per engine slot, the last (process, context) asked and its expansion:
   * states expanded one after another are mostly siblings, which share the
   * context and all engines but one, and the table above is large (a probe
   * of it mostly waits for memory).
   */
  const slotsMax = c.layout.enginesMax;
  const lastProc = new Int32Array(slotsMax).fill(-1);
  const lastContext = new Int32Array(slotsMax).fill(-1);
  const lastExpansion = new Int32Array(slotsMax);
  const expansionOf = (s: Int32Array, k: number, context: number): EngineExpansion => {
    const procId = s[g + ENGINES + k];
    if (lastProc[k] === procId && lastContext[k] === context) return expanded[lastExpansion[k]];
    let x = byContext.get(procId, context);
    if (x < 0) {
      x = expansionOfKey(s, procId);
      byContext.set(procId, context, x);
    }
    lastProc[k] = procId;
    lastContext[k] = context;
    lastExpansion[k] = x;
    return expanded[x];
  };

  return { prefixOf, contextOf, expansionOf };
}

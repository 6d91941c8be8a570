/**
 * Ample sets for the packed outbox (partial-order reduction, `core/por.ts`;
 * docs/explore-reduction.md): a conservative static independence over the
 * state's slots. Two events are independent when what one reads (its
 * transition key, and whatever decides whether it is enabled) and what the
 * other writes (its program's slot writes) are disjoint, and their writes
 * are disjoint: then neither enables, disables or changes the other, and
 * they commute.
 *
 * The candidate ample set at a state is one engine's enabled events (its
 * steps, the broker's answers to its POST, its crash, its upgrade). It is
 * persistent (C1) only if no other actor, on any path that leaves that
 * engine alone, can touch what the set touches: every other engine alive or
 * that a restart may start, the producer, the operator and the corruptions,
 * each taken with everything it may ever read or write while its budget
 * lasts (an over-approximation: an idle engine may scan any id). It is
 * invisible (C2) only if no event in it writes a slot an `always` property
 * reads. Engines are resources by pid, not by position: a crash shifts the
 * positions of the engines after it without touching them.
 *
 * The world's own events that no budget of the operator or the corruptions
 * bounds (the clock, the retention sweeper, a broker's forgetting, a POST
 * landing late, and any kind added later) are one more actor, `world`, that
 * may touch any id's slots and the lists while any such kind is on. Until
 * 2026-12-05 they were taken for the operator's, whose reach was empty when
 * the operator had no budget: a sweep deleting a record an engine was about
 * to read was taken as independent of it.
 * docs/explore-reduction.md, 'The conditions, and where each is kept'
 */
import { dedupesByKey } from '../../../model/broker.ts';
import type { AmpleChooser } from '../../core/por.ts';
import type { Property } from '../../core/system.ts';
import { longWait, stall, tick } from '../events/clock.ts';
import { answers } from '../events/broker.ts';
import { drain, scan, step } from '../events/engine.ts';
import { crash, legacyRecord, newerSchema, tearClaim, tearRecord } from '../events/faults.ts';
import { alterPayload } from '../events/alter-payload.ts';
import { fieldCorrupt } from '../events/field-corrupt.ts';
import type { AnyKind } from '../events/kind.ts';
import { requeue, requeueReset, resubmit, restore } from '../events/operator.ts';
import { restart, upgrade } from '../events/process.ts';
import { poison } from '../events/poison.ts';
import { produce } from '../events/producer.ts';
import { EVENT_KINDS, kindOf } from '../events/table.ts';
import type { WorldOptions } from '../options.ts';
import type { EngineProc, World, WorldEvent } from '../world.ts';
import { kindOn } from './kinds.ts';
import * as L from './layout.ts';
import type { PackedOutbox } from './system.ts';

const { ARCHIVED, BROKER, CLAIM, CLOCK, CORRUPTIONS, CRASHES, DEDUPE, ENGINE_COUNT, ENGINES, HEALING, IN_TRANSIT, LIVE, NEXT_GEN, NEXT_PID, OPERATOR, PARKED, PARKED_GONE, PER_ID, PRODUCED, PUBLISHED, QUARANTINED, REC, REPORTED, SWEEPS } = L;

// Program operations (transitions.ts): slot writes, and engine operations by pid.
const OP_ENGINE_REMOVE = 4;
const OP_ENGINE_REPLACE = 5;
const OP_ENGINE_APPEND = 6;

/** Why a state was expanded fully, counted over a search (the reason the reduction reduces what it does). */
export interface RefusalCensus {
  /** States with a single actor's events only: nothing to reduce. */
  oneActor: number;
  /** Candidate engines whose events another actor may touch (C1). */
  dependent: number;
  /** Candidate engines with an event that writes a slot an `always` property reads (C2). */
  visible: number;
  /** Candidate sets passing C1 and C2 (an ample set offered). */
  offered: number;
  /** Of those, the restarts. */
  restarts: number;
}

/**
 * Resources: the slots of the ids and the world-wide slots by position; an
 * engine's process (`ENG`) and its being alive (`ALIVE`) by pid, after them.
 */
export class Footprint {
  readonly reads = new Set<number>();
  readonly writes = new Set<number>();
  /** Reads whether any engine that ever ran is alive (a step asks if a claim's holder is): pids below `nextPid`. */
  anyAlive = false;
  /** Writes a slot an `always` property reads (C2), or changes an engine as a property sees it. */
  shown = false;

  constructor(
    private readonly base: number,
    /** Pids from here on are fresh: no claim names them, so no `anyAlive` read reads them. */
    private readonly nextPid: number,
  ) {}

  eng(pid: number): number {
    return this.base + 2 * pid;
  }

  alive(pid: number): number {
    return this.base + 2 * pid + 1;
  }

  isEngine(r: number): boolean {
    return r >= this.base;
  }

  read(...rs: number[]): void {
    for (const r of rs) this.reads.add(r);
  }

  write(...rs: number[]): void {
    for (const r of rs) this.writes.add(r);
  }

  both(...rs: number[]): void {
    this.read(...rs);
    this.write(...rs);
  }

  /** Whether `r` says whether an engine that ever ran is alive. */
  private oldAlive(r: number): boolean {
    return this.isEngine(r) && (r - this.base) % 2 === 1 && (r - this.base - 1) / 2 < this.nextPid;
  }

  /** Whether an event within `this` and one within `o` may be dependent: one writes what the other reads or writes. */
  conflicts(o: Footprint): boolean {
    for (const r of this.writes) if (o.reads.has(r) || o.writes.has(r) || (o.anyAlive && this.oldAlive(r))) return true;
    for (const r of o.writes) if (this.reads.has(r) || (this.anyAlive && this.oldAlive(r))) return true;
    return false;
  }
}

/** The slots each world field takes (as `properties.ts` maps a property's reads). */
function fieldResources(field: keyof World, ids: number, g: number): number[] | 'engines' | 'all' {
  const perId: Partial<Record<keyof World, number>> = { records: REC, claims: CLAIM, live: LIVE, broker: BROKER, produced: PRODUCED, reported: REPORTED };
  const global: Partial<Record<keyof World, number>> = {
    archived: ARCHIVED, quarantined: QUARANTINED, published: PUBLISHED, parkedAttempts: PARKED, parkedGone: PARKED_GONE, nextPid: NEXT_PID,
    nextGeneration: NEXT_GEN, crashes: CRASHES, corruptions: CORRUPTIONS, operatorActions: OPERATOR, healing: HEALING,
  };
  const p = perId[field];
  if (p !== undefined) return Array.from({ length: ids }, (_, j) => j * PER_ID + p);
  const q = global[field];
  if (q !== undefined) return [g + q];
  // A field the packed layout has no slot for: taken as read everywhere (the world is then no packed one anyway).
  return field === 'engines' ? 'engines' : 'all';
}

/**
 * What `exclusive-attempt` reads of an engine: whether it is completing, and
 * on which id. A step that keeps that view of every engine cannot change the
 * property's verdict (`independence.test.ts` holds the claim over searches).
 * Any other property that reads the engines reads each engine whole.
 */
const ENGINE_VIEWS: Readonly<Record<string, (p: EngineProc) => string | null>> = {
  'exclusive-attempt': (p) => (p.state === 'completing' ? p.ctx.id : null),
};

/**
 * An actor: the events of one engine (with its crash, upgrade and stall), the restarts, the producer, the
 * operator's actions (within its budget), the corruptions (within theirs) and the world's own events.
 */
export type Actor = number | 'restart' | 'producer' | 'operator' | 'corruption' | 'world';

/** The operator's actions: each spends the operator's budget. */
const OPERATOR_KINDS: ReadonlySet<AnyKind> = new Set<AnyKind>([requeue, requeueReset, resubmit, restore] as AnyKind[]);
/** The storage faults: each spends the corruption budget. */
const CORRUPTION_KINDS: ReadonlySet<AnyKind> = new Set<AnyKind>([tearRecord, newerSchema, legacyRecord, tearClaim, fieldCorrupt, alterPayload] as AnyKind[]);
/** The kinds whose footprints the engines' and the other actors' reaches state one by one: any other kind on makes the `world` actor's reach wide. */
const STATED_KINDS: ReadonlySet<AnyKind> = new Set<AnyKind>([scan, drain, step, ...answers, crash, upgrade, restart, produce, ...OPERATOR_KINDS, ...CORRUPTION_KINDS] as AnyKind[]);
/** The clock's kinds, which write the clock slot. */
const CLOCK_KINDS: readonly AnyKind[] = [tick, longWait, stall] as AnyKind[];

/** The actor whose event `e` is. */
export function actorOf(e: WorldEvent): Actor {
  if ('pid' in e) return e.pid;
  const k = kindOf(e);
  if (k === (restart as AnyKind)) return 'restart';
  if (k === (produce as AnyKind)) return 'producer';
  if (OPERATOR_KINDS.has(k)) return 'operator';
  if (CORRUPTION_KINDS.has(k)) return 'corruption';
  return 'world';
}

/** The ample-set chooser of a packed outbox world; `census` counts why states were expanded fully. */
export function outboxAmpleSets(system: PackedOutbox, options: WorldOptions, always: readonly Property<World>[], census: RefusalCensus = newCensus()): OutboxAmpleSets {
  const { layout, tables, transitions } = system;
  const g = layout.globals;
  const ids = layout.ids.length;
  const base = g + ENGINES;
  const crashOn = kindOn(options, crash.name);
  // A body marked poison kills any engine about to POST it (events/poison.ts): a mark changes every engine's
  // steps and a crash restarts an engine under the next pid, which the footprints below do not hold. Such a
  // world is expanded fully.
  const poisonOn = kindOn(options, poison.name);
  const skew = options.skew === true;
  const on = (k: AnyKind): boolean => kindOn(options, k.name);
  // The world's own events (the clock, retention, forgetting, late landing, a kind not stated here): on for the whole search.
  const worldOn = EVENT_KINDS.some((k) => !STATED_KINDS.has(k) && on(k));
  const clockWritten = CLOCK_KINDS.some(on);

  // C2: the slots the `always` properties read; the engines through their views, or whole.
  const visibleSlots = new Set<number>();
  const views: ((p: EngineProc) => string | null)[] = [];
  let engineWhole = false;
  for (const p of always) {
    if (p.reads === undefined) {
      for (let r = 0; r < base; r++) visibleSlots.add(r);
      engineWhole = true;
      continue;
    }
    for (const f of p.reads) {
      const rs = fieldResources(f, ids, g);
      if (rs === 'all') {
        for (let r = 0; r < base; r++) visibleSlots.add(r);
        engineWhole = true;
      } else if (rs !== 'engines') for (const r of rs) visibleSlots.add(r);
      else if (ENGINE_VIEWS[p.name] !== undefined) views.push(ENGINE_VIEWS[p.name]);
      else engineWhole = true;
    }
  }
  const proc = (id: number): EngineProc | undefined => tables.procs.value(id);
  /** Whether replacing engine process `a` by `b` (0: none) may change a property's verdict. */
  const engineShown = (a: number, b: number): boolean => {
    if (engineWhole) return true;
    const pa = proc(a);
    const pb = proc(b);
    return views.some((v) => (pa === undefined ? null : v(pa)) !== (pb === undefined ? null : v(pb)));
  };

  const procAt = (s: Int32Array, k: number): EngineProc => proc(s[base + k]) as EngineProc;
  const procOfPid = (s: Int32Array, pid: number): number => {
    for (let k = 0; k < s[g + ENGINE_COUNT]; k++) if (procAt(s, k).pid === pid) return s[base + k];
    return 0;
  };
  const idOf = (name: string | null | undefined): number => (name === null || name === undefined ? -1 : layout.ids.indexOf(name));
  const holderOf = (s: Int32Array, j: number): number => {
    const claim = tables.claims.value(s[j * PER_ID + CLAIM]);
    return claim?.kind === 'held' ? claim.owner : -1;
  };

  /** Everything an engine (by pid, or one a restart starts: null) may touch while it runs: any id, the shared lists, its own process. */
  const engineReach = (f: Footprint, p: EngineProc | null, crashesLeft: boolean): void => {
    for (let j = 0; j < ids; j++) {
      const o = j * PER_ID;
      f.both(o + REC, o + CLAIM, o + LIVE, o + BROKER, o + REPORTED);
    }
    f.both(g + ARCHIVED, g + QUARANTINED, g + PUBLISHED, g + PARKED, g + PARKED_GONE);
    f.read(g + CRASHES, g + HEALING);
    // Its POSTs join those in transit and age a dedupe window's memory; every step is told the clock, and its stall moves it.
    f.both(g + IN_TRANSIT, g + DEDUPE);
    f.read(g + CLOCK);
    if (clockWritten) f.write(g + CLOCK);
    f.anyAlive = true;
    if (p !== null) f.both(f.eng(p.pid), f.alive(p.pid));
    // Its crash, or a crash inside its POST (a broker answer), while crashes are left.
    if (crashesLeft) {
      f.both(g + CRASHES, g + ENGINE_COUNT);
    }
    // An upgrade (an old engine under skew, or one a restart starts) replaces it with a process under the next pid.
    if (skew && (p === null || p.version === 'old')) f.both(g + NEXT_PID, g + ENGINE_COUNT);
  };

  /** Everything `actor` may touch from `s`, on any path (an over-approximation; `independence.test.ts` holds each event to it). */
  const reach = (s: Int32Array, actor: Actor, crashesLeft: boolean): Footprint => {
    const f = new Footprint(base, s[g + NEXT_PID]);
    if (typeof actor === 'number') {
      const id = procOfPid(s, actor);
      if (id !== 0) engineReach(f, proc(id) as EngineProc, crashesLeft);
    } else if (actor === 'restart') {
      // A restart (now, or once a crash frees a place) starts an engine that may touch as much as any.
      if (s[g + ENGINE_COUNT] < options.engines || crashesLeft) {
        f.both(g + NEXT_PID, g + ENGINE_COUNT);
        f.read(g + HEALING, g + CLOCK);
        engineReach(f, null, crashesLeft);
      }
    } else if (actor === 'producer') {
      f.read(g + HEALING, g + CLOCK);
      for (let j = 0; j < ids; j++) {
        if ((tables.numbers.value(s[j * PER_ID + PRODUCED]) ?? 0) >= options.bodiesPerId) continue;
        for (let x = 0; x < PER_ID; x++) f.read(j * PER_ID + x);
        f.both(j * PER_ID + LIVE, j * PER_ID + PRODUCED, g + NEXT_GEN, g + PUBLISHED);
      }
    } else if (actor === 'world') {
      // Any id's slots and the world-wide lists, the clock and the kinds' own slots, while any such kind is on
      // (not bounded by a budget of the operator's or the corruptions'); never the engines, the pids or the crashes.
      if (worldOn) {
        for (let r = 0; r < g; r++) f.both(r);
        f.both(g + ARCHIVED, g + QUARANTINED, g + PUBLISHED, g + PARKED, g + PARKED_GONE, g + NEXT_GEN, g + SWEEPS, g + DEDUPE, g + IN_TRANSIT);
        f.read(g + HEALING, g + CLOCK);
        if (clockWritten) f.write(g + CLOCK);
        f.anyAlive = true;
      }
    } else if (actor === 'operator' ? s[g + OPERATOR] < options.operatorActionsMax : s[g + CORRUPTIONS] < options.corruptionsMax) {
      // Any id's slots and the world-wide lists and counters, but not the engines, the pids or the crashes.
      for (let r = 0; r < g; r++) f.both(r);
      f.both(g + ARCHIVED, g + QUARANTINED, g + PUBLISHED, g + PARKED, g + PARKED_GONE, g + NEXT_GEN, g + OPERATOR, g + CORRUPTIONS);
      f.read(g + HEALING, g + CLOCK);
      f.anyAlive = true;
    }
    return f;
  };

  /** What `events` (one actor's, enabled in `s`) read (their keys, and what enables them) and write (their programs). */
  const current = (s: Int32Array, actor: Actor, events: readonly WorldEvent[]): Footprint => {
    const f = new Footprint(base, s[g + NEXT_PID]);
    // Every step is keyed by the clock (transitions.ts), so taken to read it.
    f.read(g + HEALING, g + CLOCK);
    if (typeof actor === 'number') {
      const p = proc(procOfPid(s, actor)) as EngineProc;
      // Alive, and its process: what decides which of its events are enabled.
      f.read(f.eng(actor), f.alive(actor));
      if (p.state === 'idle') for (let j = 0; j < ids; j++) f.read(j * PER_ID + REC, j * PER_ID + LIVE);
      if (p.state === 'posting') f.read(g + CRASHES);
    }
    if (actor === 'restart') f.read(g + ENGINE_COUNT, g + NEXT_PID);
    for (const e of events) {
      // What enables a crash (crashes left) or an upgrade (its key: the next pid).
      if (e.kind === 'crash') f.read(g + CRASHES);
      if (e.kind === 'upgrade') f.read(g + NEXT_PID);
      const p = typeof actor === 'number' ? (proc(procOfPid(s, actor)) as EngineProc) : null;
      const j = e.kind === 'scan' || e.kind === 'drain' ? idOf(e.id) : (e.kind === 'step' || e.kind === 'answer' || e.kind === 'post-in-transit') && p !== null ? idOf(p.ctx.id) : -1;
      if (j >= 0) {
        // The transition key (transitions.ts): the record, the claim, the live file; the broker and parkedGone for an answer; whether the claim's holder is alive.
        const o = j * PER_ID;
        f.read(o + REC, o + CLAIM, o + LIVE, o + BROKER, g + PARKED_GONE);
        // A broker deduping by key knows keys across ids (events/broker-keys.ts): an answer reads every id's holding.
        if (e.kind === 'answer' && dedupesByKey(options.broker)) for (let i = 0; i < ids; i++) f.read(i * PER_ID + BROKER);
        // A POST sent or landing late reads the POSTs in transit and a dedupe window's memory.
        f.read(g + IN_TRANSIT, g + DEDUPE);
        const h = holderOf(s, j);
        if (h >= 0) f.read(f.alive(h));
        // An engine step may overwrite the reported body without reading it: a write in every state.
        f.write(o + REPORTED);
      }
      const program = transitions.programFor(s, e);
      for (let i = 0; i < program.length; i += 3) {
        const op = program[i];
        const a = program[i + 1];
        if (op === OP_ENGINE_REMOVE) {
          f.write(f.eng(a), f.alive(a), g + ENGINE_COUNT);
          if (engineShown(procOfPid(s, a), 0)) f.shown = true;
        } else if (op === OP_ENGINE_REPLACE) {
          f.write(f.eng(a));
          if (engineShown(procOfPid(s, a), program[i + 2])) f.shown = true;
        } else if (op === OP_ENGINE_APPEND) {
          const q = proc(program[i + 2])?.pid ?? -1;
          f.write(f.eng(q), f.alive(q), g + ENGINE_COUNT);
          if (engineShown(0, program[i + 2])) f.shown = true;
        } else {
          f.write(a);
          if (visibleSlots.has(a)) f.shown = true;
        }
      }
    }
    return f;
  };

  /** The candidates, in the order tried: the restarts first (they reduce where anything does), then each engine. */
  const candidates = (events: readonly WorldEvent[]): Map<Actor, number[]> => {
    const by = new Map<Actor, number[]>();
    events.forEach((e, i) => {
      const a = actorOf(e);
      const list = by.get(a);
      if (list === undefined) by.set(a, [i]);
      else list.push(i);
    });
    return by;
  };

  const ALL_ACTORS_BUT_ENGINES: Actor[] = ['restart', 'producer', 'operator', 'corruption', 'world'];

  return {
    census,
    reach,
    current,
    ample(s, events) {
      if (s[g + HEALING] === 1 || poisonOn) return null;
      const by = candidates(events);
      if (by.size < 2) {
        census.oneActor++;
        return null;
      }
      const crashesLeft = crashOn && s[g + CRASHES] < options.crashesMax;
      const actors: Actor[] = [...ALL_ACTORS_BUT_ENGINES];
      for (let k = 0; k < s[g + ENGINE_COUNT]; k++) actors.push(procAt(s, k).pid);
      // Each actor's reach, computed once per state.
      const reaches = new Map<Actor, Footprint>();
      const reachOf = (b: Actor): Footprint => {
        let f = reaches.get(b);
        if (f === undefined) reaches.set(b, (f = reach(s, b, crashesLeft)));
        return f;
      };
      for (const a of ['restart', ...actors.filter((x) => typeof x === 'number')] as Actor[]) {
        const mine = by.get(a);
        if (mine === undefined) continue;
        const f = current(s, a, mine.map((i) => events[i]));
        let dependent = false;
        for (const b of actors) if (b !== a && !dependent && f.conflicts(reachOf(b))) dependent = true;
        if (dependent) census.dependent++;
        if (f.shown) census.visible++;
        if (dependent || f.shown) continue;
        census.offered++;
        if (a === 'restart') census.restarts++;
        // A restart raises the engine count, which only a crash lowers: with no crash left (else a restart is dependent on the crashes) no cycle holds one.
        return { events: mine, acyclic: a === 'restart' && !crashesLeft };
      }
      return null;
    },
  };
}

/** The outbox's chooser, with the footprints it reasons over (for tests). */
export interface OutboxAmpleSets extends AmpleChooser<WorldEvent> {
  census: RefusalCensus;
  /** Everything `actor` may touch from `s`. */
  reach(s: Int32Array, actor: Actor, crashesLeft: boolean): Footprint;
  /** What `events`, one actor's, enabled in `s`, read and write now. */
  current(s: Int32Array, actor: Actor, events: readonly WorldEvent[]): Footprint;
}

export function newCensus(): RefusalCensus {
  return { oneActor: 0, dependent: 0, visible: 0, offered: 0, restarts: 0 };
}

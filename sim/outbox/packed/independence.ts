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
 */
import type { AmpleChooser } from '../../core/por.ts';
import type { Property } from '../../core/system.ts';
import type { WorldOptions } from '../options.ts';
import type { EngineProc, World, WorldEvent } from '../world.ts';
import { kindOn } from './kinds.ts';
import * as L from './layout.ts';
import type { PackedOutbox } from './system.ts';

const { ARCHIVED, BROKER, CLAIM, CORRUPTIONS, CRASHES, ENGINE_COUNT, ENGINES, HEALING, LIVE, NEXT_GEN, NEXT_PID, OPERATOR, PARKED, PARKED_GONE, PER_ID, PRODUCED, PUBLISHED, QUARANTINED, REC, REPORTED } = L;

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
  /** Candidate engines passing C1 and C2 (an ample set offered). */
  offered: number;
}

/**
 * Resources: the slots of the ids and the world-wide slots by position; an
 * engine's process (`ENG`) and its being alive (`ALIVE`) by pid, after them.
 */
class Footprint {
  readonly reads = new Set<number>();
  readonly writes = new Set<number>();
  /** Reads whether any engine is alive (an engine step asks if a claim's holder is). */
  anyAlive = false;
  /** Reads every engine's process (a property of the engines). */
  anyEngine = false;

  constructor(private readonly base: number) {}

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

  /** Whether an event of `this` and one of `o` may be dependent. */
  conflicts(o: Footprint): boolean {
    for (const r of this.writes) {
      if (o.reads.has(r) || o.writes.has(r)) return true;
      if (this.isEngine(r) && (o.anyEngine || (o.anyAlive && (r - this.base) % 2 === 1))) return true;
    }
    for (const r of o.writes) {
      if (this.reads.has(r)) return true;
      if (this.isEngine(r) && (this.anyEngine || (this.anyAlive && (r - this.base) % 2 === 1))) return true;
    }
    return false;
  }
}

/** The slots each world field takes (as `properties.ts` maps a property's reads). */
function fieldResources(field: keyof World, ids: number, g: number): number[] | 'engines' {
  const perId: Partial<Record<keyof World, number>> = { records: REC, claims: CLAIM, live: LIVE, broker: BROKER, produced: PRODUCED, reported: REPORTED };
  const global: Partial<Record<keyof World, number>> = {
    archived: ARCHIVED, quarantined: QUARANTINED, published: PUBLISHED, parkedAttempts: PARKED, parkedGone: PARKED_GONE, nextPid: NEXT_PID,
    nextGeneration: NEXT_GEN, crashes: CRASHES, corruptions: CORRUPTIONS, operatorActions: OPERATOR, healing: HEALING,
  };
  const p = perId[field];
  if (p !== undefined) return Array.from({ length: ids }, (_, j) => j * PER_ID + p);
  const q = global[field];
  if (q !== undefined) return [g + q];
  return 'engines';
}

/** The ample-set chooser of a packed outbox world; `census` counts why states were expanded fully. */
export function outboxAmpleSets(system: PackedOutbox, options: WorldOptions, always: readonly Property<World>[], census: RefusalCensus = newCensus()): AmpleChooser<WorldEvent> & { census: RefusalCensus } {
  const { layout, tables, transitions } = system;
  const g = layout.globals;
  const ids = layout.ids.length;
  const base = g + ENGINES;
  const crashOn = kindOn(options, 'crash');
  const skew = (options as { skew?: boolean }).skew === true;
  const footprint = (): Footprint => new Footprint(base);

  // C2: what the `always` properties read; a property that declares nothing reads everything.
  const visible = footprint();
  for (const p of always) {
    if (p.reads === undefined) {
      for (let r = 0; r < base; r++) visible.read(r);
      visible.anyEngine = true;
      continue;
    }
    for (const f of p.reads) {
      const rs = fieldResources(f, ids, g);
      if (rs === 'engines') visible.anyEngine = true;
      else visible.read(...rs);
    }
  }

  const procOf = (s: Int32Array, k: number): EngineProc => tables.procs.value(s[base + k]) as EngineProc;
  const idOf = (name: string | null | undefined): number => (name === null || name === undefined ? -1 : layout.ids.indexOf(name));
  const holderOf = (s: Int32Array, j: number): number => {
    const claim = tables.claims.value(s[j * PER_ID + CLAIM]);
    return claim?.kind === 'held' ? claim.owner : -1;
  };

  /** Everything an engine may touch, now or later, while it runs: any id, the shared lists, its own process. */
  const anyEngine = (into: Footprint, pid: number | null, crashesLeft: boolean): void => {
    for (let j = 0; j < ids; j++) {
      const o = j * PER_ID;
      into.both(o + REC, o + CLAIM, o + LIVE, o + BROKER, o + REPORTED);
    }
    into.both(g + ARCHIVED, g + QUARANTINED, g + PUBLISHED, g + PARKED, g + PARKED_GONE);
    into.read(g + CRASHES, g + HEALING);
    into.anyAlive = true;
    if (pid !== null) into.both(into.eng(pid), into.alive(pid));
    // Its crash, or a crash inside its POST (an answer), while crashes are left; an upgrade under skew.
    if (crashesLeft) {
      into.both(g + CRASHES);
      into.write(g + ENGINE_COUNT);
    }
    if (skew) into.both(g + NEXT_PID, g + ENGINE_COUNT);
  };

  /** Everything any actor but engine `k` may ever touch from `s`. */
  const others = (s: Int32Array, k: number, crashesLeft: boolean): Footprint => {
    const o = footprint();
    const count = s[g + ENGINE_COUNT];
    for (let q = 0; q < count; q++) if (q !== k) anyEngine(o, procOf(s, q).pid, crashesLeft);
    // A restart (now, or once a crash frees a place) starts an engine that may touch as much.
    if (count < options.engines || crashesLeft) {
      o.both(g + NEXT_PID, g + ENGINE_COUNT);
      o.read(g + HEALING);
      anyEngine(o, null, crashesLeft);
    }
    for (let j = 0; j < ids; j++) {
      if ((tables.numbers.value(s[j * PER_ID + PRODUCED]) ?? 0) >= options.bodiesPerId) continue;
      for (let x = 0; x < PER_ID; x++) o.read(j * PER_ID + x);
      o.both(j * PER_ID + LIVE, j * PER_ID + PRODUCED, g + NEXT_GEN, g + PUBLISHED);
    }
    // The operator and the corruptions: any id's slots, every world-wide list and counter.
    if (s[g + OPERATOR] < options.operatorActionsMax || s[g + CORRUPTIONS] < options.corruptionsMax) {
      for (let r = 0; r < base; r++) o.both(r);
      o.anyAlive = true;
    }
    return o;
  };

  /** What engine `k`'s enabled events in `s` read and write; `null` when one is no event of an engine. */
  const engineFootprint = (s: Int32Array, k: number, events: readonly WorldEvent[]): Footprint => {
    const f = footprint();
    const proc = procOf(s, k);
    const pid = proc.pid;
    // Alive, and its process: what decides that its events are enabled.
    f.read(f.eng(pid), f.alive(pid), g + HEALING);
    if (proc.state === 'idle') for (let j = 0; j < ids; j++) f.read(j * PER_ID + REC, j * PER_ID + LIVE);
    if (proc.state === 'posting') f.read(g + CRASHES);
    for (const e of events) {
      if (e.kind === 'crash' || e.kind === 'upgrade') f.read(g + CRASHES, g + NEXT_PID);
      const j = e.kind === 'scan' || e.kind === 'drain' ? idOf(e.id) : e.kind === 'step' || e.kind === 'answer' ? idOf(proc.ctx.id) : -1;
      if (j >= 0) {
        // The transition key (transitions.ts): the record, the claim, the live file; the broker and parkedGone for an answer; whether the claim's holder is alive.
        const o = j * PER_ID;
        f.read(o + REC, o + CLAIM, o + LIVE, o + BROKER, g + PARKED_GONE);
        const h = holderOf(s, j);
        if (h >= 0) f.read(f.alive(h));
      }
      const program = transitions.programFor(s, e);
      for (let i = 0; i < program.length; i += 3) {
        const op = program[i];
        const a = program[i + 1];
        if (op === OP_ENGINE_REMOVE) f.write(f.eng(a), f.alive(a), g + ENGINE_COUNT);
        else if (op === OP_ENGINE_REPLACE) f.write(f.eng(a));
        else if (op === OP_ENGINE_APPEND) {
          const q = tables.procs.value(program[i + 2])?.pid ?? -1;
          f.write(f.eng(q), f.alive(q), g + ENGINE_COUNT);
        } else f.write(a);
      }
      // An engine step may overwrite the reported body without reading it (transitions.ts): a write in every state.
      if (j >= 0) f.write(j * PER_ID + REPORTED);
    }
    return f;
  };

  /** Whether `e` is one of engine `pid`'s events. */
  const ofEngine = (e: WorldEvent, pid: number): boolean => 'pid' in e && e.pid === pid;

  return {
    census,
    ample(s, events) {
      const count = s[g + ENGINE_COUNT];
      if (s[g + HEALING] === 1) return null;
      const crashesLeft = crashOn && s[g + CRASHES] < options.crashesMax;
      let actors = 0;
      for (let k = 0; k < count; k++) if (events.some((e) => ofEngine(e, procOf(s, k).pid))) actors++;
      if (actors + (events.some((e) => !('pid' in e)) ? 1 : 0) < 2) {
        census.oneActor++;
        return null;
      }
      for (let k = 0; k < count; k++) {
        const pid = procOf(s, k).pid;
        const mine: number[] = [];
        events.forEach((e, i) => {
          if (ofEngine(e, pid)) mine.push(i);
        });
        if (mine.length === 0) continue;
        const f = engineFootprint(s, k, mine.map((i) => events[i]));
        const dependent = f.conflicts(others(s, k, crashesLeft));
        let shown = false;
        for (const r of f.writes) if (visible.reads.has(r) || (visible.anyEngine && f.isEngine(r))) shown = true;
        if (dependent) census.dependent++;
        if (shown) census.visible++;
        if (dependent || shown) continue;
        census.offered++;
        return mine;
      }
      return null;
    },
  };
}

export function newCensus(): RefusalCensus {
  return { oneActor: 0, dependent: 0, visible: 0, offered: 0 };
}

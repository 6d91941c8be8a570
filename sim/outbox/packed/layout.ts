/**
 * The outbox world packed into a fixed-width vector of integers: per id its
 * record, claim, live file, broker holding, bodies produced and reported
 * body; then the world-wide lists and counters; then the engines, by
 * ascending pid. Every non-counter slot is an {@link Interner} id, so a
 * vector unpacks to a {@link World} whose parts are shared values, and
 * `unpack(pack(w))` has the same canonical key as `w` (tested).
 */
import type { Holding } from '../../../model/broker.ts';
import type { ClaimSlot, QuarantinedFile, RecordSlot, ResultFile } from '../../../model/types.ts';
import type { EngineProc, World } from '../world.ts';
import { Interner } from './interner.ts';

/** Slots of one id, at `id * PER_ID`. */
export const REC = 0;
export const CLAIM = 1;
export const LIVE = 2;
export const BROKER = 3;
export const PRODUCED = 4;
export const REPORTED = 5;
export const PER_ID = 6;

/** World-wide slots, after the ids. */
export const ARCHIVED = 0;
export const QUARANTINED = 1;
export const PUBLISHED = 2;
export const PARKED = 3;
export const NEXT_PID = 4;
export const NEXT_GEN = 5;
export const CRASHES = 6;
export const CORRUPTIONS = 7;
export const OPERATOR = 8;
export const HEALING = 9;
export const ENGINE_COUNT = 10;
/** Engine slots follow the count. */
export const ENGINES = 11;

/** The interned values every packed state of one world refers to. */
export class PackedTables {
  readonly records = new Interner<RecordSlot>();
  readonly claims = new Interner<ClaimSlot>();
  readonly files = new Interner<ResultFile>();
  readonly holdings = new Interner<Holding>();
  readonly numbers = new Interner<number>();
  readonly strings = new Interner<string>();
  readonly fileLists = new Interner<readonly ResultFile[]>();
  readonly quarantineLists = new Interner<readonly QuarantinedFile[]>();
  readonly stringLists = new Interner<readonly string[]>();
  readonly procs = new Interner<EngineProc>();
}

/** Slot positions of a world with `ids` ids and at most `engines` engines alive. */
export class PackedLayout {
  readonly globals: number;
  readonly width: number;

  constructor(
    readonly ids: readonly string[],
    readonly enginesMax: number,
  ) {
    this.globals = ids.length * PER_ID;
    this.width = this.globals + ENGINES + enginesMax;
  }

  /**
   * Packs `next`, a successor of the world `w` packed as `s`: parts `next`
   * shares with `w` keep their ids without being interned again (worlds
   * share unchanged parts, so this is most of them).
   */
  packAfter(w: World, s: Int32Array, next: World, t: PackedTables): Int32Array {
    return this.pack(next, t, new Int32Array(this.width), w, s);
  }

  /** Packs a world (interning its parts); parts shared with `w` (packed as `s`) reuse their ids. */
  pack(w: World, t: PackedTables, out: Int32Array = new Int32Array(this.width), prev?: World, s?: Int32Array): Int32Array {
    if (prev !== undefined && s !== undefined) {
      const same = <T>(a: T, b: T, pos: number, id: (v: T) => number) => {
        out[pos] = a === b ? s[pos] : id(a);
      };
      this.ids.forEach((id, i) => {
        const o = i * PER_ID;
        same(w.records[id], prev.records[id], o + REC, (v) => t.records.id(v));
        same(w.claims[id], prev.claims[id], o + CLAIM, (v) => t.claims.id(v));
        same(w.live[id], prev.live[id], o + LIVE, (v) => t.files.id(v));
        same(w.broker[id], prev.broker[id], o + BROKER, (v) => t.holdings.id(v));
        same(w.produced[id], prev.produced[id], o + PRODUCED, (v) => t.numbers.id(v));
        same(w.reported[id], prev.reported[id], o + REPORTED, (v) => t.strings.id(v));
      });
      const g = this.globals;
      out[g + ARCHIVED] = w.archived === prev.archived ? s[g + ARCHIVED] : t.fileLists.id(w.archived);
      out[g + QUARANTINED] = w.quarantined === prev.quarantined ? s[g + QUARANTINED] : t.quarantineLists.id(w.quarantined);
      out[g + PUBLISHED] = w.published === prev.published ? s[g + PUBLISHED] : t.stringLists.id(w.published);
      out[g + PARKED] = w.parkedAttempts === prev.parkedAttempts ? s[g + PARKED] : t.stringLists.id(w.parkedAttempts);
      this.packScalars(w, out);
      if (w.engines.length > this.enginesMax) throw new Error(`packed world: ${w.engines.length} engines, at most ${this.enginesMax}`);
      for (let k = 0; k < this.enginesMax; k++) {
        const e = w.engines[k];
        const j = e === undefined ? -1 : prev.engines.indexOf(e);
        out[g + ENGINES + k] = e === undefined ? 0 : j >= 0 ? s[g + ENGINES + j] : t.procs.id(e);
      }
      return out;
    }
    if (w.engines.length > this.enginesMax) throw new Error(`packed world: ${w.engines.length} engines, at most ${this.enginesMax}`);
    out.fill(0);
    this.ids.forEach((id, i) => {
      const o = i * PER_ID;
      out[o + REC] = t.records.id(w.records[id]);
      out[o + CLAIM] = t.claims.id(w.claims[id]);
      out[o + LIVE] = t.files.id(w.live[id]);
      out[o + BROKER] = t.holdings.id(w.broker[id]);
      out[o + PRODUCED] = t.numbers.id(w.produced[id]);
      out[o + REPORTED] = t.strings.id(w.reported[id]);
    });
    const g = this.globals;
    out[g + ARCHIVED] = t.fileLists.id(w.archived);
    out[g + QUARANTINED] = t.quarantineLists.id(w.quarantined);
    out[g + PUBLISHED] = t.stringLists.id(w.published);
    out[g + PARKED] = t.stringLists.id(w.parkedAttempts);
    this.packScalars(w, out);
    w.engines.forEach((e, k) => {
      out[g + ENGINES + k] = t.procs.id(e);
    });
    return out;
  }

  private packScalars(w: World, out: Int32Array): void {
    const g = this.globals;
    out[g + NEXT_PID] = w.nextPid;
    out[g + NEXT_GEN] = w.nextGeneration;
    out[g + CRASHES] = w.crashes;
    out[g + CORRUPTIONS] = w.corruptions;
    out[g + OPERATOR] = w.operatorActions;
    out[g + HEALING] = w.healing ? 1 : 0;
    out[g + ENGINE_COUNT] = w.engines.length;
  }

  /**
   * Only the named fields of the world a vector stands for: enough for a
   * property that declares it reads nothing else (a test holds each
   * declaration), at a fraction of the cost of {@link unpack}.
   */
  unpackFields(s: Int32Array, t: PackedTables, fields: readonly (keyof World)[]): World {
    const g = this.globals;
    const part: Partial<Record<keyof World, unknown>> = {};
    for (const f of fields) {
      if (f === 'engines') {
        const engines: EngineProc[] = [];
        for (let k = 0; k < s[g + ENGINE_COUNT]; k++) engines.push(t.procs.value(s[g + ENGINES + k]) as EngineProc);
        part.engines = engines;
      } else {
        part[f] = this.unpack(s, t)[f];
      }
    }
    return part as World;
  }

  /** The world a vector stands for; its parts are the interned values. */
  unpack(s: Int32Array, t: PackedTables): World {
    const records: Record<string, RecordSlot> = {};
    const claims: Record<string, ClaimSlot> = {};
    const live: Record<string, ResultFile> = {};
    const broker: Record<string, Holding> = {};
    const produced: Record<string, number> = {};
    const reported: Record<string, string> = {};
    this.ids.forEach((id, i) => {
      const o = i * PER_ID;
      setIf(records, id, t.records.value(s[o + REC]));
      setIf(claims, id, t.claims.value(s[o + CLAIM]));
      setIf(live, id, t.files.value(s[o + LIVE]));
      setIf(broker, id, t.holdings.value(s[o + BROKER]));
      setIf(produced, id, t.numbers.value(s[o + PRODUCED]));
      setIf(reported, id, t.strings.value(s[o + REPORTED]));
    });
    const g = this.globals;
    const engines: EngineProc[] = [];
    for (let k = 0; k < s[g + ENGINE_COUNT]; k++) engines.push(t.procs.value(s[g + ENGINES + k]) as EngineProc);
    return {
      records,
      claims,
      live,
      archived: listOf(t.fileLists.value(s[g + ARCHIVED])),
      quarantined: listOf(t.quarantineLists.value(s[g + QUARANTINED])),
      broker,
      engines,
      produced,
      published: listOf(t.stringLists.value(s[g + PUBLISHED])),
      reported,
      nextPid: s[g + NEXT_PID],
      nextGeneration: s[g + NEXT_GEN],
      crashes: s[g + CRASHES],
      corruptions: s[g + CORRUPTIONS],
      operatorActions: s[g + OPERATOR],
      parkedAttempts: listOf(t.stringLists.value(s[g + PARKED])),
      healing: s[g + HEALING] === 1,
    };
  }
}

function setIf<T>(into: Record<string, T>, key: string, value: T | undefined): void {
  if (value !== undefined) into[key] = value;
}

/** Interned lists are shared: a world gets its own copy, as worlds never share mutable arrays. */
function listOf<T>(list: readonly T[] | undefined): T[] {
  return list === undefined ? [] : [...list];
}

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
import type { InTransit } from '../events/land.ts';
import type { EngineProc, World } from '../world.ts';
import { emptyList } from '../world-copy.ts';
import { Canon, Interner } from './interner.ts';

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
export const PARKED_GONE = 11;
/** Retention's sweeps so far (`sweeps`, events/retention.ts; 0: absent). */
export const SWEEPS = 12;
/** Late landing's POSTs in transit (`inTransit`, events/land.ts; 0: absent, none in transit). */
export const IN_TRANSIT = 13;
/** A dedupe window's broker memory (`dedupe`, events/dedupe-window.ts; 0: absent, an empty memory is not). */
export const DEDUPE = 14;
/** The clock's reading (`clock`, events/clock.ts; absent until time first passes, and then never 0). */
export const CLOCK = 15;
/** Poison bodies (`poisoned`, events/poison.ts; 0: absent, none marked). */
export const POISONED = 16;
/** Crashes poison bodies caused (`poisonCrashes`, events/poison.ts; 0: absent, none). */
export const POISON_CRASHES = 17;
/** Engine slots follow. */
export const ENGINES = 18;

/**
 * A world the packed layout has no slots for: a rule set may make one (an
 * envelope filed under an id other than the task's puts the broker's holding
 * under a name that is no outbox id). Thrown before anything is lost, so that
 * a search can be run on the object system instead.
 */
export class Unrepresentable extends Error {}

/** The per-id maps of a world, which the layout keeps for its ids only. */
const PER_ID_FIELDS = ['records', 'claims', 'live', 'broker', 'produced', 'reported'] as const;

/** The interned values every packed state of one world refers to. */
export class PackedTables {
  /** Canonical numbers shared by the tables: a part met in several (a file live, then archived) is keyed once. */
  private readonly canon = new Canon();
  readonly records = new Interner<RecordSlot>(this.canon);
  readonly claims = new Interner<ClaimSlot>(this.canon);
  readonly files = new Interner<ResultFile>(this.canon);
  readonly holdings = new Interner<Holding>(this.canon);
  readonly numbers = new Interner<number>(this.canon);
  readonly strings = new Interner<string>(this.canon);
  readonly fileLists = new Interner<readonly ResultFile[]>(this.canon);
  readonly quarantineLists = new Interner<readonly QuarantinedFile[]>(this.canon);
  readonly stringLists = new Interner<readonly string[]>(this.canon);
  readonly procs = new Interner<EngineProc>(this.canon);
  readonly transitLists = new Interner<readonly InTransit[]>(this.canon);
  readonly dedupeMemories = new Interner<Readonly<Record<string, number>>>(this.canon);
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

  /** Packs a world (interning its parts); parts shared with `prev` (packed as `s`) reuse their ids. */
  pack(w: World, t: PackedTables, out: Int32Array = new Int32Array(this.width), prev?: World, s?: Int32Array): Int32Array {
    if (w.engines.length > this.enginesMax) throw new Error(`packed world: ${w.engines.length} engines, at most ${this.enginesMax}`);
    for (let f = 0; f < PER_ID_FIELDS.length; f++) {
      const field = PER_ID_FIELDS[f];
      // A map shared with `prev` was checked when `prev` was packed.
      if (prev === undefined || w[field] !== prev[field]) this.requireIds(w, field);
    }
    // A part shared with `prev` keeps its id; one call per slot (`idAfter`): written out inline, the
    // comparisons made `pack` 2 KB of bytecode, compiled again at each suite world's first new branch.
    const ids = this.ids;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      const o = i * PER_ID;
      out[o + REC] = idAfter(t.records, w.records[id], prev?.records[id], s, o + REC);
      out[o + CLAIM] = idAfter(t.claims, w.claims[id], prev?.claims[id], s, o + CLAIM);
      out[o + LIVE] = idAfter(t.files, w.live[id], prev?.live[id], s, o + LIVE);
      out[o + BROKER] = idAfter(t.holdings, w.broker[id], prev?.broker[id], s, o + BROKER);
      out[o + PRODUCED] = idAfter(t.numbers, w.produced[id], prev?.produced[id], s, o + PRODUCED);
      out[o + REPORTED] = idAfter(t.strings, w.reported[id], prev?.reported[id], s, o + REPORTED);
    }
    const g = this.globals;
    out[g + ARCHIVED] = idAfter(t.fileLists, w.archived, prev?.archived, s, g + ARCHIVED);
    out[g + QUARANTINED] = idAfter(t.quarantineLists, w.quarantined, prev?.quarantined, s, g + QUARANTINED);
    out[g + PUBLISHED] = idAfter(t.stringLists, w.published, prev?.published, s, g + PUBLISHED);
    out[g + PARKED] = idAfter(t.stringLists, w.parkedAttempts, prev?.parkedAttempts, s, g + PARKED);
    out[g + PARKED_GONE] = idAfter(t.stringLists, w.parkedGone, prev?.parkedGone, s, g + PARKED_GONE);
    out[g + IN_TRANSIT] = idAfter(t.transitLists, w.inTransit, prev?.inTransit, s, g + IN_TRANSIT);
    out[g + DEDUPE] = idAfter(t.dedupeMemories, w.dedupe, prev?.dedupe, s, g + DEDUPE);
    out[g + NEXT_PID] = w.nextPid;
    out[g + NEXT_GEN] = w.nextGeneration;
    out[g + CRASHES] = w.crashes;
    out[g + CORRUPTIONS] = w.corruptions;
    out[g + OPERATOR] = w.operatorActions;
    out[g + HEALING] = w.healing ? 1 : 0;
    out[g + ENGINE_COUNT] = w.engines.length;
    out[g + SWEEPS] = w.sweeps ?? 0;
    out[g + CLOCK] = w.clock ?? 0;
    out[g + POISONED] = idAfter(t.stringLists, w.poisoned, prev?.poisoned, s, g + POISONED);
    out[g + POISON_CRASHES] = w.poisonCrashes ?? 0;
    for (let k = 0; k < this.enginesMax; k++) {
      const e = w.engines[k];
      const j = e === undefined || prev === undefined || s === undefined ? -1 : prev.engines.indexOf(e);
      out[g + ENGINES + k] = e === undefined ? 0 : j >= 0 ? (s as Int32Array)[g + ENGINES + j] : t.procs.id(e);
    }
    return out;
  }

  /** Throws {@link Unrepresentable} when the world's map `field` holds a name that is no outbox id (a method of its own: `pack`, on the path of every derivation, stays small to compile). */
  private requireIds(w: World, field: (typeof PER_ID_FIELDS)[number]): void {
    const map: Readonly<Record<string, unknown>> = w[field];
    const names = Object.keys(map);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (map[name] !== undefined && !this.ids.includes(name)) throw new Unrepresentable(`the world holds ${field}[${JSON.stringify(name)}], and ${JSON.stringify(name)} is no outbox id`);
    }
  }

  private enginesOf(s: Int32Array, t: PackedTables): EngineProc[] {
    const g = this.globals;
    const engines: EngineProc[] = [];
    for (let k = 0; k < s[g + ENGINE_COUNT]; k++) engines.push(t.procs.value(s[g + ENGINES + k]) as EngineProc);
    return engines;
  }

  /**
   * Only the named fields of the world a vector stands for: enough for a
   * property that declares it reads nothing else (a test holds each
   * declaration), at a fraction of the cost of {@link unpack}.
   */
  unpackFields(s: Int32Array, t: PackedTables, fields: readonly (keyof World)[]): World {
    const part: Partial<Record<keyof World, unknown>> = {};
    if (fields.some((f) => f !== 'engines')) {
      const whole = this.unpack(s, t);
      for (const f of fields) part[f] = whole[f];
    } else {
      part.engines = this.enginesOf(s, t);
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
    const engines = this.enginesOf(s, t);
    // Each read once, before the object: a second read inside `? :` had no type feedback until the
    // first world with a clock or a sweep, and deoptimised `unpack` there (docs/performance.md).
    const clock = s[g + CLOCK];
    const sweeps = s[g + SWEEPS];
    const poisoned = t.stringLists.value(s[g + POISONED]);
    const poisonCrashes = s[g + POISON_CRASHES];
    // Every field written, in copyWorld's order, a kind's own slot undefined until the kind first
    // writes it (the world's key tells absent from 0; undefined reads, encodes and prints as
    // absent): every world unpacked, whatever its slots hold, and every world the object system
    // steps it to, then has one hidden class. A slot added only when set gave the worlds of a
    // search with a clock, a dedupe memory or POSTs in transit classes of their own, and each
    // such world of `check`'s suite threw away the code optimised on the worlds before it.
    const w: { [K in keyof Required<World>]: World[K] } = {
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
      parkedGone: listOf(t.stringLists.value(s[g + PARKED_GONE])),
      healing: s[g + HEALING] === 1,
      dedupe: t.dedupeMemories.value(s[g + DEDUPE]),
      inTransit: t.transitLists.value(s[g + IN_TRANSIT]),
      clock: clock !== 0 ? clock : undefined,
      sweeps: sweeps !== 0 ? sweeps : undefined,
      // Absent until the first body is marked (then a list of one or more) and the first poison crash (then 1 or more).
      poisoned: poisoned === undefined ? undefined : [...poisoned],
      poisonCrashes: poisonCrashes !== 0 ? poisonCrashes : undefined,
    };
    return w;
  }
}

/**
 * The id of a part `v` of a world packed after `prev` (packed as `s`): the
 * id `s` holds at `pos` when the part is the one `prev` had there (`before`),
 * else its interned id. Without `prev` or `s`, always interned.
 */
function idAfter<T>(interner: Interner<T>, v: T | undefined, before: T | undefined, s: Int32Array | undefined, pos: number): number {
  return s !== undefined && before !== undefined && v === before ? s[pos] : interner.id(v);
}

function setIf<T>(into: Record<string, T>, key: string, value: T | undefined): void {
  if (value !== undefined) into[key] = value;
}

/** Interned lists are shared: a world gets its own copy, as worlds never share mutable arrays. */
function listOf<T>(list: readonly T[] | undefined): T[] {
  // An empty list of the class filled ones have (see emptyList).
  return list === undefined ? emptyList() : [...list];
}

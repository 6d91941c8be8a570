/**
 * Packed transitions derived from the object system, never written by hand:
 * the first time an event meets a given combination of the slots it reads,
 * the world is unpacked, stepped by the outbox system (and so by the lifecycle
 * statechart), packed again, and the difference is kept as a short program
 * of slot writes. Later meetings of the same combination replay the program.
 *
 * The program is exact only if the event's outcome depends on nothing but
 * the slots in its key, so every derivation checks what it can: a per-id
 * slot written outside the key, a list changed other than by appending, or
 * an engine changed other than the one the event names, throws. The
 * differential tests (`packed.test.ts`) step both ways on whole searches.
 * A few events' keys hold some slots only as projections, or not at all,
 * where the derivation watched the step read no more (`record-reads.ts`;
 * untouched slots: `untouched-slots.test.ts`), and an
 * engine's own step holds its record only as the values its statechart
 * read of it (`step-reads.ts`, `read-codes.ts`).
 */
import type { TransitionSystem } from '../../core/system.ts';
import { TupleTable } from '../../core/tuple-table.ts';
import type { QuarantinedFile, RecordSlot, ResultFile } from '../../../model/types.ts';
import type { EngineProc, World, WorldEvent } from '../world.ts';
import { copyWorld, emptyList } from '../world-copy.ts';
import { Interner } from './interner.ts';
import { OTHER, PidRenaming, renamePid, SELF, type Renaming } from './pid-renaming.ts';
import { ReadCodes } from './read-codes.ts';
import { RecordProjection, RecordReads } from './record-reads.ts';
import type { StepReads } from './step-reads.ts';
import * as L from './layout.ts';
import { Unrepresentable, type PackedLayout, type PackedTables } from './layout.ts';
import { sparseInts } from './arrays.ts';
import { POISON_CRASH_TAG } from '../events/poison.ts';

// Slot positions copied to module constants: a module loader may turn each
// access to an imported binding into a getter call, on the hottest path.
const { ARCHIVED, BROKER, CLAIM, CRASHES, CORRUPTIONS, ENGINE_COUNT, ENGINES, HEALING, LIVE, NEXT_GEN, NEXT_PID, OPERATOR, PARKED, PER_ID, PRODUCED, PUBLISHED, QUARANTINED, REC, REPORTED } = L;

const OP_SET = 0;
const OP_ADD = 1;
const OP_APPEND_ARCHIVED = 2;
const OP_APPEND_QUARANTINED = 3;
const OP_ENGINE_REMOVE = 4;
const OP_ENGINE_REPLACE = 5;
const OP_ENGINE_APPEND = 6;
const OP_ADD_PUBLISHED = 7;
const OP_ADD_PARKED = 8;

/** Counters: written as a delta when the event's key does not hold them. */
const COUNTERS = [NEXT_PID, NEXT_GEN, CRASHES, CORRUPTIONS, OPERATOR, L.SWEEPS];

/** A kind's own world slots (late landing's POSTs in transit, a dedupe window's memory, the clock, poison bodies and their crashes): written whole. */
const KIND_SLOTS = [L.IN_TRANSIT, L.DEDUPE, L.CLOCK, L.POISONED, L.POISON_CRASHES];

/** What a derivation throws when its step changed what its key does not hold. */
function keyMisses(what: string, e: WorldEvent): Error {
  return new Error(`packed transitions: ${what} (event ${JSON.stringify(e)}); its key misses a slot the step depends on`);
}

/** What a derivation throws when a watched slot's proxy was kept in the next world. */
function escaped(e: WorldEvent): Error {
  return new Error(`packed transitions: a slot watched in ${JSON.stringify(e)} escaped into the next world`);
}

/** The engine with `pid` in a world's engines (a handful; the last, as a map by pid would keep), or undefined. */
function engineOf(engines: readonly EngineProc[], pid: number): EngineProc | undefined {
  for (let i = engines.length - 1; i >= 0; i--) if (engines[i].pid === pid) return engines[i];
  return undefined;
}

/** The world's map of each watchable per-id slot (by its place in an id's slots). */
const PER_ID_MAPS: ('records' | 'claims' | 'live' | 'broker' | 'produced' | 'reported')[] = [];
PER_ID_MAPS[REC] = 'records';
PER_ID_MAPS[CLAIM] = 'claims';
PER_ID_MAPS[LIVE] = 'live';
PER_ID_MAPS[BROKER] = 'broker';
PER_ID_MAPS[PRODUCED] = 'produced';
PER_ID_MAPS[REPORTED] = 'reported';

/**
 * What a derivation puts in the slot an event may overwrite without reading
 * it (the reported body): a program writes the slot exactly when the step
 * replaced this, whatever the slot held in the state derived from (a
 * program derived where it already held the new value wrote nothing, and
 * left another value standing elsewhere).
 */
const UNWRITTEN = '\u0000unwritten';

/** How a slot of a key is watched: whether it is there (any access is beyond); a record's kind and status read through a proxy. */
const PRESENCE = 0;
const RECORD = 1;
/**
 * Not read at all: the world's whole map of the slot (its claims, live
 * files, broker holdings, producer's counts or reported bodies) is given to
 * the step as a proxy of which any access is beyond, so that a program kept
 * under it holds whatever the slot holds, absent or present
 * (docs/performance.md, 'What a cold suite spends').
 */
const UNTOUCHED = 2;
/** A slot keyed by its value (not watched). */
const KEYED = -1;

/**
 * How an event keys each of an id's slots, in their order (record, claim,
 * live file, broker holding, producer's count, reported body): `now`, and
 * `before` (without {@link UNTOUCHED}: keyed, or whether it is there), kept
 * to test that the two agree. A number or a string (count, body) can only
 * be keyed or untouched: a proxy needs an object.
 */
interface IdSlots {
  now: readonly number[];
  before: readonly number[];
}

/** A producer: reads its count, and whether a live file is there (it replaces it). */
const PRODUCE_SLOTS: IdSlots = { now: [UNTOUCHED, UNTOUCHED, PRESENCE, UNTOUCHED, KEYED, UNTOUCHED], before: [RECORD, PRESENCE, PRESENCE, PRESENCE, KEYED, KEYED] };
/** A restore: of each id, whether a live file is there (it writes one for the file's id). */
const RESTORE_SLOTS: IdSlots = { now: [UNTOUCHED, UNTOUCHED, PRESENCE, UNTOUCHED, UNTOUCHED, UNTOUCHED], before: [RECORD, PRESENCE, PRESENCE, PRESENCE, KEYED, KEYED] };
/** An operator's requeue or resubmit: the `requeue` decision sees the record and the claim (and whether its holder is alive, keyed beside). */
const OPERATOR_SLOTS: IdSlots = { now: [KEYED, KEYED, UNTOUCHED, UNTOUCHED, UNTOUCHED, UNTOUCHED], before: [KEYED, KEYED, PRESENCE, PRESENCE, KEYED, KEYED] };
/** A torn claim: the claim only (a step that replaces no record makes no parked-body note). */
const TEAR_CLAIM_SLOTS: IdSlots = { now: [UNTOUCHED, KEYED, UNTOUCHED, UNTOUCHED, UNTOUCHED, UNTOUCHED], before: [RECORD, KEYED, PRESENCE, PRESENCE, KEYED, KEYED] };
/** A late POST landing: the broker's holding only. */
const LAND_SLOTS: IdSlots = { now: [UNTOUCHED, UNTOUCHED, UNTOUCHED, KEYED, UNTOUCHED, UNTOUCHED], before: [KEYED, KEYED, KEYED, KEYED, KEYED, KEYED] };
/** A storage fault on the record, or the sweeper: the record only. */
const RECORD_FAULT_SLOTS: IdSlots = { now: [KEYED, UNTOUCHED, UNTOUCHED, UNTOUCHED, UNTOUCHED, UNTOUCHED], before: [KEYED, PRESENCE, PRESENCE, PRESENCE, KEYED, KEYED] };

/** The record's place in a key that stands for every record, in the table of the sets of paths read under a key (see {@link PackedTransitions.findByReads}). */
const ANY_RECORD = -1;

/** Bound on the slots of one memo key. */
const KEY_SLOTS_MAX = 64;

export class PackedTransitions {
  private readonly memo = new TupleTable();
  private readonly programs: Int32Array[] = emptyList();
  /** Per memo entry: the entry its program was derived for (itself, or the one found under its record's code), which keys the concrete programs. */
  private readonly derivedAt: number[] = [];
  private readonly key = new Int32Array(KEY_SLOTS_MAX);
  /** Positions of the state slots the current key holds. */
  private readonly keyed = new Int32Array(KEY_SLOTS_MAX);
  private keyLength = 0;
  private keyedCount = 0;
  /** A slot the current event may write without reading it (its new value follows from the key), or -1. */
  private overwritten = -1;
  /**
   * The slots of the current key that the event may read only the
   * projection of (`record-reads.ts`): a record's kind and status (a broker
   * answer), whether a claim or live file
   * is there at all (a producer, a restore, an engine's step), or nothing
   * ({@link UNTOUCHED}: operator actions, storage faults, producers,
   * restores, late landings). Per watched slot: its place in the key, its
   * position in the state, and how it is watched.
   */
  private readonly projectAt = new Int32Array(KEY_SLOTS_MAX);
  private readonly projectSlot = new Int32Array(KEY_SLOTS_MAX);
  /** How each watched slot is watched: {@link PRESENCE}, {@link RECORD} or {@link UNTOUCHED}. */
  private readonly projectHow: number[] = [];
  private projectCount = 0;
  /** Per watched place of an {@link UNTOUCHED} slot: the world's plain map, while the step is given its proxy. */
  private readonly untouchedMaps: unknown[] = [];
  /** The key's values at the watched places, while they hold projection codes. */
  private readonly projectSaved = new Int32Array(KEY_SLOTS_MAX);
  /** Whether the step {@link derive} last stepped read no more of the watched slots than their projections. */
  private lastWithin = false;
  private readonly projection: RecordProjection;
  private readonly reads = new RecordReads();
  /**
   * The record of the current key that an engine's statechart is told
   * (`step-reads.ts`): its place in the key (-1: none), its position in the
   * state, and the version of the engine that reads it.
   */
  private stepperAt = -1;
  private stepperSlot = -1;
  private stepperVersion: 'new' | 'old' = 'new';
  /** The codes of records under the paths steps read (`read-codes.ts`). */
  private readonly readCodes: ReadCodes;
  /**
   * Per key with its record as {@link ANY_RECORD}: the sets of paths steps
   * under that key read (their programs are kept under the record's code
   * for each set). A step's first read is fixed by its key, and each later
   * one by the values before it, so a key meets few sets.
   */
  private readonly readSets = new TupleTable();
  private readonly readSetLists: number[][] = emptyList();
  /** The set of paths the step {@link derive} last stepped read of the statechart's record, or -1: the whole record keys it. */
  private lastReadSet = -1;
  /**
   * Keys with the statechart's record as its kind and status where a step
   * read beyond what paths name (fail-closed's completion spreads the
   * record): a later step under such a key is run unwatched and keyed by
   * the whole record, as it would be anyway, without the cost of a spread
   * through the watch. A guess only ever costs sharing, never exactness.
   */
  private readonly beyondKeys = new TupleTable();
  /** Likewise, keys where a step read beyond the projections of its watched slots: the next step under one is run on the plain slots (else it would be run twice). */
  private readonly worldBeyondKeys = new TupleTable();
  private readonly eventCodes = new Map<WorldEvent, number>();
  private readonly eventCodesByText = new Map<string, number>();
  /** Per list op (by its number): (list, item) to the list after it. */
  private readonly appendMemo: Map<number, number>[] = Array.from({ length: 9 }, () => new Map<number, number>());
  private readonly quarantinedFiles = new Interner<QuarantinedFile>();
  /** Pid of each interned engine process, by its id. */
  private readonly pidOfProc = sparseInts();
  /** Per claim id: the pid of the claim's holder, or -1 when it is not held. */
  private readonly holderOf = sparseInts();
  private readonly renaming: PidRenaming;
  /**
   * The pids the current key holds as placeholders: the engine the event
   * names ({@link SELF}) and the holder of the claim it reads ({@link OTHER});
   * 0 where there is none.
   */
  private self = 0;
  private other = 0;
  /** Programs with placeholders made concrete, by (program index, engine pid, holder pid). */
  private readonly concrete = new TupleTable();
  private readonly concretePrograms: Int32Array[] = emptyList();
  private readonly concreteKey = new Int32Array(3);
  private readonly canonicalCodes = new Map<WorldEvent, number>();
  /** The programs (derived, with placeholders, made concrete) of steps that POST (tagged `layer:post`): the packed quiet test asks (`quiet.ts`). */
  private readonly posting = new WeakSet<Int32Array>();
  /** Whether the step {@link derive} last stepped POSTed. */
  private lastPosted = false;
  derived = 0;
  /**
   * Whether an event's slots it should not touch at all are watched as
   * {@link UNTOUCHED} (operator actions, storage faults, the sweeper,
   * producers, restores, late landings) and a broker answer's holding by
   * whether it is there, or keyed as before (their values, or whether they
   * are there): set false only to compare the two (`untouched-slots.test.ts`).
   */
  narrowKeys = true;

  constructor(
    private readonly layout: PackedLayout,
    private readonly tables: PackedTables,
    private readonly objectSystem: TransitionSystem<World, WorldEvent>,
    /** The watch on the steppers `objectSystem` runs (`step-reads.ts`), or null: then an engine's step is keyed by its whole record. */
    private readonly stepReads: StepReads | null = null,
    /** The broker dedupes by key (`--broker key`), across ids: its steps read every id's holding. */
    private readonly keysAcrossIds = false,
    /**
     * Keep pids as they are: a program is derived per engine, not once for
     * all engines up to renaming (`pid-renaming.ts`). For rule sets that read
     * an engine's pid (`pid-watch.ts`), for which one engine's step says
     * nothing of another's.
     */
    private readonly concretePids = false,
    /** Poison bodies are on (events/poison.ts): an engine's step reads them. */
    private readonly poison = false,
  ) {
    this.renaming = new PidRenaming(tables);
    this.projection = new RecordProjection((id) => tables.records.value(id));
    this.readCodes = new ReadCodes((id) => tables.records.value(id), this.projection, stepReads?.readers ?? null);
  }

  /** Writes the state after `event` into `out`. */
  apply(s: Int32Array, e: WorldEvent, out: Int32Array): void {
    this.run(s, this.programFor(s, e), out);
  }

  /**
   * The program of `e` in `s`: valid in every state that agrees with `s` on
   * the event's key. Programs of an engine's events are kept with
   * placeholders for pids (see `pid-renaming.ts`), so what one engine met is
   * derived once for all engines.
   */
  programFor(s: Int32Array, e: WorldEvent): Int32Array {
    this.buildKey(s, e);
    // A program kept under its slots' projections (negative codes, never interned ids) holds for every state that has them.
    const projected = this.projectCount > 0;
    let m = this.memo.find(this.key, this.keyLength);
    if (m < 0 && (projected || this.stepperAt >= 0)) {
      let shared = -1;
      if (projected) {
        this.toProjections();
        shared = this.memo.find(this.key, this.keyLength);
        if (shared < 0 && this.stepperAt >= 0) shared = this.findByReads();
        this.fromProjections();
      }
      if (shared < 0 && this.stepperAt >= 0) shared = this.findByReads();
      if (shared >= 0) {
        // Found under projections or the record's code: kept under the whole key too, so that the next meeting of these slots is one look-up.
        m = this.memo.add(this.key, this.keyLength);
        this.programs[m] = this.programs[shared];
        this.derivedAt[m] = this.derivedAt[shared];
      }
    }
    if (m < 0) {
      const program = this.derive(s, e);
      if (this.lastPosted) this.posting.add(program);
      if (projected && this.lastWithin) this.toProjections();
      if (this.lastReadSet >= 0) this.toReadCode(this.lastReadSet);
      m = this.memo.add(this.key, this.keyLength);
      this.programs[m] = this.self === 0 ? program : this.renameProgram(program, this.toPlaceholders(s));
      this.derivedAt[m] = m;
      return program;
    }
    if (this.self === 0) return this.programs[m];
    const k = this.concreteKey;
    k[0] = this.derivedAt[m];
    k[1] = this.self;
    k[2] = this.other;
    let c = this.concrete.find(k, 3);
    if (c < 0) {
      c = this.concrete.add(k, 3);
      this.concretePrograms[c] = this.renameProgram(this.programs[m], { from: [SELF, OTHER], to: [this.self, this.other] });
    }
    return this.concretePrograms[c];
  }

  /** Puts the projection codes of the watched slots in the key (a record's, or 0 for absent and 1 for present). */
  private toProjections(): void {
    for (let i = 0; i < this.projectCount; i++) {
      const at = this.projectAt[i];
      const v = (this.projectSaved[i] = this.key[at]);
      const how = this.projectHow[i];
      // An untouched slot's code is one constant: the key's place says how it is watched (one event, one layout of its key).
      this.key[at] = -1 - (how === RECORD ? this.projection.of(v) : how === UNTOUCHED || v === 0 ? 0 : 1);
    }
  }

  private fromProjections(): void {
    for (let i = 0; i < this.projectCount; i++) this.key[this.projectAt[i]] = this.projectSaved[i];
  }

  /** The program kept under the current key with its statechart's record as its code under a set of paths read under this key, or -1. */
  private findByReads(): number {
    const at = this.stepperAt;
    const record = this.key[at];
    this.key[at] = ANY_RECORD;
    const n = this.readSets.find(this.key, this.keyLength);
    let m = -1;
    if (n >= 0) {
      const sets = this.readSetLists[n];
      for (let i = 0; i < sets.length && m < 0; i++) {
        this.key[at] = -1 - this.readCodes.code(sets[i], this.stepperVersion, record);
        m = this.memo.find(this.key, this.keyLength);
      }
    }
    this.key[at] = record;
    return m;
  }

  /** Puts the code of the statechart's record under `set` in the key, and notes `set` among those read under the key. */
  private toReadCode(set: number): void {
    const at = this.stepperAt;
    const record = this.key[at];
    this.key[at] = ANY_RECORD;
    let n = this.readSets.find(this.key, this.keyLength);
    if (n < 0) {
      n = this.readSets.add(this.key, this.keyLength);
      this.readSetLists[n] = [];
    }
    if (!this.readSetLists[n].includes(set)) this.readSetLists[n].push(set);
    this.key[at] = -1 - this.readCodes.code(set, this.stepperVersion, record);
  }

  /**
   * Whether `table` holds the current key with its watched slots as their
   * projections and the statechart's record as its kind and status (a step
   * under it read beyond what is watched); with `note`, adds it.
   */
  private beyondKey(table: TupleTable, note: boolean): boolean {
    const at = this.stepperAt;
    const record = at >= 0 ? this.key[at] : 0;
    if (at >= 0) this.key[at] = -1 - this.projection.of(record);
    if (this.projectCount > 0) this.toProjections();
    const found = table.find(this.key, this.keyLength) >= 0;
    if (note && !found) table.add(this.key, this.keyLength);
    if (this.projectCount > 0) this.fromProjections();
    if (at >= 0) this.key[at] = record;
    return found;
  }

  /** Keys the record `pos` that an engine of `version` is told, by its value; the program is kept under the values the statechart read of it (`step-reads.ts`). */
  private pushStepperRecord(s: Int32Array, pos: number, version: 'new' | 'old'): void {
    this.stepperAt = this.keyLength;
    this.stepperSlot = pos;
    this.stepperVersion = version;
    this.pushSlot(s, pos);
  }

  /** Keys the slot `pos` (its value) and watches it: the program is kept under its projection if the step reads no more. */
  private pushWatched(s: Int32Array, pos: number, how: number): void {
    this.projectAt[this.projectCount] = this.keyLength;
    this.projectSlot[this.projectCount] = pos;
    this.projectHow[this.projectCount++] = how;
    this.pushSlot(s, pos);
  }

  /**
   * An id's slots (record, claim, live file, broker holding, producer's
   * count, reported body), each as `hows` says: {@link KEYED} or watched.
   * Where {@link narrowKeys} is off, as `before` says.
   */
  private pushIdAs(s: Int32Array, j: number, hows: IdSlots): void {
    const o = j * PER_ID;
    const h = this.narrowKeys ? hows.now : hows.before;
    // Slot by slot, in the order of an id's slots (REC to REPORTED).
    for (let k = 0; k < PER_ID; k++) this.pushAs(s, o + k, h[k]);
  }

  /**
   * A broker deduping by key knows keys across ids (events/broker-keys.ts):
   * its step for id `j` reads every other id's holding, keyed whole.
   */
  private pushOtherHoldings(s: Int32Array, j: number): void {
    if (!this.keysAcrossIds) return;
    for (let i = 0; i < this.layout.ids.length; i++) if (i !== j) this.pushSlot(s, i * PER_ID + BROKER);
  }

  /**
   * A broker deduping by key notes a second store of a body under another key
   * (retries-deduped) unless an operator has acted anywhere (events/rekeyed.ts,
   * `heldAfter`): its step reads whether the operator count is above 0, which
   * no slot of the id holds. Keyed by that bit: a program derived before any
   * action noted the store in states after one, where the object system
   * excuses it (verify mode found it in a world of two ids, broker key and
   * operator actions).
   */
  private pushActed(s: Int32Array): void {
    if (this.keysAcrossIds) this.push(s[this.layout.globals + OPERATOR] > 0 ? 1 : 0);
  }

  /** Keys the slot `pos` by its value ({@link KEYED}) or watched as `how`. */
  private pushAs(s: Int32Array, pos: number, how: number): void {
    if (how === KEYED) this.pushSlot(s, pos);
    else this.pushWatched(s, pos, how);
  }

  /**
   * The renaming from the current key's pids to placeholders, for a program
   * just derived in `s`. A pid it writes that is neither is refused, unless
   * it is the next pid and the key holds the next pid (an upgrade starts a
   * process with it): a step that wrote another engine's pid would depend
   * on something its key does not hold.
   */
  private toPlaceholders(s: Int32Array): Renaming {
    const nextPid = this.isKeyed(this.layout.globals + NEXT_PID) ? s[this.layout.globals + NEXT_PID] : -1;
    return {
      from: this.other === 0 ? [this.self] : [this.self, this.other],
      to: this.other === 0 ? [SELF] : [SELF, OTHER],
      check: (pid) => {
        if (pid !== nextPid) throw new Error(`packed transitions: a step of e${this.self} wrote pid ${pid}, which its key does not hold`);
      },
    };
  }

  /**
   * Whether the step of a program {@link programFor} gave POSTs (its tags
   * hold `layer:post`): like the program, a function of the event's key.
   */
  posts(program: Int32Array): boolean {
    return this.posting.has(program);
  }

  /** A program with the pids in its claims and engine operations renamed. */
  private renameProgram(program: Int32Array, r: Renaming): Int32Array {
    const out = program.slice();
    if (this.posting.has(program)) this.posting.add(out);
    const g = this.layout.globals;
    for (let i = 0; i < out.length; i += 3) {
      const op = out[i];
      const a = out[i + 1];
      if (op === OP_SET && a < g && a % PER_ID === CLAIM) out[i + 2] = this.renaming.claim(out[i + 2], r);
      else if (op === OP_ENGINE_REMOVE) out[i + 1] = renamePid(a, r);
      else if (op === OP_ENGINE_REPLACE) {
        out[i + 1] = renamePid(a, r);
        out[i + 2] = this.renaming.proc(out[i + 2], r);
      } else if (op === OP_ENGINE_APPEND) out[i + 2] = this.renaming.proc(out[i + 2], r);
    }
    return out;
  }

  /** The position of the engine with `pid` in `s`, or -1. */
  engineSlot(s: Int32Array, pid: number): number {
    const g = this.layout.globals;
    const n = s[g + ENGINE_COUNT];
    for (let k = 0; k < n; k++) if (this.pid(s[g + ENGINES + k]) === pid) return g + ENGINES + k;
    return -1;
  }

  pid(procId: number): number {
    let p = this.pidOfProc[procId];
    if (p === undefined) {
      p = this.tables.procs.value(procId)?.pid ?? 0;
      this.pidOfProc[procId] = p;
    }
    return p;
  }

  /**
   * 1 when the claim on id `j` in `s` is held by an engine alive in `s`,
   * else 0: all an engine step sees of the other engines.
   */
  holderAlive(s: Int32Array, j: number): number {
    const claimId = s[j * PER_ID + CLAIM];
    let h = this.holderOf[claimId];
    if (h === undefined) {
      const claim = this.tables.claims.value(claimId);
      h = this.holderOf[claimId] = claim?.kind === 'held' ? claim.owner : -1;
    }
    return h >= 0 && this.engineSlot(s, h) >= 0 ? 1 : 0;
  }

  /** Entries of the memo (distinct event-and-input combinations met). */
  get size(): number {
    return this.memo.size;
  }

  private code(e: WorldEvent): number {
    let c = this.eventCodes.get(e);
    if (c === undefined) {
      c = this.codeOfText(JSON.stringify(e));
      this.eventCodes.set(e, c);
    }
    return c;
  }

  /** The code of an event with its pid replaced by {@link SELF}. */
  private canonicalCode(e: WorldEvent): number {
    let c = this.canonicalCodes.get(e);
    if (c === undefined) {
      c = this.codeOfText(JSON.stringify({ ...e, pid: SELF }));
      this.canonicalCodes.set(e, c);
    }
    return c;
  }

  private codeOfText(text: string): number {
    let c = this.eventCodesByText.get(text);
    if (c === undefined) {
      c = this.eventCodesByText.size + 1;
      this.eventCodesByText.set(text, c);
    }
    return c;
  }

  private push(v: number): void {
    if (this.keyLength === KEY_SLOTS_MAX) throw new Error(`packed transitions: a key of more than ${KEY_SLOTS_MAX} slots`);
    this.key[this.keyLength++] = v;
  }

  private pushSlot(s: Int32Array, pos: number): void {
    this.pushSlotAs(pos, s[pos]);
  }

  /** Keys the slot `pos` by `value` (its value, or its value with pids renamed). */
  private pushSlotAs(pos: number, value: number): void {
    this.push(value);
    this.keyed[this.keyedCount++] = pos;
  }

  /**
   * The key of an event in a state: the event, and every slot its outcome
   * can depend on (see the file comment for how that is checked).
   */
  private buildKey(s: Int32Array, e: WorldEvent): void {
    this.keyLength = 0;
    this.keyedCount = 0;
    this.overwritten = -1;
    this.projectCount = 0;
    this.stepperAt = -1;
    this.self = !this.concretePids && 'pid' in e ? e.pid : 0;
    this.other = 0;
    this.push(this.self === 0 ? this.code(e) : this.canonicalCode(e));
    const g = this.layout.globals;
    // The clock (events/clock.ts; 0 in a world without one): decisions are told the time, claims
    // taken get their lease's end from it, a lease's expiry is read against it. Every step keys it.
    this.pushSlot(s, g + L.CLOCK);
    switch (e.kind) {
      case 'scan':
      case 'drain':
      case 'step':
      case 'answer':
      case 'post-in-transit': {
        const slot = this.engineSlot(s, e.pid);
        if (slot < 0) throw new Error(`packed transitions: no engine e${e.pid}`);
        const proc = this.tables.procs.value(s[slot]);
        const id = e.kind === 'scan' || e.kind === 'drain' ? e.id : proc?.ctx.id;
        const j = id === null || id === undefined ? -1 : this.layout.ids.indexOf(id);
        // The holder of the claim this engine reads, if another engine: a placeholder too.
        const claim = j >= 0 ? this.tables.claims.value(s[j * PER_ID + CLAIM]) : undefined;
        if (claim?.kind === 'held' && claim.owner !== e.pid) this.other = claim.owner;
        this.pushSlotAs(slot, this.concretePids ? s[slot] : this.renaming.procAsSelf(s[slot]));
        // The broker slot keyed is the worked id's: an envelope for another id would escape the key.
        const envelope = proc?.ctx.envelope;
        if (envelope && envelope.id !== id) throw new Unrepresentable(`engine e${e.pid} holds an envelope for ${JSON.stringify(envelope.id)} while working on ${JSON.stringify(id)}`);
        this.push(j);
        // A quarantine whose cause says not delivered notes whether the broker holds the file's body (honest-park,
        // events/engine-step.ts): a scan (admit may quarantine the file it read) and a disposing engine's step (dispose,
        // the file it holds) key that holding. The expansion cache keys it too (expansion.ts).
        const quarantinable = e.kind === 'scan' ? e.id : e.kind === 'step' && proc?.state === 'disposing' ? proc.ctx.file?.id : undefined;
        const f = quarantinable === undefined ? -1 : this.layout.ids.indexOf(quarantinable);
        if (f >= 0) this.pushSlot(s, f * PER_ID + BROKER);
        if (j >= 0) {
          // What an engine step reads of its id: the record, the claim, the
          // live file, and the broker's holding when the broker answers. It
          // overwrites the reported body (archiving a file it read) without
          // reading it, and never reads the producer's count.
          const o = j * PER_ID;
          // A broker's answer to a POST (now, or landing late), not an engine's own step.
          const toBroker = e.kind === 'answer' || e.kind === 'post-in-transit';
          // A broker answer reads the record only through what the derivation watches (see programFor).
          if (toBroker) this.pushWatched(s, o + REC, RECORD);
          // An engine's own step, scan or drain is told the record as its event's `read` (`step-reads.ts`).
          else if (this.stepReads !== null && proc !== undefined) this.pushStepperRecord(s, o + REC, proc.version);
          else this.pushSlot(s, o + REC);
          this.pushSlotAs(o + CLAIM, this.concretePids ? s[o + CLAIM] : this.renaming.claimFor(s[o + CLAIM], e.pid));
          // A broker answer is told the reply and the claim, not the live file: its map is watched untouched (a step that reads it falls back to the plain slot).
          // An engine's step is told it, and most read nothing of it (a disposal reads its generation): keyed by whether it is there, unless the step read it.
          // A scan keeps the file it is told in its memory: keyed by it.
          if (toBroker) this.pushAs(s, o + LIVE, this.narrowKeys ? UNTOUCHED : PRESENCE);
          else if (e.kind !== 'scan') this.pushWatched(s, o + LIVE, PRESENCE);
          else this.pushSlot(s, o + LIVE);

          if (toBroker) {
            // The broker's holding: read by a broker that compares keys or keeps a log, not by one that answers every second POST alike (id-ok, id-409): watched.
            this.pushAs(s, o + BROKER, this.narrowKeys ? PRESENCE : KEYED);
            this.pushOtherHoldings(s, j);
            this.pushActed(s);
            // A POST of a body parked before (parked-stays-parked per body) is noted.
            this.pushSlot(s, g + L.PARKED_GONE);
          }
          // Late landing: the POST joins the POSTs in transit (set whole, so keyed).
          if (e.kind === 'post-in-transit') this.pushSlot(s, g + L.IN_TRANSIT);
          // A dedupe window: a broker step ages the broker's memory (set whole, so keyed).
          if (toBroker) this.pushSlot(s, g + L.DEDUPE);
          this.overwritten = o + REPORTED;
          this.push(this.holderAlive(s, j));
        }
        // A poison body kills an engine whose step takes it to that body's POST (events/poison.ts): the step
        // reads the bodies marked, and once one is, the poison crashes so far and the next pid (its restart).
        if (e.kind === 'step' && this.poison) {
          this.pushSlot(s, g + L.POISONED);
          if (s[g + L.POISONED] !== 0) {
            this.pushSlot(s, g + L.POISON_CRASHES);
            this.pushSlot(s, g + NEXT_PID);
          }
        }
        return;
      }
      case 'poison':
        // Marks a body: reads and writes the bodies marked (whether it enables reads the published ones: world-events.ts).
        this.pushSlot(s, g + L.POISONED);
        return;
      case 'crash':
        return;
      case 'land':
        // The broker receives a POST in transit: it reads the list and the POST's id's holding.
        this.pushSlot(s, g + L.IN_TRANSIT);
        this.pushIdAs(s, this.layout.ids.indexOf(e.id), LAND_SLOTS);
        this.pushOtherHoldings(s, this.layout.ids.indexOf(e.id));
        this.pushActed(s);
        this.pushSlot(s, g + L.PARKED_GONE);
        // A landing is a broker step of a dedupe window too.
        this.pushSlot(s, g + L.DEDUPE);
        return;
      case 'forget':
        this.pushSlot(s, g + L.DEDUPE);
        return;
      case 'tick':
      case 'long-wait':
      case 'stall':
        // They write the clock, keyed above for every step.
        return;
      case 'restart':
      case 'upgrade':
        this.pushSlot(s, g + NEXT_PID);
        return;
      case 'produce':
        this.pushIdAs(s, this.layout.ids.indexOf(e.id), PRODUCE_SLOTS);
        this.pushSlot(s, g + NEXT_GEN);
        return;
      case 'restore':
        for (let j = 0; j < this.layout.ids.length; j++) this.pushIdAs(s, j, RESTORE_SLOTS);
        this.pushSlot(s, g + QUARANTINED);
        this.pushSlot(s, g + NEXT_GEN);
        return;
      case 'requeue':
      case 'resubmit': {
        // The operator's `requeue` decision sees the record and the claim, and whether its holder is alive; it should touch nothing else of the id's (watched).
        const j = this.layout.ids.indexOf(e.id);
        this.pushIdAs(s, j, OPERATOR_SLOTS);
        this.push(this.holderAlive(s, j));
        return;
      }
      case 'tear-claim':
        // Tears the claim; it should touch nothing else of the id's (watched).
        this.pushIdAs(s, this.layout.ids.indexOf(e.id), TEAR_CLAIM_SLOTS);
        return;
      case 'tear-record':
      case 'newer-schema':
      case 'legacy-record':
      case 'field-corrupt':
      case 'alter-payload':
      case 'sweep':
        // Reads and writes the id's record (the sweeper's sweeps counter is written as a delta: COUNTERS); it should touch nothing else of the id's (watched).
        this.pushIdAs(s, this.layout.ids.indexOf(e.id), RECORD_FAULT_SLOTS);
        return;
    }
  }

  private isKeyed(pos: number): boolean {
    for (let k = 0; k < this.keyedCount; k++) if (this.keyed[k] === pos) return true;
    return false;
  }

  /**
   * Unpacks `s` and steps `e` by the object system, the watched slots as
   * proxies when `watchWorld`, the statechart's record watched where a step
   * under its key did not read beyond its paths before. The world watch
   * stays open (the caller closes it); the stepper watch stays armed.
   */
  private stepOnce(s: Int32Array, e: WorldEvent, watchWorld: boolean) {
    const { layout, tables } = this;
    // Stepped with the published and parked sets empty: what a step adds to
    // them then shows, and becomes an add (a no-op where already present),
    // so that the sets need not be part of any key.
    // parkedGone likewise, unless the event reads it (a broker answer): then keyed, it is set whole.
    const unpacked = layout.unpack(s, tables);
    const goneKeyed = this.isKeyed(layout.globals + L.PARKED_GONE);
    // A copy field by field (copyWorld), not a spread: the world stepped keeps the class of every world.
    const w = copyWorld(unpacked);
    w.published = emptyList();
    w.parkedAttempts = emptyList();
    if (!goneKeyed) w.parkedGone = emptyList();
    const reads = watchWorld ? this.reads : null;
    reads?.reset();
    const watched: unknown[] = [];
    for (let i = 0; i < this.projectCount; i++) {
      const pos = this.projectSlot[i];
      const map = PER_ID_MAPS[pos % PER_ID];
      if (this.projectHow[i] === UNTOUCHED && reads !== null) {
        // The whole map is watched: a step that reads the slot, absent or not, reads the map first. One proxy per map (a restore watches every id's).
        let k = 0;
        while (k < i && !(this.projectHow[k] === UNTOUCHED && PER_ID_MAPS[this.projectSlot[k] % PER_ID] === map)) k++;
        if (k < i) this.untouchedMaps[i] = this.untouchedMaps[k];
        else {
          this.untouchedMaps[i] = w[map];
          w[map] = reads.watchUnread(w[map]) as never;
        }
        watched.push(w[map]);
        continue;
      }
      const id = layout.ids[Math.floor(pos / PER_ID)];
      const value = w[map][id];
      if (value === undefined || reads === null) {
        watched.push(value);
        continue;
      }
      const proxy = this.projectHow[i] === RECORD ? reads.watch(value as RecordSlot) : reads.watchUnread(value as object);
      watched.push(proxy);
      w[map] = { ...w[map], [id]: proxy } as never;
    }
    // The slot the step may overwrite without reading holds a value no step writes: whether the step wrote it shows, even where it wrote what was there.
    if (this.overwritten >= 0) w.reported = { ...w.reported, [layout.ids[Math.floor(this.overwritten / PER_ID)]]: UNWRITTEN };
    // The record the statechart is told: its reads are watched where the steppers are (`step-reads.ts`), unless a step under its key read beyond them before.
    const stepReads = this.stepperAt >= 0 && !this.beyondKey(this.beyondKeys, false) ? this.stepReads : null;
    const stepperBefore: RecordSlot | undefined = stepReads !== null ? w.records[layout.ids[Math.floor(this.stepperSlot / PER_ID)]] : undefined;
    stepReads?.arm();
    const stepped = this.objectSystem.step(w, e);
    // A poison body's crash counts as a POST for the quiet test, as in the object system's (outbox-system.ts, endPass).
    return { w, next: stepped.state, posted: stepped.tags.includes('layer:post') || stepped.tags.includes(POISON_CRASH_TAG), watched, proxied: reads !== null, stepReads, stepperBefore };
  }

  /**
   * Steps the object system once and records the difference as a program.
   * Written as a few small methods with indexed loops (no iterators, no
   * closure per call, the error texts in {@link keyMisses}): one method was
   * 4 KB of bytecode, optimised again at each new branch a suite world took
   * (six times in the suite), at about 40 ms of compile time each.
   */
  private derive(s: Int32Array, e: WorldEvent): Int32Array {
    this.derived++;
    const layout = this.layout;
    // The slots of a projected key are watched (the step is given proxies that note what it reads), unless a step under its projections read beyond them before.
    const watchWorld = this.projectCount > 0 && !this.beyondKey(this.worldBeyondKeys, false);
    let run = this.stepOnce(s, e, watchWorld);
    if (watchWorld && this.reads.beyond) {
      // A proxy read beyond its projection may have been kept in the next world (an archived live file): stepped again on the plain slots, keyed by them.
      this.beyondKey(this.worldBeyondKeys, true);
      run = this.stepOnce(s, e, false);
    }
    const { w, next, watched, proxied, stepReads, stepperBefore } = run;
    const goneKeyed = this.isKeyed(layout.globals + L.PARKED_GONE);
    const reads = watchWorld ? this.reads : null;
    reads?.close();
    this.lastPosted = run.posted;
    // A watched slot the step wrote is written whatever it was: its old value is not known to equal the new one.
    const written = new Set<number>();
    if (proxied) this.unwrapUntouched(w, next, watched, written);
    const t = layout.packAfter(w, s, next, this.tables);
    stepReads?.disarm();
    if (reads?.escaped === true || stepReads?.escaped === true) throw escaped(e);
    this.lastWithin = watchWorld && !this.reads.beyond;
    this.lastReadSet = stepReads === null ? -1 : this.readSetOf(s, next, stepReads, stepperBefore, written);
    for (let i = 0; i < watched.length; i++) {
      if (proxied && this.projectHow[i] === UNTOUCHED) continue;
      const pos = this.projectSlot[i];
      if (next[PER_ID_MAPS[pos % PER_ID]][layout.ids[Math.floor(pos / PER_ID)]] !== watched[i]) written.add(pos);
    }
    if (this.overwritten >= 0 && next.reported[layout.ids[Math.floor(this.overwritten / PER_ID)]] !== UNWRITTEN) written.add(this.overwritten);
    const ops: number[] = [];
    this.diffIds(s, t, written, ops, e);
    this.diffList(ARCHIVED, OP_APPEND_ARCHIVED, w.archived, next.archived, s, t, ops, e);
    this.diffList(QUARANTINED, OP_APPEND_QUARANTINED, w.quarantined, next.quarantined, s, t, ops, e);
    this.diffWorld(next, goneKeyed, s, t, ops, e);
    this.deriveEngines(w, next, e, ops);
    return new Int32Array(ops);
  }

  /**
   * Puts the plain maps back in place of the proxies of {@link UNTOUCHED}
   * slots, in the world stepped and the next one, so that packing reads no
   * proxy; a map the step replaced notes its slot written. Only identities
   * are compared: no proxy is accessed. A proxy kept anywhere else in the
   * next world is read by packing, after the watch closed: an escape.
   */
  private unwrapUntouched(w: World, next: World, watched: readonly unknown[], written: Set<number>): void {
    for (let i = 0; i < this.projectCount; i++) {
      if (this.projectHow[i] !== UNTOUCHED) continue;
      const map = PER_ID_MAPS[this.projectSlot[i] % PER_ID];
      const plain = this.untouchedMaps[i];
      // The plain map in `next` was put back for another id of the same map (the step never held it).
      if (next[map] === watched[i]) next[map] = plain as never;
      else if (next[map] !== plain) written.add(this.projectSlot[i]);
      w[map] = plain as never;
    }
  }

  /**
   * After an engine's step watched through its record (`step-reads.ts`):
   * notes in `written` whether it replaced the record, and gives the set of
   * paths it read when its program can be kept under them, else -1.
   */
  private readSetOf(s: Int32Array, next: World, stepReads: StepReads, stepperBefore: RecordSlot | undefined, written: Set<number>): number {
    const stepperId = this.layout.ids[Math.floor(this.stepperSlot / PER_ID)];
    const replaced = next.records[stepperId] !== stepperBefore;
    if (replaced) written.add(this.stepperSlot);
    // One statechart step that read only what its paths name; and no parked record replaced (the parked-body note then reads its body).
    const parked = stepperBefore?.kind === 'record' && stepperBefore.record.status === 'PARKED';
    const { paths, values } = stepReads.watch;
    if (stepReads.watch.beyond) this.beyondKey(this.beyondKeys, true);
    if (stepReads.calls === 1 && !stepReads.whole && !(replaced && parked) && this.readCodes.codable(paths)) {
      this.readCodes.check(this.stepperVersion, s[this.stepperSlot], paths, values);
      return this.readCodes.setOf(paths);
    }
    return -1;
  }

  /** The per-id slots the step wrote, each set whole; one outside the key throws. */
  private diffIds(s: Int32Array, t: Int32Array, written: Set<number>, ops: number[], e: WorldEvent): void {
    const g = this.layout.globals;
    for (let pos = 0; pos < g; pos++) {
      if (t[pos] === s[pos] && !written.has(pos)) continue;
      if (!this.isKeyed(pos) && pos !== this.overwritten) throw keyMisses(`slot ${pos} of id ${this.layout.ids[Math.floor(pos / PER_ID)]} changed`, e);
      ops.push(OP_SET, pos, t[pos]);
    }
  }

  /** A list slot (archived, quarantined): set whole where keyed, else the files the step appended. */
  private diffList(slot: number, op: number, before: readonly ResultFile[], after: readonly ResultFile[], s: Int32Array, t: Int32Array, ops: number[], e: WorldEvent): void {
    const pos = this.layout.globals + slot;
    if (t[pos] === s[pos]) return;
    if (this.isKeyed(pos)) {
      ops.push(OP_SET, pos, t[pos]);
      return;
    }
    let appended = after.length > before.length;
    for (let i = 0; appended && i < before.length; i++) appended = after[i] === before[i];
    if (!appended) throw keyMisses(`list slot ${slot} changed other than by appending`, e);
    for (let i = before.length; i < after.length; i++) {
      ops.push(op, pos, op === OP_APPEND_ARCHIVED ? this.tables.files.id(after[i]) : this.quarantinedFiles.id(after[i] as QuarantinedFile));
    }
  }

  /** The world-wide slots: the sets (published, parked, parked and gone), a kind's own slots, the counters. */
  private diffWorld(next: World, goneKeyed: boolean, s: Int32Array, t: Int32Array, ops: number[], e: WorldEvent): void {
    const g = this.layout.globals;
    const strings = this.tables.strings;
    for (let i = 0; i < next.published.length; i++) ops.push(OP_ADD_PUBLISHED, g + PUBLISHED, strings.id(next.published[i]));
    for (let i = 0; i < next.parkedAttempts.length; i++) ops.push(OP_ADD_PARKED, g + PARKED, strings.id(next.parkedAttempts[i]));
    if (goneKeyed) {
      if (t[g + L.PARKED_GONE] !== s[g + L.PARKED_GONE]) ops.push(OP_SET, g + L.PARKED_GONE, t[g + L.PARKED_GONE]);
    } else {
      for (let i = 0; i < next.parkedGone.length; i++) ops.push(OP_ADD_PUBLISHED, g + L.PARKED_GONE, strings.id(next.parkedGone[i]));
    }
    if (t[g + HEALING] !== s[g + HEALING]) throw keyMisses('the healing flag changed', e);
    // A kind's own slots (late landing's POSTs in transit, a dedupe window's memory, the clock) are written whole, by events keyed on them only.
    for (let k = 0; k < KIND_SLOTS.length; k++) {
      const pos = g + KIND_SLOTS[k];
      if (t[pos] === s[pos]) continue;
      if (!this.isKeyed(pos)) throw keyMisses(`the world slot ${pos - g} changed`, e);
      ops.push(OP_SET, pos, t[pos]);
    }
    for (let k = 0; k < COUNTERS.length; k++) {
      const pos = g + COUNTERS[k];
      if (t[pos] === s[pos]) continue;
      if (this.isKeyed(pos)) ops.push(OP_SET, pos, t[pos]);
      else ops.push(OP_ADD, pos, t[pos] - s[pos]);
    }
  }

  private deriveEngines(w: World, next: World, e: WorldEvent, ops: number[]): void {
    const named = 'pid' in e ? e.pid : -1;
    for (let i = 0; i < w.engines.length; i++) {
      const p = w.engines[i];
      const q = engineOf(next.engines, p.pid);
      if (q === p) continue;
      if (p.pid !== named) throw keyMisses(`engine e${p.pid}, not the one the event names, changed`, e);
      if (q === undefined) ops.push(OP_ENGINE_REMOVE, p.pid, 0);
      else ops.push(OP_ENGINE_REPLACE, p.pid, this.tables.procs.id(q));
    }
    let last = -1;
    for (let i = 0; i < next.engines.length; i++) {
      const q = next.engines[i];
      if (engineOf(w.engines, q.pid) !== undefined) {
        if (q.pid < last) throw keyMisses('engines out of pid order', e);
        continue;
      }
      let after = q.pid >= last;
      for (let k = 0; after && k < w.engines.length; k++) after = w.engines[k].pid <= q.pid;
      if (!after) throw keyMisses('a new engine not appended in pid order', e);
      ops.push(OP_ENGINE_APPEND, 0, this.tables.procs.id(q));
      last = q.pid;
    }
  }

  private append(op: number, list: number, item: number): number {
    const memo = this.appendMemo[op];
    const k = list * 2 ** 21 + item;
    let r = memo.get(k);
    if (r === undefined) {
      r = this.appended(op, list, item);
      memo.set(k, r);
    }
    return r;
  }

  /** The list `list` after `op` adds `item`, as the object system adds it. */
  private appended(op: number, list: number, item: number): number {
    const t = this.tables;
    switch (op) {
      case OP_APPEND_ARCHIVED:
        return t.fileLists.id([...(t.fileLists.value(list) ?? []), t.files.value(item) as ResultFile]);
      case OP_APPEND_QUARANTINED:
        return t.quarantineLists.id([...(t.quarantineLists.value(list) ?? []), this.quarantinedFiles.value(item) as QuarantinedFile]);
      default: {
        const before = t.stringLists.value(list) ?? [];
        const x = t.strings.value(item) as string;
        if (before.includes(x)) return list;
        // Published bodies are kept sorted; parked attempts in the order they happened.
        return t.stringLists.id(op === OP_ADD_PUBLISHED ? [...before, x].sort() : [...before, x]);
      }
    }
  }

  /**
   * Writes the state after a program into `out`. `selfSlot`, when known, is
   * where the engine the program replaces sits (it need not be searched).
   */
  run(s: Int32Array, program: Int32Array, out: Int32Array, selfSlot = -1): void {
    // An element loop: `set` on a few ints is a slow runtime call (the hottest line of the search).
    const width = this.layout.width;
    for (let i = 0; i < width; i++) out[i] = s[i];
    const g = this.layout.globals;
    for (let i = 0; i < program.length; i += 3) {
      const op = program[i];
      const a = program[i + 1];
      const b = program[i + 2];
      switch (op) {
        case OP_SET:
          out[a] = b;
          break;
        case OP_ADD:
          out[a] += b;
          break;
        case OP_APPEND_ARCHIVED:
        case OP_APPEND_QUARANTINED:
        case OP_ADD_PUBLISHED:
        case OP_ADD_PARKED:
          out[a] = this.append(op, out[a], b);
          break;
        case OP_ENGINE_REMOVE: {
          const pos = this.engineSlot(out, a);
          const end = g + ENGINES + out[g + ENGINE_COUNT] - 1;
          // An element loop: copyWithin on a few ints is a slow runtime call.
          for (let i = pos; i < end; i++) out[i] = out[i + 1];
          out[end] = 0;
          out[g + ENGINE_COUNT]--;
          break;
        }
        case OP_ENGINE_REPLACE:
          out[selfSlot >= 0 ? selfSlot : this.engineSlot(out, a)] = b;
          break;
        case OP_ENGINE_APPEND:
          if (out[g + ENGINE_COUNT] === this.layout.enginesMax) throw new Error(`packed transitions: more than ${this.layout.enginesMax} engines`);
          out[g + ENGINES + out[g + ENGINE_COUNT]++] = b;
          break;
      }
    }
  }
}


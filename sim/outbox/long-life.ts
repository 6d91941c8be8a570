/**
 * Long life: a record that comes back to a status bigger than it left it is
 * sent through the same cycle again, round after round, until a property
 * breaks (bounded-record: its metadata passes the bound) or it stops
 * growing. A world's budgets let an id go through a few cycles; the
 * protocol asks for a bounded record however many it goes through, and a
 * rule set that adds two bytes a cycle only passes the bound after a
 * hundred. The rounds are the recorded cycle's own events taken again, each
 * enabled where it is taken, in the same world with the budgets the rounds
 * spend raised: a violation found so is a real trace (docs/properties.md,
 * 'Long life').
 */
import { locatedIn } from './life-position.ts';
import { sameCanonical } from '../core/canonical.ts';
import type { GroupedChoices, TransitionSystem, Violation } from '../core/system.ts';
import { kindOf } from './events/table.ts';
import { recordMetadataBytes } from './metadata-bytes.ts';
import type { WorldOptions } from './options.ts';
import type { World, WorldEvent } from './world.ts';
import type { OutboxRecord } from '../../model/types.ts';
import { NO_THRESHOLDS, type RuleThresholds } from './thresholds.ts';

/**
 * A cycle in a recorded run: the record of `id` entered `status` after step
 * `from` and again after step `to` (states' indices: the state after that
 * many events). A grown cycle's record is bigger the second time.
 */
export interface RecordCycle {
  id: string;
  status: string;
  from: number;
  to: number;
  /** Metadata bytes at the two entries. */
  bytesFrom: number;
  bytesTo: number;
}

/** The status of `id`'s record in `w`, or null when it has no intact record. */
function statusOf(w: World, id: string): string | null {
  const slot = w.records[id];
  return slot?.kind === 'record' ? slot.record.status : null;
}

/** Metadata bytes of `id`'s record in `w` (it has one: see {@link statusOf}). */
function bytesOf(w: World, id: string): number {
  const slot = w.records[id];
  return slot?.kind === 'record' ? recordMetadataBytes(slot.record) : 0;
}

/**
 * Calls `f` for each of `ids` whose record `after` holds is an intact record
 * written anew in a status it was not in `before` (an entry into that
 * status), with that status and its metadata bytes. What a cycle is made of,
 * for a recorded run ({@link recordCycles}) and a run that keeps no states
 * ({@link CycleWatch}) alike.
 */
function eachEntry(before: World, after: World, ids: readonly string[], f: (id: string, status: string, bytes: number, record: OutboxRecord) => void): void {
  if (before.records === after.records) return;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const slot = after.records[id];
    const was = before.records[id];
    if (slot === was || slot === undefined || slot.kind !== 'record') continue;
    const status = slot.record.status;
    if (was !== undefined && was.kind === 'record' && was.record.status === status) continue;
    f(id, status, recordMetadataBytes(slot.record), slot.record);
  }
}

/** The key of an id's entries into one status. */
const entryKey = (id: string, status: string): string => `${id}\u0000${status}`;

/**
 * The cycles of a recorded run (`states[k]`: the state after `k` events):
 * each time a record came back to a status, from its previous entry into
 * that status; with `grownOnly`, only those in which it came back bigger.
 * Shortest first. A cycle that spans the end of faults (a null event) is
 * left out: its rounds could not be taken again.
 */
export function recordCycles(states: readonly World[], events: readonly (WorldEvent | null)[], grownOnly: boolean): RecordCycle[] {
  const out: RecordCycle[] = [];
  /** By id and status, the last entry: its step and bytes. */
  const last = new Map<string, { at: number; bytes: number }>();
  /** The end of faults (the run's one null event), or -1. */
  const faultsEnd = events.indexOf(null);
  for (let k = 1; k < states.length; k++) {
    eachEntry(states[k - 1], states[k], Object.keys(states[k].records), (id, status, bytes) => {
      const key = entryKey(id, status);
      const prev = last.get(key);
      last.set(key, { at: k, bytes });
      if (prev === undefined || (grownOnly && bytes <= prev.bytes)) return;
      if (faultsEnd >= prev.at && faultsEnd < k) return;
      out.push({ id, status, from: prev.at, to: k, bytesFrom: prev.bytes, bytesTo: bytes });
    });
  }
  return out.sort((a, b) => a.to - a.from - (b.to - b.from) || a.to - b.to);
}

/** The cycles in which a record came back to a status bigger than it left it ({@link recordCycles}). */
export function grownCycles(states: readonly World[], events: readonly (WorldEvent | null)[]): RecordCycle[] {
  return recordCycles(states, events, true);
}

/** Per grouped listing (one per system), for a world not healing [0] and healing [1]: each group's index by its name. */
const groupIndexes = new WeakMap<object, (Map<string, number> | undefined)[]>();

/** The index of the group named `name` among the state's groups (`lazy.choice`), or -1. */
function groupIndex(lazy: GroupedChoices<World, WorldEvent>, state: World, name: string): number {
  let byHealing = groupIndexes.get(lazy);
  if (byHealing === undefined) groupIndexes.set(lazy, (byHealing = []));
  const h = state.healing ? 1 : 0;
  let index = byHealing[h];
  if (index === undefined) {
    index = new Map();
    for (let i = 0; i < lazy.count(state); i++) index.set(lazy.choice(state, i).group, i);
    byHealing[h] = index;
  }
  return index.get(name) ?? -1;
}

/**
 * The enabled event equal to `want` in `state`, or null. Only the group of
 * `want`'s kind is listed (each kind lists in its group: events/table.ts):
 * listing every group for every event taken again was most of a round.
 */
export function enabledEvent(system: TransitionSystem<World, WorldEvent>, state: World, want: WorldEvent): WorldEvent | null {
  for (const e of groupEvents(system, state, want)) if (sameCanonical(e, want)) return e;
  return null;
}

/** The events enabled in `state` of the group `want`'s kind lists in (events/table.ts), in the group's order. */
export function groupEvents(system: TransitionSystem<World, WorldEvent>, state: World, want: WorldEvent): readonly WorldEvent[] {
  const lazy = system.groups;
  if (lazy === undefined) {
    const name = kindOf(want).group;
    return system.choices(state).find((g) => g.group === name)?.events ?? [];
  }
  const i = groupIndex(lazy, state, kindOf(want).group);
  return i < 0 ? [] : lazy.choice(state, i).events;
}

/**
 * An event of the recorded cycle as taken in a later round: an engine it
 * names is named by its place among the engines (the recorded state's
 * place, the same place now), so a cycle that crashes an engine and starts
 * another repeats on the engines that replaced them.
 */
export function inRound(e: WorldEvent, recorded: World, now: World): WorldEvent {
  if (!('pid' in e)) return e;
  const at = recorded.engines.findIndex((p) => p.pid === e.pid);
  const pid = at < 0 || at >= now.engines.length ? e.pid : now.engines[at].pid;
  return pid === e.pid ? e : { ...e, pid };
}

/** Bounds of one long life. */
export interface LongLifeLimits {
  /** Rounds of the cycle at most. */
  roundsMax: number;
  /** Rounds after which a record no bigger than it was that many rounds before has stopped growing. */
  stallRounds: number;
  /** Steps at most, the recorded run's included. */
  stepsMax: number;
}

export const LONG_LIFE_LIMITS: LongLifeLimits = { roundsMax: 400, stallRounds: 8, stepsMax: 12_000 };

/** How a long life ended. */
export type LongLifeEnd = 'violation' | 'stopped-growing' | 'did-not-repeat' | 'rounds-bound' | 'steps-bound';

/** What taking a record's cycle again found (`End`: how it ended; long life's and deep cycles' own). */
export interface CycleLife<End extends string> {
  cycle: RecordCycle;
  /** Rounds: those taken in full (long life), or begun, the last one cut short by a violation (deep cycles). */
  rounds: number;
  /** Steps taken, the recorded run's up to the cycle included. */
  steps: number;
  end: End;
  violation: (Violation & { step: number }) | null;
  /** The events taken: the recorded run up to the cycle's end (null: faults stopped), the rounds (up to the violation), and after deep cycles' rounds the steps to quiet. */
  events: (WorldEvent | null)[];
}

/** What sending a record through one grown cycle again found. */
export type LongLife = CycleLife<LongLifeEnd>;

/**
 * The options of a world in which the cycle can be taken `rounds` more
 * times: the budgets a round may spend (operator actions, crashes,
 * corruptions) raised by that many rounds' worth. Nothing else differs.
 */
export function longLifeOptions(options: WorldOptions, rounds: number): WorldOptions {
  const raise = (n: number): number => n + n * rounds;
  return { ...options, operatorActionsMax: raise(options.operatorActionsMax), crashesMax: raise(options.crashesMax), corruptionsMax: raise(options.corruptionsMax) };
}

/**
 * A cycle being taken again: from the state the recorded run reached at the
 * cycle's end, in `system` (a world of {@link longLifeOptions}), with the
 * events taken so far, the recorded run's up to there first (the end of
 * faults included, when the cycle came after it). A world's options are not
 * in its state, so that state is the same in the world of raised budgets,
 * where all the recorded events are enabled.
 */
export class CycleRounds {
  state: World;
  readonly taken: (WorldEvent | null)[];
  /** Rounds taken in full. */
  rounds = 0;
  private readonly always: TransitionSystem<World, WorldEvent>['properties'];

  constructor(
    readonly system: TransitionSystem<World, WorldEvent>,
    private readonly events: readonly (WorldEvent | null)[],
    private readonly states: readonly World[],
    readonly cycle: RecordCycle,
  ) {
    this.always = system.properties.filter((p) => p.kind === 'always');
    this.taken = events.slice(0, cycle.to);
    this.state = states[cycle.to];
  }

  /**
   * Takes the cycle's events once more, each only where it is enabled (one
   * that is not, the work of another id or a body already written, is left
   * out), checking the `always` properties after every step: a violation;
   * 'steps-bound' when `stepsMax` events were taken; 'not-back' when the
   * record is not back in the cycle's status; null when it is (a round).
   */
  round(stepsMax: number): (Violation & { step: number }) | 'steps-bound' | 'not-back' | null {
    // A decision that breaks in a step is placed after the events taken so far (life-position.ts).
    return locatedIn(() => this.taken, () => this.roundFrom(stepsMax));
  }

  private roundFrom(stepsMax: number): (Violation & { step: number }) | 'steps-bound' | 'not-back' | null {
    const { cycle, system } = this;
    for (let k = cycle.from; k < cycle.to; k++) {
      if (this.taken.length >= stepsMax) return 'steps-bound';
      const event = enabledEvent(system, this.state, inRound(this.events[k] as WorldEvent, this.states[k], this.state));
      if (event === null) continue;
      this.state = system.step(this.state, event).state;
      this.taken.push(event);
      const v = this.broken(this.state);
      if (v !== null) return { ...v, step: this.taken.length };
    }
    if (statusOf(this.state, cycle.id) !== cycle.status) return 'not-back';
    this.rounds++;
    return null;
  }

  /** The first `always` property `w` breaks, or null: what each step of a round is checked against. */
  broken(w: World): Violation | null {
    for (const p of this.always) {
      const v = p.check(w);
      if (v !== null) return v;
    }
    return null;
  }

  /** Metadata bytes of the cycle's record now. */
  bytes(): number {
    return bytesOf(this.state, this.cycle.id);
  }
}

/**
 * Takes a grown cycle again, round after round ({@link CycleRounds}), until
 * a property breaks, the record stops growing (no bigger than it was
 * `stallRounds` rounds before), the cycle no longer comes back, or a bound.
 */
export function liveLong(
  system: TransitionSystem<World, WorldEvent>,
  events: readonly (WorldEvent | null)[],
  states: readonly World[],
  cycle: RecordCycle,
  limits: LongLifeLimits = LONG_LIFE_LIMITS,
): LongLife {
  const r = new CycleRounds(system, events, states, cycle);
  const end = (how: LongLifeEnd, violation: LongLife['violation'] = null): LongLife => ({ cycle, rounds: r.rounds, steps: r.taken.length, end: how, violation, events: r.taken });
  const sizes: number[] = [r.bytes()];
  for (;;) {
    if (r.rounds >= limits.roundsMax) return end('rounds-bound');
    const out = r.round(limits.stepsMax);
    if (out === 'steps-bound') return end('steps-bound');
    if (out === 'not-back') return end('did-not-repeat');
    if (out !== null) return end('violation', out);
    sizes.push(r.bytes());
    if (r.rounds >= limits.stallRounds && sizes[r.rounds] <= sizes[r.rounds - limits.stallRounds]) return end('stopped-growing');
  }
}

/**
 * The cheap form of {@link grownCycles} for a run that keeps no states: told
 * each step's states, it notes whether any record came back to a status
 * bigger than at its previous entry into it (then the run is recorded again
 * and its cycles sent round: `check.ts`).
 */
export class CycleWatch {
  /** A record came back to a status bigger than it left it. */
  grew = false;
  /** A record came back to a status it had been in (bigger or not). */
  returned = false;
  /** A record came back to a status with a field of `thresholds` larger than at its previous entry, and still below one of its thresholds. */
  toward = false;
  /** By id and status, the metadata bytes at the last entry. */
  private readonly last = new Map<string, number>();
  /** By id and status, the watched fields' values at the last entry (with `thresholds` only). */
  private readonly counted = new Map<string, number[]>();
  private readonly fields: readonly string[];

  /**
   * `ids`: the world's ids (a list read in order costs less per step than a
   * walk of the records' keys); `thresholds`: the values a rule set acts
   * past (thresholds.ts).
   */
  constructor(
    private readonly ids: readonly string[],
    private readonly thresholds: RuleThresholds = NO_THRESHOLDS,
  ) {
    this.fields = [...thresholds.byField.keys()];
  }

  step(before: World, after: World): void {
    if (!this.grew || (this.fields.length > 0 && !this.toward)) eachEntry(before, after, this.ids, this.entered);
  }

  private readonly entered = (id: string, status: string, bytes: number, record: OutboxRecord): void => {
    const key = entryKey(id, status);
    const prev = this.last.get(key);
    this.last.set(key, bytes);
    if (this.fields.length > 0 && !this.toward) this.count(key, record);
    if (prev === undefined) return;
    this.returned = true;
    if (bytes > prev) this.grew = true;
  };

  /** Notes the watched fields of a record entering a status: one larger than at the last entry, below a threshold live for the record (RuleThresholds.live), counts toward it. */
  private count(key: string, record: OutboxRecord): void {
    const now = this.fields.map((f) => record[f]);
    const was = this.counted.get(key);
    this.counted.set(key, now.map((v) => (typeof v === 'number' ? v : Number.NaN)));
    if (was === undefined) return;
    for (let i = 0; i < now.length; i++) {
      const v = now[i];
      // Any seed's run goes deep toward a near threshold only; a sampled seed's deep run may aim further (deep-cycles.ts).
      if (typeof v === 'number' && v > was[i] && this.thresholds.nextLive(this.fields[i], v, record, false) !== undefined) this.toward = true;
    }
  }
}

/** `system` with each step told to `watch` (the run's own steps: the end of faults is not a step). */
export function watchCycles(system: TransitionSystem<World, WorldEvent>, watch: CycleWatch): TransitionSystem<World, WorldEvent> {
  const step = system.step;
  return {
    ...system,
    step: (state, event) => {
      const out = step(state, event);
      watch.step(state, out.state);
      return out;
    },
  };
}

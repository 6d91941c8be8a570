/**
 * The enabled events that are not an engine's, listed straight off the
 * vector in the object system's order: `middle` (after the broker's answers,
 * before the crashes) the restarts, upgrades, the producer and the operator's
 * actions; `last` (after the crashes) the corruptions, field corruptions among them,
 * the stalls, the payloads altered and the bodies marked poison.
 */
import { holdsPostLegacyField, schemaOf } from '../../../model/schema.ts';
import { isPending, STATUSES } from '../../../model/types.ts';
import type { WorldEvent } from '../world.ts';
import type { PackedContext } from './context.ts';
import { EventCache } from './event-cache.ts';
import { kindOn } from './kinds.ts';
import * as L from './layout.ts';
import { emptyList } from '../world-copy.ts';
import { healedWaitTo, waitToOf } from '../events/clock.ts';
import { UsageError } from '../../usage-error.ts';
import { newestSchema } from '../events/faults.ts';
import { sweepOf, sweptBy } from '../events/retention.ts';
import { payloadAltered, payloadIntact } from '../../../model/record.ts';
import { PairTable } from '../../core/pair-table.ts';

// Slot positions copied to module constants (see transitions.ts).
const { CLAIM, CLOCK, CORRUPTIONS, DEDUPE, ENGINE_COUNT, ENGINES, HEALING, IN_TRANSIT, LIVE, OPERATOR, PER_ID, POISONED, PRODUCED, PUBLISHED, QUARANTINED, REC, SWEEPS } = L;
const code = EventCache.code;
/** An engine's lifecycle states, numbered as engine-events.ts numbers them in event codes. */
const STATES = ['idle', 'claiming', 'preSend', 'posting', 'completing', 'releasing', 'disposing'] as const;

/**
 * The ids some engine is working on (not idle, its context on the id), one
 * bit per id: the retention sweeper leaves them alone, so the events listed
 * here read this much of the engines (world-programs.ts keys its memo by it).
 */
/** The latest tick a packed state holds (its slots are 32-bit integers). */
const CLOCK_MAX = 0x7fffffff;

export function busyIdsOf(c: PackedContext, s: Int32Array): number {
  const { g, ids, tables } = c;
  let busy = 0;
  for (let k = 0; k < s[g + ENGINE_COUNT]; k++) {
    const proc = tables.procs.value(s[g + ENGINES + k]);
    if (proc === undefined || proc.state === 'idle' || proc.ctx.id === null) continue;
    const j = ids.indexOf(proc.ctx.id);
    if (j >= 0) busy |= 1 << j;
  }
  return busy;
}

/** Lists events of a state into `out`. */
export type Lister = (s: Int32Array, out: WorldEvent[]) => void;

export function worldEvents(c: PackedContext): { middle: Lister; last: Lister } {
  const { options, worldRules, ids, tables, g, skew } = c;
  // legacy-record drops the fields the checked rule set declares introduced after the legacy schema (events/faults.ts).
  const schema = schemaOf(worldRules.rules);
  // newer-schema rewrites a record of a schema the world knows as the next one (events/faults.ts).
  const newest = newestSchema(worldRules);
  const on = {
    tearRecord: kindOn(options, 'tear-record'),
    newerSchema: kindOn(options, 'newer-schema'),
    legacyRecord: kindOn(options, 'legacy-record'),
    tearClaim: kindOn(options, 'tear-claim'),
    fieldCorrupt: kindOn(options, 'field-corrupt'),
    alterPayload: kindOn(options, 'alter-payload'),
    poison: kindOn(options, 'poison'),
  };
  // Poison bodies (events/poison.ts): how many may be marked.
  const poisonMax = options.settings?.poison ?? 0;
  /**
   * A record's field corruptions (one per declared field it holds and
   * damage, events/field-corrupt.ts) depend on the record and the checked
   * rule set's schema only: listed once per distinct record, by the object
   * system itself on the world the state stands for, and kept per id.
   */
  // The clock (events/clock.ts): its horizon (0: no clock) and, with stalls on, the lease (0: no stall).
  const horizon = kindOn(options, 'tick') ? (options.settings?.ticks ?? 0) : 0;
  const stallLease = horizon > 0 && kindOn(options, 'stall') ? (options.settings?.lease ?? 0) : 0;
  // Long waits (events/clock.ts): `jump` ticks at once while faults last; at least LONG_WAIT_TICKS once they stop (`healedWaitTo`).
  const jump = horizon > 0 && kindOn(options, 'long-wait') ? (options.settings?.jump ?? 0) : 0;
  // The instant a seed's long waits may also go to while faults last (WorldOptions.waitTo; waitToOf in events/clock.ts).
  const waitTo = horizon > 0 && kindOn(options, 'long-wait') ? waitToOf(options) : 0;
  // Time's events by the tick they move the clock to: once faults stop the clock has no bound, so
  // a tick cannot be folded into a number code beside the kind (as a stall's, whose tick is below
  // the horizon plus a lease, is) without two ticks sharing one code.
  const tickEvents = new Map<number, WorldEvent>();
  const longWaits = new Map<number, WorldEvent>();
  const timeEvent = (events: Map<number, WorldEvent>, to: number, make: () => WorldEvent): WorldEvent => {
    let e = events.get(to);
    if (e === undefined) {
      e = make();
      events.set(to, e);
    }
    return e;
  };
  const pushTick = (s: Int32Array, out: WorldEvent[], healed: boolean): void => {
    const to = s[g + CLOCK] + 1;
    out.push(timeEvent(tickEvents, to, () => ({ kind: 'tick', to })));
    if (jump !== 0) {
      const wait = healed ? healedWaitTo(s[g + CLOCK], jump) : s[g + CLOCK] + jump;
      // A packed state holds the clock in 32 bits: past them the search would run on a wrapped clock.
      if (wait > CLOCK_MAX) throw new UsageError(`the clock would pass tick ${CLOCK_MAX.toLocaleString('en-US')}, the most a searched state holds (a long wait of ${jump.toLocaleString('en-US')} ticks from tick ${s[g + CLOCK].toLocaleString('en-US')}): give explore a smaller --ticks or --jump`);
      out.push(timeEvent(longWaits, wait, () => ({ kind: 'long-wait', to: wait })));
    }
    // In the order the object world lists them (events/clock.ts, longWait): the wait of `jump` ticks, then the one to `waitTo`.
    if (!healed && waitTo > s[g + CLOCK] && waitTo !== s[g + CLOCK] + jump) out.push(timeEvent(longWaits, waitTo, () => ({ kind: 'long-wait', to: waitTo })));
  };
  /** Whether engine `pid` holds a claim whose lease has not expired at `now`. */
  const liveLease = (s: Int32Array, pid: number, now: number): boolean => {
    for (let j = 0; j < ids.length; j++) {
      const claim = tables.claims.value(s[j * PER_ID + CLAIM]);
      if (claim?.kind === 'held' && claim.owner === pid && claim.until !== undefined && claim.until > now) return true;
    }
    return false;
  };
  const landOn = kindOn(options, 'land');
  const dedupeWindow = kindOn(options, 'forget') ? (options.settings?.dedupeWindow ?? 0) : 0;
  /** The landings of a list of POSTs in transit, one per POST, by the list's id. */
  const landings = new Map<number, WorldEvent[]>();
  const landingsOf = (list: number): WorldEvent[] => {
    let events = landings.get(list);
    if (events === undefined) {
      const inTransit = tables.transitLists.value(list) ?? [];
      // A loop, not `map` (see `programsOf` in arrays.ts).
      events = emptyList<WorldEvent>();
      for (let index = 0; index < inTransit.length; index++) events.push({ kind: 'land', index, id: inTransit[index].id, body: inTransit[index].body });
      landings.set(list, events);
    }
    return events;
  };
  const sweepsMax = kindOn(options, 'sweep') ? (options.settings?.retention ?? 0) : 0;
  const busyIds = (s: Int32Array): number => busyIdsOf(c, s);
  const fieldCorruptions = ids.map(() => new Map<number, WorldEvent[]>());
  const fieldCorruptionsOf = (s: Int32Array, j: number): WorldEvent[] => {
    const rec = s[j * PER_ID + REC];
    let list = fieldCorruptions[j].get(rec);
    if (list === undefined) {
      const id = ids[j];
      const all = c.objectSystem.choices(c.layout.unpack(s, tables)).flatMap((group) => group.events);
      list = all.filter((e) => e.kind === 'field-corrupt' && e.id === id);
      fieldCorruptions[j].set(rec, list);
    }
    return list;
  };

  // `middle` and `last` call a small function per part (written out once each, not per call), each
  // part called whether or not its kind is on, and asking itself: one function of every part was 3 KB
  // of bytecode, compiled again whenever a suite world first listed a kind of its own (a clock, a
  // sweep), at tens of milliseconds a compile; a call first made in a later world would throw the
  // caller's code away too.
  /** The broker's own steps: it forgets an id whose entry is as old as the window (not while healing), then a POST in transit lands (also while healing). */
  const brokerSteps = (s: Int32Array, out: WorldEvent[]): void => {
    if (dedupeWindow > 0 && s[g + HEALING] === 0 && s[g + DEDUPE] !== 0) {
      const memory = tables.dedupeMemories.value(s[g + DEDUPE]) ?? {};
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        const age = memory[id];
        if (age !== undefined && age >= dedupeWindow) out.push(c.events.get(code(17, 0, j), () => ({ kind: 'forget', id })));
      }
    }
    if (landOn && s[g + IN_TRANSIT] !== 0) {
      const landed = landingsOf(s[g + IN_TRANSIT]);
      for (let i = 0; i < landed.length; i++) out.push(landed[i]);
    }
  };
  /** With a clock, time passing (a tick, then a long wait): up to its horizon, or once faults stop (`healed`) without one. */
  const ticks = (s: Int32Array, out: WorldEvent[], healed: boolean): void => {
    if (horizon > 0 && (healed || s[g + CLOCK] < horizon)) pushTick(s, out, healed);
  };
  /** Under skew, an upgrade of each old engine. */
  const upgrades = (s: Int32Array, out: WorldEvent[], count: number): void => {
    if (!skew) return;
    for (let k = 0; k < count; k++) {
      const proc = tables.procs.value(s[g + ENGINES + k]);
      if (proc?.version === 'old') {
        const pid = proc.pid;
        out.push(c.events.get(code(5, pid, 0), () => ({ kind: 'upgrade', pid })));
      }
    }
  };
  /** As events/operator.ts: each action once per deployed version's tool (the old one's under skew). */
  const operatorActions = (s: Int32Array, out: WorldEvent[]): void => {
    if (s[g + OPERATOR] >= options.operatorActionsMax) return;
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j];
      const slot = tables.records.value(s[j * PER_ID + REC]);
      if (slot?.kind === 'record' && slot.record.status === 'PARKED') {
        out.push(c.events.get(code(7, 0, 2 * j), () => ({ kind: 'requeue', id, reset: false })));
        if (skew) out.push(c.events.get(code(7, 1, 2 * j), () => ({ kind: 'requeue', id, reset: false, version: 'old' })));
        out.push(c.events.get(code(7, 0, 2 * j + 1), () => ({ kind: 'requeue', id, reset: true })));
        if (skew) out.push(c.events.get(code(7, 1, 2 * j + 1), () => ({ kind: 'requeue', id, reset: true, version: 'old' })));
      }
      if (slot?.kind === 'record' && isPending(slot.record.status)) {
        out.push(c.events.get(code(14, 0, j), () => ({ kind: 'resubmit', id })));
        if (skew) out.push(c.events.get(code(14, 1, j), () => ({ kind: 'resubmit', id, version: 'old' })));
      }
    }
    const quarantined = tables.quarantineLists.value(s[g + QUARANTINED]) ?? [];
    for (let index = 0; index < quarantined.length; index++) {
      if (s[ids.indexOf(quarantined[index].id) * PER_ID + LIVE] === 0) out.push(c.events.get(code(8, 0, index), () => ({ kind: 'restore', index })));
    }
  };
  /**
   * The retention sweeper (events/retention.ts), after the operator's own actions and outside their budget:
   * the records the checked rule set's sweeper takes (`sweepable`, told the clock; default: DELIVERED with a
   * payload). Its answer depends on the record and the clock, both in the prefix world-programs.ts memoises on.
   */
  const sweeper = worldRules.rules;
  const sweeps = (s: Int32Array, out: WorldEvent[]): void => {
    if (s[g + SWEEPS] >= sweepsMax) return;
    const busy = busyIds(s);
    for (let j = 0; j < ids.length; j++) {
      if ((busy & (1 << j)) !== 0) continue;
      const slot = tables.records.value(s[j * PER_ID + REC]);
      if (slot?.kind !== 'record') continue;
      const id = ids[j];
      if (sweptBy(sweeper, slot, id, s[g + CLOCK])) {
        const status = slot.record.status;
        // A code per status: the event names a status other than DELIVERED.
        out.push(c.events.get(code(15, STATUSES.indexOf(status), j), () => sweepOf(id, status)));
      }
    }
  };

  const middle: Lister = (s, out) => {
    brokerSteps(s, out);
    const healing = s[g + HEALING] === 1;
    const count = s[g + ENGINE_COUNT];
    if (count < options.engines) {
      out.push(c.events.get(code(4, 0, 0), () => ({ kind: 'restart', version: 'new' })));
      if (skew && !healing) out.push(c.events.get(code(4, 0, 1), () => ({ kind: 'restart', version: 'old' })));
    }
    // Time passes (events/clock.ts) after the restarts and upgrades; once faults stop, without a horizon.
    if (healing) {
      ticks(s, out, true);
      return;
    }
    upgrades(s, out, count);
    ticks(s, out, false);
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j];
      if ((tables.numbers.value(s[j * PER_ID + PRODUCED]) ?? 0) < options.bodiesPerId) out.push(c.events.get(code(6, 0, j), () => ({ kind: 'produce', id })));
    }
    operatorActions(s, out);
    sweeps(s, out);
  };

  /** While corruptions are left, per id: its record's corruptions and its claim's tear. */
  const corruptions = (s: Int32Array, out: WorldEvent[]): void => {
    if (s[g + CORRUPTIONS] >= options.corruptionsMax) return;
    for (let j = 0; j < ids.length; j++) corruptionsOf(s, out, j);
  };
  const corruptionsOf = (s: Int32Array, out: WorldEvent[], j: number): void => {
    const id = ids[j];
    const slot = tables.records.value(s[j * PER_ID + REC]);
    if (slot?.kind === 'record') {
      if (on.tearRecord) out.push(c.events.get(code(10, 0, j), () => ({ kind: 'tear-record', id })));
      if (slot.record.schema <= newest && on.newerSchema) out.push(c.events.get(code(11, 0, j), () => ({ kind: 'newer-schema', id })));
      if (holdsPostLegacyField(slot.record, schema) && !payloadAltered(slot.record) && on.legacyRecord) out.push(c.events.get(code(12, 0, j), () => ({ kind: 'legacy-record', id })));
    }
    if (tables.claims.value(s[j * PER_ID + CLAIM])?.kind === 'held' && on.tearClaim) {
      out.push(c.events.get(code(13, 0, j), () => ({ kind: 'tear-claim', id })));
    }
    if (on.fieldCorrupt) {
      const corrupt = fieldCorruptionsOf(s, j);
      for (let i = 0; i < corrupt.length; i++) out.push(corrupt[i]);
    }
  };
  /** Last of the faults, per engine: a stall past the lease of a claim it holds (events/clock.ts). */
  const stalls = (s: Int32Array, out: WorldEvent[]): void => {
    if (stallLease === 0 || s[g + CLOCK] >= horizon) return;
    const now = s[g + CLOCK];
    for (let k = 0; k < s[g + ENGINE_COUNT]; k++) {
      const proc = tables.procs.value(s[g + ENGINES + k]);
      if (proc === undefined || !liveLease(s, proc.pid, now)) continue;
      const { pid, state: at } = proc;
      const to = now + stallLease;
      out.push(c.events.get(code(19, pid, STATES.indexOf(at)) + to * 2 ** 29, () => ({ kind: 'stall', pid, at, to })));
    }
  };

  /**
   * A published body of id `j` marked poison (events/poison.ts): each body of the id published and not yet
   * marked, in the published list's order, while fewer than the budget are marked. By the two lists (both
   * in the prefix world-programs.ts memoises on), kept per id.
   */
  const poisonings = ids.map(() => new PairTable());
  const poisoningLists: WorldEvent[][] = emptyList();
  const poisoningsOf = (s: Int32Array, j: number): WorldEvent[] => {
    const published = s[g + PUBLISHED];
    const marked = s[g + POISONED];
    let x = poisonings[j].get(published, marked);
    if (x < 0) {
      const id = ids[j];
      const prefix = `${id}:`;
      const done = tables.stringLists.value(marked) ?? [];
      const list: WorldEvent[] = emptyList();
      for (const pub of tables.stringLists.value(published) ?? []) {
        if (pub.startsWith(prefix) && !done.includes(pub)) list.push({ kind: 'poison', id, body: pub.slice(prefix.length) });
      }
      poisonings[j].set(published, marked, (x = poisoningLists.length));
      poisoningLists.push(list);
    }
    return poisoningLists[x];
  };
  /**
   * After the stalls (the fault group's last entries, events/alter-payload.ts and events/poison.ts, one run
   * of entries per id), per id: a payload altered, its digest kept; then a body of the id marked poison.
   */
  const alterations = (s: Int32Array, out: WorldEvent[]): void => {
    const alter = on.alterPayload && s[g + CORRUPTIONS] < options.corruptionsMax;
    const poison = on.poison && (tables.stringLists.value(s[g + POISONED])?.length ?? 0) < poisonMax;
    if (!alter && !poison) return;
    for (let j = 0; j < ids.length; j++) {
      if (alter) {
        const slot = tables.records.value(s[j * PER_ID + REC]);
        if (slot?.kind === 'record' && payloadIntact(slot.record)) {
          const id = ids[j];
          out.push(c.events.get(code(20, 0, j), () => ({ kind: 'alter-payload', id })));
        }
      }
      if (poison) {
        const marks = poisoningsOf(s, j);
        for (let i = 0; i < marks.length; i++) out.push(marks[i]);
      }
    }
  };

  const last: Lister = (s, out) => {
    if (s[g + HEALING] === 1) return;
    corruptions(s, out);
    stalls(s, out);
    alterations(s, out);
  };

  return { middle, last };
}

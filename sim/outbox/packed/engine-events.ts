/**
 * One engine's enabled events, listed straight off the vector in the object
 * system's order: in `idle` a scan of each id with a live file, else a drain
 * of each id whose record its rule set selects; in `posting` each broker
 * answer of the table the broker may give; in any other state its next
 * step; and its crash, while crashes are left and switched on.
 */
import { readSlot } from '../../../model/record.ts';
import { schemaOf } from '../../../model/schema.ts';
import { selects, selectsByRecordAlone } from '../../../model/rules.ts';
import { TIME_ORIGIN } from '../../../model/time.ts';
import { PairTable } from '../../core/pair-table.ts';
import { answerInWorld, answerOffered, type Answer } from '../events/broker.ts';
import type { EngineProc, WorldEvent } from '../world.ts';
import type { PackedContext } from './context.ts';
import { EventCache } from './event-cache.ts';
import { ANSWER_KINDS, kindOn } from './kinds.ts';
import * as L from './layout.ts';
import { sparseList } from './arrays.ts';
import { emptyList } from '../world-copy.ts';

// Slot positions copied to module constants (see transitions.ts).
const { CLOCK, CRASHES, HEALING, IN_TRANSIT, LIVE, PER_ID, REC } = L;
const STATES = ['idle', 'claiming', 'preSend', 'posting', 'completing', 'releasing', 'disposing'] as const;
const code = EventCache.code;
/** No crash: shared by every expansion without one (never written to). */
const NO_CRASH: WorldEvent[] = emptyList();

/** The listing functions of one world. */
export interface EngineEvents {
  /** Appends the engine's own events and the broker's answers to its POST. */
  list(s: Int32Array, proc: EngineProc, engineEvents: WorldEvent[], brokerEvents: WorldEvent[]): void;
  /** The engine's crash, when crashes are still allowed (empty otherwise). */
  crash(s: Int32Array, proc: EngineProc): WorldEvent[];
}

export function engineEvents(c: PackedContext): EngineEvents {
  const { options, worldRules, ids, tables, g, events } = c;
  const answers = ANSWER_KINDS.map((k) => k.name as Answer);
  // An answer the same as another is in this world only where a rule set tells its reply apart (events/broker.ts);
  // asked when an engine first posts, as the object system asks it.
  let answerIn: readonly boolean[] | null = null;
  const crashOn = kindOn(options, 'crash');
  const inTransitMax = kindOn(options, 'timeout-in-transit') ? (options.settings?.lateLanding ?? 0) : 0;
  const schemaKnown = { new: worldRules.rules.schemaKnown, old: (worldRules.oldRules ?? worldRules.rules).schemaKnown };
  const shapes = { new: worldRules.rules.recordShape, old: (worldRules.oldRules ?? worldRules.rules).recordShape };
  const schemas = { new: schemaOf(worldRules.rules), old: schemaOf(worldRules.oldRules ?? worldRules.rules) };
  const rulesFor = { new: worldRules.rules, old: worldRules.oldRules ?? worldRules.rules };

  /**
   * Whether an engine would drain a record slot: it reads as a READY record its
   * rule set selects. Without `selectable` that depends on the version only; with
   * it, on the engine (its decision is told the pid), so the memo is per engine.
   */
  const drainable = new PairTable();
  const drainableAt = sparseList<PairTable>();
  const clocked = kindOn(options, 'tick');
  const readyFor = (s: Int32Array, recId: number, proc: EngineProc, j: number): boolean => {
    const version = proc.version;
    const rules = rulesFor[version];
    // The decision is told the id and the pid: both are in the key (at most 30 ids).
    const byRecord = selectsByRecordAlone(rules);
    const k = ((byRecord ? 0 : proc.pid) * 32 + j) * 2 + (version === 'old' ? 1 : 0);
    // `selectable` is told the time too (a retry schedule selects by it): with a clock, memoised per reading.
    const now = clocked && !byRecord ? s[g + CLOCK] : 0;
    const table = now === 0 ? drainable : (drainableAt[now] ??= new PairTable());
    let r = table.get(recId, k);
    if (r < 0) {
      const read = readSlot(tables.records.value(recId), schemaKnown[version], shapes[version], schemas[version]);
      const who = { pid: proc.pid, rules: rules.name, schema: rules.schemaKnown };
      // The decision reads the clock as every decision does, from its origin (model/time.ts).
      r = read.kind === 'found' && selects(rules, read.record, { id: ids[j], who, now: TIME_ORIGIN + now }) ? 1 : 0;
      table.set(recId, k, r);
    }
    return r === 1;
  };

  const list = (s: Int32Array, proc: EngineProc, engine: WorldEvent[], broker: WorldEvent[]): void => {
    const pid = proc.pid;
    if (proc.state === 'idle') {
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        // find, then add: no closure made per event listed (this runs at every new engine expansion).
        if (s[j * PER_ID + LIVE] !== 0) engine.push(events.find(code(0, pid, j)) ?? events.add(code(0, pid, j), { kind: 'scan', pid, id }));
        else if (readyFor(s, s[j * PER_ID + REC], proc, j)) engine.push(events.find(code(1, pid, j)) ?? events.add(code(1, pid, j), { kind: 'drain', pid, id }));
      }
    } else if (proc.state === 'posting') {
      const healing = s[g + HEALING] === 1;
      answerIn ??= answers.map((a) => answerInWorld(a, worldRules));
      for (let i = 0; i < answers.length; i++) {
        const answer = answers[i];
        if (!answerIn[i] || !answerOffered(options, answer, healing, s[g + CRASHES])) continue;
        broker.push(events.find(code(2, pid, i)) ?? events.add(code(2, pid, i), { kind: 'answer', pid, answer }));
      }
      // Late landing's answer (events/land.ts), after the table's answers: the POST stays in transit, while fewer than the bound are.
      if (inTransitMax > 0 && !healing && (tables.transitLists.value(s[g + IN_TRANSIT])?.length ?? 0) < inTransitMax) {
        broker.push(c.events.get(code(16, pid, 0), () => ({ kind: 'post-in-transit', pid })));
      }
    } else {
      const at = proc.state;
      const k = code(3, pid, STATES.indexOf(at));
      engine.push(events.find(k) ?? events.add(k, { kind: 'step', pid, at }));
    }
  };

  const crash = (s: Int32Array, proc: EngineProc): WorldEvent[] => {
    if (s[g + CRASHES] >= options.crashesMax || !crashOn) return NO_CRASH;
    const { pid, state: at } = proc;
    const k = code(9, pid, STATES.indexOf(at));
    return [events.find(k) ?? events.add(k, { kind: 'crash', pid, at })];
  };

  return { list, crash };
}

/**
 * The liveness phase's quiet test on packed states, from the derived
 * programs instead of the object system. The object test
 * (`outboxSystem`'s `quiescent`, on the world healed: crashed engines
 * restarted, faults off) walks, for each pass each engine could start,
 * the statechart through the pass with the broker giving its steady answer,
 * and says "not quiet" when a step POSTs or the pass leaves the durable
 * parts changed. Here the same walk replays memoised programs: each start
 * and step is an event of the packed system, its program derived once from
 * the object system, so a state costs a few table probes instead of a
 * dozen statechart steps (the suite's quiet tests were a sixth of its time).
 *
 * Only for worlds where quiet is that walk alone: no clock (quiet is then
 * also judged later, and at the horizon), no kind that steps by itself (a
 * POST in transit landing). Elsewhere {@link packedQuiet} gives null and
 * the object test is asked.
 */
import { EVENT_KINDS } from '../events/table.ts';
import { hasClock } from '../events/clock.ts';
import { newEngineProc } from '../stepper.ts';
import { TupleTable } from '../../core/tuple-table.ts';
import type { WorldEvent } from '../world.ts';
import type { PackedContext } from './context.ts';
import { engineEvents } from './engine-events.ts';
import { EventCache } from './event-cache.ts';
import { expansions } from './expansion.ts';
import { ANSWER_KINDS, kindOn } from './kinds.ts';
import * as L from './layout.ts';
import { sparseInts } from './arrays.ts';
import { emptyList } from '../world-copy.ts';

// Slot positions copied to module constants (see transitions.ts).
const { ARCHIVED, BROKER, CLAIM, ENGINE_COUNT, ENGINES, HEALING, LIVE, NEXT_PID, PER_ID, QUARANTINED, REC } = L;

/** Lifecycle states in the order of `engine-events.ts`'s event codes (the same shared events). */
const STATES = ['idle', 'claiming', 'preSend', 'posting', 'completing', 'releasing', 'disposing'] as const;

/** The steps of one pass the quiet test follows before it compares (as `outboxSystem`'s `quietAt`). */
const PASS_STEPS_MAX = 32;

/**
 * The quiet test of a world, for states whose engines are all idle: true
 * when the healed state is quiet. Null for a world it does not hold for
 * (see the file comment).
 */
export function packedQuiet(c: PackedContext): ((s: Int32Array) => boolean) | null {
  const { options, layout, tables, transitions, g } = c;
  if (hasClock(options) || EVENT_KINDS.some((k) => k.bySelf === true && kindOn(options, k.name))) return null;
  // Its own expansion tables: healed states would evict the main search's one-entry caches.
  const engines = expansions(c, engineEvents(c));
  const answer = ANSWER_KINDS.findIndex((k) => k.name === options.healAnswer);
  if (answer < 0) throw new Error(`packed quiet: no answer ${options.healAnswer}`);
  const code = EventCache.code;
  const width = layout.width;
  const healed = new Int32Array(width);
  let a = new Int32Array(width);
  let b = new Int32Array(width);
  /** Engines started by healing, by pid: interned once. */
  const restarted = sparseInts();

  /** Writes into `healed` the state `s` once faults stop (`outboxSystem`'s `heal`): missing engines restarted. */
  const heal = (s: Int32Array): void => {
    for (let i = 0; i < width; i++) healed[i] = s[i];
    healed[g + HEALING] = 1;
    let pid = healed[g + NEXT_PID];
    while (healed[g + ENGINE_COUNT] < options.engines) {
      healed[g + ENGINES + healed[g + ENGINE_COUNT]++] = restartedFirst(pid);
      pid++;
    }
    healed[g + NEXT_PID] = pid;
  };

  /** Whether `t` holds the durable parts of `healed` (records, claims, live files, broker, archived, quarantined): interned ids are equal exactly when the values are. */
  const sameDurable = (t: Int32Array): boolean => {
    for (let j = 0; j < layout.ids.length; j++) {
      const o = j * PER_ID;
      if (t[o + REC] !== healed[o + REC] || t[o + CLAIM] !== healed[o + CLAIM] || t[o + LIVE] !== healed[o + LIVE] || t[o + BROKER] !== healed[o + BROKER]) return false;
    }
    return t[g + ARCHIVED] === healed[g + ARCHIVED] && t[g + QUARANTINED] === healed[g + QUARANTINED];
  };

  /** The next event of the probe's pass, `proc` not idle: the steady answer to its POST, or its next step. */
  const nextEvent = (pid: number, state: string): WorldEvent => {
    if (state === 'posting') return c.events.get(code(2, pid, answer), () => ({ kind: 'answer', pid, answer: options.healAnswer }));
    const at = state as (typeof STATES)[number];
    return c.events.get(code(3, pid, STATES.indexOf(at)), () => ({ kind: 'step', pid, at }));
  };

  /**
   * Verdicts per engine, by what its walk reads: the engine (its pid,
   * version, state and memory), the clock, and what engine steps and broker
   * answers read of the world (parked bodies gone, the broker's memory, the
   * POSTs in transit; per id the record, claim, live file, broker's holding
   * and whether the claim's holder is alive, the same before and after
   * healing: healing restarts engines under new pids). The lists the walk
   * compares (archived, quarantined) change exactly when a step appends to
   * them, whatever they hold. States differing elsewhere (other engines,
   * counters, published bodies) share an engine's verdict.
   */
  const verdicts = new TupleTable();
  const quietOf: boolean[] = emptyList();
  const key = new Int32Array(6 + PER_ID * layout.ids.length);
  const restartedFirst = (pid: number): number => (restarted[pid] ??= tables.procs.id(newEngineProc(pid, 'new', options.attemptsMax)));

  /**
   * Every engine of the healed state is asked, not the first for all: the
   * engines of a version-skewed world run two rule sets, as the object test
   * (`outboxSystem`'s `quietAt`) asks each.
   * See docs/properties.md, 'quiet-after-healing (liveness bound)'.
   */
  return (s) => {
    const alive = s[g + ENGINE_COUNT];
    if (alive === 0 && options.engines === 0) return true;
    let n = 1;
    key[n++] = s[g + L.CLOCK];
    key[n++] = s[g + L.PARKED_GONE];
    key[n++] = s[g + L.DEDUPE];
    key[n++] = s[g + L.IN_TRANSIT];
    // The bodies marked poison: a pass into the POST of one ends in a crash, which is not quiet (a crash loop).
    key[n++] = s[g + L.POISONED];
    for (let j = 0; j < layout.ids.length; j++) {
      const o = j * PER_ID;
      key[n++] = s[o + REC];
      key[n++] = s[o + CLAIM];
      key[n++] = s[o + LIVE];
      key[n++] = s[o + BROKER];
      key[n++] = transitions.holderAlive(s, j);
    }
    // The healed state's engines, read off `s` (healing appends restarted ones with the next pids): the state is healed only for a walk.
    let healedNow = false;
    for (let k = 0; k < Math.max(alive, options.engines); k++) {
      key[0] = k < alive ? s[g + ENGINES + k] : restartedFirst(s[g + NEXT_PID] + k - alive);
      const known = verdicts.find(key, n);
      let quiet: boolean;
      if (known >= 0) quiet = quietOf[known];
      else {
        if (!healedNow) {
          heal(s);
          healedNow = true;
        }
        quiet = walk(k);
        quietOf[verdicts.add(key, n)] = quiet;
      }
      if (!quiet) return false;
    }
    return true;
  };

  /** Whether engine k of `healed`, every engine idle, would POST nothing and change nothing durable in any pass it could start. */
  function walk(k: number): boolean {
    // Its engine events, all engines idle, are the starts of its passes.
    const x = engines.expansionOf(healed, k, engines.contextOf(healed, engines.prefixOf(healed)));
    const probe = tables.procs.value(healed[g + ENGINES + k]);
    if (probe === undefined) throw new Error('packed quiet: empty engine slot');
    const pid = probe.pid;
    for (let j = 0; j < x.engine.length; j++) {
      transitions.run(healed, x.enginePrograms[j], a, g + ENGINES + k);
      for (let i = 0; i < PASS_STEPS_MAX; i++) {
        const slot = transitions.engineSlot(a, pid);
        if (slot < 0) break;
        const state = tables.procs.value(a[slot])?.state;
        if (state === undefined || state === 'idle') break;
        const program = transitions.programFor(a, nextEvent(pid, state));
        transitions.run(a, program, b, slot);
        const t = a;
        a = b;
        b = t;
        if (transitions.posts(program)) return false;
      }
      if (!sameDurable(a)) return false;
    }
    return true;
  }
}

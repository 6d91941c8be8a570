/**
 * Outbox-aware reductions for the shrinker, most drastic first: drop an
 * engine (and its steps), drop a crash and the restart that replaced the
 * engine (the restarted engine's steps renamed to the engine that no longer
 * crashes), drop a body's whole lifecycle (its write and everything that
 * only it caused fails validation and is dropped later), lower the attempts
 * limit, lower the id or body counts, and simpler broker answers.
 */
import type { Reducer, Scenario } from '../core/shrink.ts';
import { ANSWER_NAMES, type WorldOptions } from './options.ts';
import type { World, WorldEvent } from './world.ts';
import { kindOf } from './events/table.ts';
import type { TransitionSystem } from '../core/system.ts';

/** Rebuilds the system for changed options. */
export type SystemFor = (options: WorldOptions) => TransitionSystem<World, WorldEvent>;

type OutboxScenario = Scenario<World, WorldEvent, WorldOptions>;

function pidOf(e: WorldEvent | null): number | null {
  return e !== null && 'pid' in e ? e.pid : null;
}

/** Removes initial engine `pid` and renumbers later pids (restarts come after the initial engines). */
function dropEngine(events: readonly (WorldEvent | null)[], pid: number): (WorldEvent | null)[] {
  return events
    .filter((e) => pidOf(e) !== pid)
    .map((e) => (e !== null && 'pid' in e && e.pid > pid ? { ...e, pid: e.pid - 1 } : e));
}

/** Whether an event's step starts an engine process (a restart, an upgrade: `processes` in its table entry). */
const startsEngine = (e: WorldEvent): boolean => kindOf(e).processes === 'starts' || kindOf(e).processes === 'ends-and-starts';

/** The pid each event that starts an engine (a restart, an upgrade) gives it, by event index: pids are handed out in turn after the initial engines'. */
function startedPids(events: readonly (WorldEvent | null)[], engines: number): Map<number, number> {
  const started = new Map<number, number>();
  let next = engines + 1;
  events.forEach((e, i) => {
    if (e !== null && startsEngine(e)) started.set(i, next++);
  });
  return started;
}

/**
 * Each crash dropped with the first restart after it. Later steps name the
 * restarted engine's pid, so removing either alone leaves them naming no
 * engine and the violation goes with them: here the restarted engine's pid
 * becomes the crashed engine's (which now lives on), later pids move down
 * by one (one pid fewer is handed out), and validation says whether the
 * violation survives. A crash and restart that did nothing then drop out.
 */
function dropCrashRestarts(events: readonly (WorldEvent | null)[], engines: number): (WorldEvent | null)[][] {
  const started = startedPids(events, engines);
  const out: (WorldEvent | null)[][] = [];
  events.forEach((e, i) => {
    if (e === null || kindOf(e).processes !== 'ends' || !('pid' in e)) return;
    const k = events.findIndex((x, j) => j > i && x !== null && kindOf(x).processes === 'starts');
    if (k < 0) return;
    const crashed = e.pid;
    const restarted = started.get(k) as number;
    const rename = (pid: number): number => (pid === restarted ? crashed : pid > restarted ? pid - 1 : pid);
    out.push(events.filter((_, j) => j !== i && j !== k).map((x) => (x !== null && 'pid' in x ? { ...x, pid: rename(x.pid) } : x)));
  });
  return out;
}

/** The outbox reducer for a system factory. */
export function outboxReducer(systemFor: SystemFor): Reducer<World, WorldEvent, WorldOptions> {
  return (s: OutboxScenario): OutboxScenario[] => {
    const out: OutboxScenario[] = [];
    const o = s.options;
    const withOptions = (options: WorldOptions, events: (WorldEvent | null)[]) => out.push({ options, system: systemFor(options), events });
    if (o.engines > 1) {
      for (let pid = o.engines; pid >= 1; pid--) withOptions({ ...o, engines: o.engines - 1 }, dropEngine(s.events, pid));
    }
    for (const events of dropCrashRestarts(s.events, o.engines)) out.push({ ...s, events });
    // Drop a body's lifecycle: its `produce` and the steps only it enabled fall away in validation.
    s.events.forEach((e, i) => {
      if (e !== null && kindOf(e).group === 'producer') out.push({ ...s, events: s.events.filter((_, j) => j !== i) });
    });
    if (o.attemptsMax > 1) withOptions({ ...o, attemptsMax: o.attemptsMax - 1 }, s.events);
    const producedPerId = new Map<string, number>();
    for (const e of s.events) if (e !== null && kindOf(e).group === 'producer' && 'id' in e) producedPerId.set(e.id, (producedPerId.get(e.id) ?? 0) + 1);
    const maxBodies = Math.max(1, ...producedPerId.values());
    if (o.bodiesPerId > maxBodies) withOptions({ ...o, bodiesPerId: maxBodies }, s.events);
    if (o.ids > 1 && !s.events.some((e) => e !== null && 'id' in e && e.id === 'b')) withOptions({ ...o, ids: 1 }, s.events);
    // Simpler broker answers: replace an answer by one earlier in the table (never later, so this ends).
    s.events.forEach((e, i) => {
      if (e === null || e.kind !== 'answer') return;
      for (const answer of ANSWER_NAMES.slice(0, ANSWER_NAMES.indexOf(e.answer))) {
        out.push({ ...s, events: s.events.map((x, j) => (j === i ? { ...e, answer } : x)) });
      }
    });
    return out;
  };
}

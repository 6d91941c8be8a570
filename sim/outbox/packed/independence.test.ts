/**
 * The footprints partial-order reduction reasons over (`independence.ts`)
 * hold on whole searches: at every state, what each enabled event reads and
 * writes lies within what its actor may ever touch, and what an actor may
 * touch only shrinks along a step (so "ever" is earned by induction); an
 * engine a step starts touches no more than the actor that started it.
 * exclusive-attempt's verdict follows from the engines' views alone.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import { exclusiveAttempt } from '../properties.ts';
import type { WorldEvent } from '../world.ts';
import { actorOf, outboxAmpleSets, type Footprint } from './independence.ts';
import * as L from './layout.ts';
import { packedOutbox } from './system.ts';

/** Resources of `inner` not within `outer` (an `anyAlive` read covers reads of whether an engine is alive; fresh pids are nobody's yet). */
function outside(inner: Footprint, outer: Footprint, base: number, nextPid: number): string[] {
  const engine = (r: number) => r >= base;
  const alive = (r: number) => engine(r) && (r - base) % 2 === 1;
  const fresh = (r: number) => engine(r) && Math.floor((r - base) / 2) >= nextPid;
  const out: string[] = [];
  for (const r of inner.reads) if (!outer.reads.has(r) && !(outer.anyAlive && alive(r)) && !fresh(r)) out.push(`reads ${r}`);
  for (const r of inner.writes) if (!outer.writes.has(r) && !fresh(r)) out.push(`writes ${r}`);
  if (inner.anyAlive && !outer.anyAlive) out.push('reads any engine alive');
  return out;
}

function check(sizes: Partial<ExploreSizes>, statesMax: number, skew = false): number {
  const options = exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes, skew });
  const worldRules = skew ? { rules: failClosed, oldRules: failClosed } : { rules: failClosed };
  const objectSystem = outboxSystem(options, worldRules, steppersFor(failClosed, skew ? failClosed : null));
  const system = packedOutbox(options, worldRules, objectSystem);
  const chooser = outboxAmpleSets(system, options, objectSystem.properties.filter((p) => p.kind === 'always'));
  const g = system.layout.globals;
  const base = g + L.ENGINES;
  const pids = (s: Int32Array): number[] => Array.from({ length: s[g + L.ENGINE_COUNT] }, (_, k) => system.tables.procs.value(s[base + k])?.pid ?? -1);
  const crashesLeft = (s: Int32Array) => s[g + L.CRASHES] < options.crashesMax;
  const seen = new Set<string>();
  const queue: Int32Array[] = [];
  const start = new Int32Array(system.width);
  system.initial(start);
  queue.push(start);
  seen.add(start.join());
  const problems: string[] = [];
  let checked = 0;
  while (queue.length > 0 && problems.length === 0) {
    const s = queue.shift() as Int32Array;
    const before = pids(s);
    const actors = [...before, 'restart', 'producer', 'operator', 'corruption', 'world'] as const;
    for (const e of system.events(s)) {
      const a = actorOf(e);
      const reach = chooser.reach(s, a, crashesLeft(s));
      const now = outside(chooser.current(s, a, [e as WorldEvent]), reach, base, s[g + L.NEXT_PID]);
      if (now.length > 0) problems.push(`${JSON.stringify(e)}: ${now.join(', ')} beyond its actor's reach`);
      const t = new Int32Array(system.width);
      system.apply(s, e, t);
      for (const b of actors) {
        const grew = outside(chooser.reach(t, b, crashesLeft(t)), chooser.reach(s, b, crashesLeft(s)), base, s[g + L.NEXT_PID]);
        if (grew.length > 0) problems.push(`after ${JSON.stringify(e)}, ${String(b)}'s reach grew: ${grew.join(', ')}`);
      }
      for (const p of pids(t)) {
        if (before.includes(p)) continue;
        const grew = outside(chooser.reach(t, p, crashesLeft(t)), reach, base, s[g + L.NEXT_PID]);
        if (grew.length > 0) problems.push(`engine e${p}, started by ${JSON.stringify(e)}, reaches beyond its starter: ${grew.join(', ')}`);
      }
      checked++;
      const k = t.join();
      if (!seen.has(k) && seen.size < statesMax) {
        seen.add(k);
        queue.push(t);
      }
    }
    // exclusive-attempt reads an engine only as completing-on-id (ENGINE_VIEWS).
    const w = system.unpack(s);
    const views = w.engines.map((p) => (p.state === 'completing' ? p.ctx.id : null)).filter((v) => v !== null);
    if ((exclusiveAttempt.check(w) !== null) !== (new Set(views).size < views.length)) problems.push(`exclusive-attempt's verdict is not its views' in ${JSON.stringify(w.engines)}`);
  }
  expect(problems.slice(0, 5)).toEqual([]);
  return checked;
}

describe('independence: every event within its actor\'s reach, and reaches only shrink', () => {
  it.each([
    [{}, 20_000, false],
    [{ ids: 2, bodiesPerId: 1 }, 20_000, false],
    [{ operatorActionsMax: 2 }, 20_000, false],
    // The storage faults, every one of them within the corruption budget (the operator has none).
    [{ corruptionsMax: 1, crashesMax: 0 }, 20_000, false],
    // The world's own events, with neither an operator's nor a corruption budget: before, a sweep, a tick, a
    // forgetting or a landing was taken for the operator's, whose reach was empty without its budget.
    [{ settings: { retention: 1 } }, 20_000, false],
    [{ bodiesPerId: 1, crashesMax: 1, settings: { ticks: 2, lease: 1, jump: 1000 } }, 20_000, false],
    [{ settings: { dedupeWindow: 2 } }, 20_000, false],
    [{ settings: { lateLanding: 1 } }, 20_000, false],
    [{ engines: 3, crashesMax: 2 }, 20_000, false],
    [{ engines: 2 }, 20_000, true],
  ] as const)('%o: up to %i states, skew %s', (sizes, statesMax, skew) => {
    expect(check(sizes, statesMax, skew)).toBeGreaterThan(1000);
  }, 300_000);
});

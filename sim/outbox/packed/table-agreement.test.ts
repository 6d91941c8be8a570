/**
 * The packed explorer keeps a hand-specialised copy of which events are
 * enabled (`system.ts`) and of what each event's step depends on (its memo
 * key, `transitions.ts`), for speed. This holds that copy to the event table,
 * kind by kind: on many reachable states of several worlds, each kind's
 * instances listed by the packed system are the object system's `choices` for
 * that kind, and each kind's step replayed from a program derived on another
 * state with the same key is the object system's step (the key covers what
 * the kind's `apply` reads). Every kind of the table that the packed system
 * specialises must be met, and replayed, somewhere.
 */
import { TELLS_OK_FALSE_APART } from '../events/test-plans.ts';
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle } from '../../../model/catalog/index.ts';
import type { RuleSet } from '../../../model/rules.ts';
import { steppersFor } from '../../check.ts';
import { seededChooser } from '../../core/chooser.ts';
import { EVENT_KINDS, kindOf } from '../events/table.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import type { WorldEvent } from '../world.ts';
import { PACKED_KINDS, packedOutbox } from './system.ts';
import type { WorldOptions } from '../options.ts';
import sweepByAge from '../../../properties/rule-api/sweep-by-age.ts';

/** The world with the kinds the packed explorer does not list switched off (those worlds are searched by the object system). */
function packable(o: WorldOptions): WorldOptions {
  return { ...o, weights: Object.fromEntries(Object.entries(o.weights).map(([k, v]) => [k, PACKED_KINDS.has(k) ? v : 0])) };
}

interface World {
  name: string;
  sizes: Partial<ExploreSizes>;
  rules: RuleSet;
  oldRules?: RuleSet;
  /** Options no explore flag sets (a seed's `waitTo`, drawn by check), over the sizes'. */
  options?: Partial<WorldOptions>;
}

const WORLDS: World[] = [
  { name: 'default', sizes: {}, rules: failClosed },
  { name: 'corruptions and operator actions', sizes: { engines: 1, crashesMax: 2, corruptionsMax: 2, operatorActionsMax: 3 }, rules: failClosed },
  // With a poison message (events/poison.ts): a body marked, and an engine's step into its POST a crash and a restart.
  { name: 'two ids, two engines, a poison message', sizes: { ids: 2, bodiesPerId: 1, operatorActionsMax: 1, corruptionsMax: 1, settings: { poison: 1 } }, rules: failClosed },
  { name: 'version skew', sizes: { engines: 2, skew: true, operatorActionsMax: 1 }, rules: failClosed, oldRules: freshCycle },
  // A rule set telling ok:false apart from a 400: the broker's refuse-ok-false is offered (events/broker.ts).
  { name: 'broker id-409, three engines, ok:false told apart', sizes: { engines: 3, broker: 'id-409', attemptsMax: 3 }, rules: TELLS_OK_FALSE_APART },
  { name: 'late landing, broker key', sizes: { engines: 2, broker: 'key', settings: { lateLanding: 2 } }, rules: failClosed },
  { name: 'dedupe window 1, late landing, two ids', sizes: { ids: 2, bodiesPerId: 1, engines: 2, settings: { dedupeWindow: 1, lateLanding: 1 } }, rules: failClosed },
  { name: 'clock to tick 3, lease 1, long waits of 5, operator actions', sizes: { engines: 2, operatorActionsMax: 1, settings: { ticks: 3, lease: 1, jump: 5 } }, rules: failClosed },
  { name: 'retention, two ids, operator actions', sizes: { ids: 2, bodiesPerId: 1, operatorActionsMax: 1, settings: { retention: 3 } }, rules: failClosed },
  // The sweeper's rule set decides (sweepable), told the clock: by age whatever the status (READY, PARKED and DELIVERED records).
  { name: 'retention by age, clock with long waits, two ids', sizes: { ids: 2, bodiesPerId: 1, settings: { retention: 3, ticks: 3, jump: 100_000_000 } }, rules: sweepByAge },
  // A seed steered to an instant of the rule set's (thresholds.ts, withClockMarks): long waits of 7 ticks and one to tick 23, below the horizon of 40.
  { name: 'clock to tick 40, long waits of 7 and one to tick 23', sizes: { engines: 2, settings: { ticks: 40, lease: 2, jump: 7 } }, rules: failClosed, options: { waitTo: 23 } },
];

const WALKS = 240;
const WALK_STEPS = 60;

/** Per kind: states where it had instances, and replays of a program derived elsewhere. */
interface Tally {
  listed: number;
  replayed: number;
}

function byKind(events: readonly WorldEvent[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of events) {
    const name = kindOf(e).name;
    out.set(name, [...(out.get(name) ?? []), JSON.stringify(e)]);
  }
  return out;
}

function walkWorld(c: World, tally: Map<string, Tally>): void {
  const options = packable({ ...exploreOptions({ ...EXPLORE_DEFAULTS, ...c.sizes }), ...c.options });
  const worldRules = { rules: c.rules, ...(c.oldRules ? { oldRules: c.oldRules } : {}) };
  const objectSystem = outboxSystem(options, worldRules, steppersFor(c.rules, c.oldRules ?? null));
  const system = packedOutbox(options, worldRules, objectSystem);
  const pick = seededChooser(20_261_201);
  const s = new Int32Array(system.width);
  const out = new Int32Array(system.width);
  for (let walk = 0; walk < WALKS; walk++) {
    system.initial(s);
    for (let step = 0; step < WALK_STEPS; step++) {
      const w = system.unpack(s);
      const fast = system.events(s);
      const slow = objectSystem.choices(w).flatMap((g) => g.events);
      const fastKinds = byKind(fast);
      const slowKinds = byKind(slow);
      for (const k of EVENT_KINDS) {
        // Compared kind by kind, so that a difference names its kind.
        expect({ kind: k.name, events: fastKinds.get(k.name) ?? [] }).toEqual({ kind: k.name, events: slowKinds.get(k.name) ?? [] });
        if (fastKinds.has(k.name)) (tally.get(k.name) as Tally).listed++;
      }
      expect(fast.map((e) => JSON.stringify(e))).toEqual(slow.map((e) => JSON.stringify(e)));
      for (const e of fast) {
        const derived = system.transitions.derived;
        system.transitions.run(s, system.transitions.programFor(s, e), out);
        const expected = objectSystem.key(objectSystem.step(w, e).state);
        expect({ kind: kindOf(e).name, event: e, after: objectSystem.key(system.unpack(out)) }).toEqual({ kind: kindOf(e).name, event: e, after: expected });
        if (system.transitions.derived === derived) (tally.get(kindOf(e).name) as Tally).replayed++;
      }
      if (fast.length === 0) break;
      // A kind first, then one of its events: rare kinds (a drain needs a READY record whose file is gone) get their share of the walk.
      const kinds = [...new Set(fast.map((e) => kindOf(e).name))];
      const kind = kinds[pick.int('walk-kind', kinds.length)];
      const ofKind = fast.filter((e) => kindOf(e).name === kind);
      system.apply(s, ofKind[pick.int('walk', ofKind.length)], out);
      s.set(out);
    }
  }
}

describe('the packed explorer against the event table, kind by kind', () => {
  it('lists each kind as the object system does and replays each kind exactly, on random walks through ten worlds', () => {
    const tally = new Map<string, Tally>(EVENT_KINDS.map((k) => [k.name, { listed: 0, replayed: 0 }]));
    for (const c of WORLDS) walkWorld(c, tally);
    const specialised = EVENT_KINDS.filter((k) => PACKED_KINDS.has(k.name));
    const unmet = specialised.filter((k) => (tally.get(k.name) as Tally).listed === 0 || (tally.get(k.name) as Tally).replayed === 0).map((k) => k.name);
    expect(unmet).toEqual([]);
  }, 240_000);

  it('specialises every kind of the table, so no world falls back to the object system for a kind', () => {
    expect(EVENT_KINDS.map((k) => k.name).filter((n) => !PACKED_KINDS.has(n))).toEqual([]);
  });
});

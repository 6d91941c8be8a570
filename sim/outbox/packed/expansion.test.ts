/**
 * The expansion cache keeps one expansion per new key (tens of thousands in
 * a suite world, all kept to the end of the search): an empty list of
 * events or programs in one is a single shared value, and the events listed
 * are the shared event objects, the same whether listed through `find` and
 * `add` or made by `get`.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import { idNames, type WorldEvent } from '../world.ts';
import type { PackedContext } from './context.ts';
import { engineEvents } from './engine-events.ts';
import { EventCache } from './event-cache.ts';
import { expansions, type EngineExpansion } from './expansion.ts';
import * as L from './layout.ts';
import { reachedStates } from './reached-states.ts';
import { packedOutbox } from './system.ts';
import { PackedTransitions } from './transitions.ts';

describe('engine expansions', () => {
  it('share one empty list of events and of programs, and list the shared event objects', () => {
    const options = exploreOptions(EXPLORE_DEFAULTS);
    const worldRules = { rules: failClosed };
    const objectSystem = outboxSystem(options, worldRules, steppersFor(failClosed, null));
    const ids = idNames(options.ids);
    const layout = new L.PackedLayout(ids, options.engines);
    const tables = new L.PackedTables();
    const c: PackedContext = {
      options, worldRules, ids, skew: false, layout, tables, g: layout.globals, events: new EventCache(), objectSystem,
      transitions: new PackedTransitions(layout, tables, objectSystem),
    };
    const engines = expansions(c, engineEvents(c));
    // States of a small search, packed in this context's tables (a packed system's own are its own).
    const walker = packedOutbox(options, worldRules, objectSystem);
    const found: EngineExpansion[] = [];
    for (const s0 of reachedStates(walker, 400)) {
      const s = layout.pack(walker.unpack(s0), tables);
      const context = engines.contextOf(s, engines.prefixOf(s));
      for (let k = 0; k < s[c.g + L.ENGINE_COUNT]; k++) found.push(engines.expansionOf(s, k, context));
    }
    const emptyEvents = found.flatMap((x) => [x.engine, x.broker, x.crash]).filter((l) => l.length === 0);
    const emptyPrograms = found.flatMap((x) => [x.enginePrograms, x.brokerPrograms, x.crashPrograms]).filter((l) => l.length === 0);
    // Engines not posting have no broker answer; engines after the crash have no crash left.
    expect(emptyEvents.length).toBeGreaterThan(100);
    expect(new Set(emptyEvents).size).toBe(1);
    expect(new Set(emptyPrograms).size).toBe(1);
    // Each event listed is the one `get` gives for its code (listed once per code, whichever way).
    const all: WorldEvent[] = found.flatMap((x) => [...x.engine, ...x.broker, ...x.crash]);
    expect(all.length).toBeGreaterThan(100);
    const codes = new Map<string, WorldEvent>();
    for (const e of all) {
      const key = JSON.stringify(e);
      expect(codes.get(key) ?? e).toBe(e);
      codes.set(key, e);
    }
  });

  it('EventCache: find gives nothing before add, then the event added; get gives it too', () => {
    const events = new EventCache();
    const code = EventCache.code(3, 1, 2);
    expect(events.find(code)).toBeUndefined();
    const e: WorldEvent = { kind: 'step', pid: 1, at: 'preSend' };
    expect(events.add(code, e)).toBe(e);
    expect(events.find(code)).toBe(e);
    expect(events.get(code, () => ({ kind: 'step', pid: 1, at: 'preSend' }))).toBe(e);
  });
});

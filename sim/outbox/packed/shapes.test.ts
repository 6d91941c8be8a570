/**
 * One hidden class per kind of object the packed explorer makes, whatever
 * the world: the worlds it unpacks (every slot a kind owns present, in
 * copyWorld's order) and the engine processes its tables hold (renamed to
 * placeholders and back, restarted by the quiet test, stepped). `check`'s
 * suite searches sixteen worlds on packed states in one process, and an object of another
 * class in a later world threw away the code optimised on the earlier ones.
 * Classes are asked of V8 itself (`%HaveSameMap`, natives syntax switched
 * on for this process, as in hidden-class.test.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { steppersFor } from '../../check.ts';
import { smallWorlds } from '../../small-worlds.ts';
import { packedKindsHold } from './kinds.ts';
import { OWNED_SLOTS } from '../events/table.ts';
import { exploreOptions } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import { newEngineProc } from '../stepper.ts';
import { copyWorld } from '../world-copy.ts';
import type { EngineProc, World, WorldEvent } from '../world.ts';
import { PackedTables } from './layout.ts';
import { PidRenaming, SELF } from './pid-renaming.ts';
import { packedOutbox, type PackedOutbox } from './system.ts';

setFlagsFromString('--allow-natives-syntax');
// Parsed after the flag is set: a function body may use natives syntax.
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** The suite's worlds (one version) the packed explorer holds: all but the one of stable identities, searched on the object system. */
function packedWorlds(): ReturnType<typeof smallWorlds> {
  const worlds = smallWorlds(false);
  const held = worlds.filter((w) => packedKindsHold(exploreOptions(w.sizes)));
  expect(worlds.filter((w) => !held.includes(w)).map((w) => w.name)).toEqual(['1 body, attempts 1, stable identities']);
  return held;
}

/** The packed system of each world of the suite (one version) the packed explorer holds, fail-closed. */
function suiteSystems(): { name: string; system: PackedOutbox }[] {
  const steppers = steppersFor(failClosed, null);
  return packedWorlds().map((w) => {
    const options = exploreOptions(w.sizes);
    const objectSystem = outboxSystem(options, { rules: failClosed }, steppers);
    return { name: w.name, system: packedOutbox(options, { rules: failClosed }, objectSystem) };
  });
}

/** The first `max` states of a breadth-first walk of `system`, each shown to `found` as it is found. */
function walk(system: PackedOutbox, max: number, found: (s: Int32Array) => void = () => undefined): Int32Array[] {
  const start = new Int32Array(system.width);
  system.initial(start);
  found(start);
  const seen = new Set<string>([start.join(',')]);
  const states = [start];
  for (let i = 0; i < states.length && states.length < max; i++) {
    for (const e of system.events(states[i])) {
      const t = new Int32Array(system.width);
      system.apply(states[i], e, t);
      const key = t.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      states.push(t);
      found(t);
    }
  }
  return states;
}

describe('shapes of the packed explorer’s objects', () => {
  it('holds the natives check itself to account', () => {
    expect(sameMap({ a: 1 }, { a: 2 })).toBe(true);
    expect(sameMap({ a: 1 }, { b: 1 })).toBe(false);
  });

  it('unpacks every state of every suite world to a world of one shape, the object system’s (a kind’s slot undefined until written)', () => {
    const systems = suiteSystems();
    const shapes = new Set<string>();
    let owned = 0;
    let states = 0;
    for (const { system } of systems) {
      for (const s of walk(system, 400)) {
        const w = system.unpack(s);
        shapes.add(Object.keys(w).join(','));
        if (OWNED_SLOTS.some((slot) => (w as unknown as Record<string, unknown>)[slot] !== undefined)) owned++;
        states++;
      }
    }
    // The walks reached states whose owned slots are written (a clock that ticked, a POST in transit, ...).
    expect(owned).toBeGreaterThan(20);
    expect(states).toBeGreaterThan(2000);
    const steppers = steppersFor(failClosed, null);
    const initial = outboxSystem(exploreOptions(smallWorlds(false)[0].sizes), { rules: failClosed }, steppers).initial();
    expect([...shapes]).toEqual([Object.keys(copyWorld(initial)).join(',')]);
  });

  it('steps the object system, deriving a transition, on worlds of the class of the object system’s own', () => {
    const steppers = steppersFor(failClosed, null);
    let stepped = 0;
    for (const w of packedWorlds()) {
      const options = exploreOptions(w.sizes);
      const objectSystem = outboxSystem(options, { rules: failClosed }, steppers);
      const reference = objectSystem.initial();
      const watched = {
        ...objectSystem,
        step: (world: World, e: WorldEvent) => {
          expect(sameMap(world, reference), `a world stepped in ${w.name}`).toBe(true);
          stepped++;
          return objectSystem.step(world, e);
        },
      };
      walk(packedOutbox(options, { rules: failClosed }, watched), 200);
    }
    expect(stepped).toBeGreaterThan(500);
  });

  it('holds engine processes of one class, their memories too, in every suite world: stepped, renamed, restarted', () => {
    const reference = newEngineProc(1, 'new', 2);
    let procs = 0;
    let restarted = 0;
    for (const { name, system } of suiteSystems()) {
      // The quiet test of a state with no engine alive judges the engine healing would restart: asked
      // as soon as the state is found, before a restart step interns that engine's first process.
      walk(system, 400, (s) => {
        if (system.quiet !== null && system.unpack(s).engines.length === 0) {
          system.quiet(s);
          restarted++;
        }
      });
      for (const p of system.tables.procs.values) {
        if (p === undefined) continue;
        expect(sameMap(p, reference), `a process of world ${name}: ${JSON.stringify(p)}`).toBe(true);
        expect(sameMap(p.ctx, reference.ctx), `a memory of world ${name}: ${JSON.stringify(p.ctx)}`).toBe(true);
        procs++;
      }
    }
    expect(procs).toBeGreaterThan(100);
    expect(restarted).toBeGreaterThan(0);
  });

  it('renames a process to one of the class of the processes the steppers make', () => {
    const t = new PackedTables();
    const r = new PidRenaming(t);
    const stepped = newEngineProc(4, 'old', 3);
    const renamed = t.procs.value(r.procAsSelf(t.procs.id(stepped))) as EngineProc;
    expect(renamed).toEqual({ ...stepped, pid: SELF, ctx: { ...stepped.ctx, pid: SELF } });
    expect(sameMap(renamed, stepped)).toBe(true);
    expect(sameMap(renamed.ctx, stepped.ctx)).toBe(true);
    const back = t.procs.value(r.proc(r.procAsSelf(t.procs.id(stepped)), { from: [SELF], to: [4] })) as EngineProc;
    expect(back).toBe(stepped);
  });
});

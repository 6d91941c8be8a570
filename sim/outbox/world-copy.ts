/**
 * Copies of the world and its parts for a step to change, every field written
 * out, without object spread (see {@link copyWorld} for why). Apart from
 * world.ts, which re-exports the event table (a kind's file importing a value
 * from there would close an import cycle through the table), and importing
 * only its types.
 */
import type { EngineProc, World } from './world.ts';

/**
 * A shallow copy of a world, every field written out (the slots kinds own
 * included, undefined until written): a step copies the world and replaces
 * what it changed. Object spread (`{ ...w }`) of a world made from another
 * spread cost ten times this on the hot path (V8 clones such objects on a
 * slow path), and a world copied at every step of every seed was a tenth of
 * a seeded run. The type below fails to compile when the world gains a field
 * (a kind's slot) that is not copied here.
 */
export function copyWorld(w: World): World {
  const copy: { [K in keyof Required<World>]: World[K] } = {
    records: w.records,
    claims: w.claims,
    live: w.live,
    archived: w.archived,
    quarantined: w.quarantined,
    broker: w.broker,
    engines: w.engines,
    produced: w.produced,
    published: w.published,
    reported: w.reported,
    nextPid: w.nextPid,
    nextGeneration: w.nextGeneration,
    crashes: w.crashes,
    corruptions: w.corruptions,
    operatorActions: w.operatorActions,
    parkedAttempts: w.parkedAttempts,
    parkedGone: w.parkedGone,
    healing: w.healing,
    dedupe: w.dedupe,
    inTransit: w.inTransit,
    clock: w.clock,
    sweeps: w.sweeps,
    poisoned: w.poisoned,
    poisonCrashes: w.poisonCrashes,
  };
  return copy;
}

/** An engine process with a new statechart position and memory (written out, as {@link copyWorld} says why). */
export function withMemory(p: EngineProc, state: EngineProc['state'], ctx: EngineProc['ctx']): EngineProc {
  return { pid: p.pid, version: p.version, state, ctx };
}

/** A copy of `w` (see {@link copyWorld}) with the fields of `patch` replaced. */
export function withChanges(w: World, patch: Partial<World>): World {
  return Object.assign(copyWorld(w), patch);
}

/**
 * `{ ...o, [key]: value }` without object spread (see {@link copyWorld}): the
 * same keys in the same order (an existing key keeps its place, a new one
 * comes last), for the world's small maps by id, rewritten at most steps.
 */
export function withEntry<T>(o: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k in o) out[k] = o[k];
  out[key] = value;
  return out;
}

/** `o` without `key` (`const { [key]: _, ...rest } = o` without the spread). */
export function withoutEntry<T>(o: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k in o) if (k !== key) out[k] = o[k];
  return out;
}

/**
 * An empty list of the hidden class the world's lists have once they hold
 * something (V8's "elements kind": an empty `[]` literal is an array of
 * small integers, a list of strings or objects another class). The initial
 * world's lists made with `[]` gave every read of `published`, `parkedGone`
 * and the like a second class to meet after the first seeds, and the code
 * optimised without it was thrown away (`parkedGone.includes` in the engine
 * step and in the seed loop's step). Empty either way: only the class differs.
 */
export function emptyList<T>(): T[] {
  const list: (T | undefined)[] = [undefined];
  list.length = 0;
  return list as T[];
}

/**
 * Tests' walk of a packed system: up to `max` states reached breadth-first
 * by `apply`, each kept once (keyed by its slots), the initial state first.
 * Used to hold a packed test (`busy`, `expandKept`) to the event list on
 * every state of a small search.
 */
import type { PackedSystem } from '../../core/explore-packed.ts';

export function reachedStates<E>(system: PackedSystem<E>, max: number): Int32Array[] {
  const start = new Int32Array(system.width);
  system.initial(start);
  const seen = new Set([start.join()]);
  const states = [start];
  for (let i = 0; i < states.length && states.length < max; i++) {
    for (const e of system.events(states[i])) {
      const t = new Int32Array(system.width);
      system.apply(states[i], e, t);
      if (!seen.has(t.join())) {
        seen.add(t.join());
        states.push(t);
      }
    }
  }
  return states;
}

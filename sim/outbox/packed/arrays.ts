/**
 * Empty arrays made in the hidden class they will have once filled (V8's
 * "elements kind"). An empty `[]` literal is an array of small integers; the
 * first object stored in it, or the first store past its end, moves it to
 * another class. The packed system's tables are made afresh for each world,
 * so in the suite code optimised on the arrays of one world (filled, of the
 * later class) met the next world's empty ones (of the first class) and was
 * thrown away ("wrong map"), at about one such site a function: the tables
 * below are made in their last class from the start (lists of objects
 * appended in order are `emptyList` of world-copy.ts, as the world's own
 * lists). Only the class differs: the contents, and so every result, are the
 * same.
 */
import type { WorldEvent } from '../world.ts';
import { emptyList } from '../world-copy.ts';
import type { PackedTransitions } from './transitions.ts';

/** An empty array for small integers stored at scattered indices (ids): holey small integers. */
export function sparseInts(): number[] {
  const a = new Array<number>(1);
  a.length = 0;
  return a;
}

/** An empty array for objects stored at scattered indices: holey elements. */
export function sparseList<T>(): (T | undefined)[] {
  const a = new Array<T | undefined>(1);
  a[0] = undefined;
  a.length = 0;
  return a;
}

/**
 * The programs of `events` in `s`, in order, in a dense list. Not
 * `events.map`: V8 gives `map`'s result packed elements while its caller
 * runs unoptimised and holey elements once the caller is optimised, so the
 * expansions made before and after met the search's loops as two classes.
 */
export function programsOf(transitions: Pick<PackedTransitions, 'programFor'>, s: Int32Array, events: readonly WorldEvent[]): Int32Array[] {
  const out = emptyList<Int32Array>();
  for (let i = 0; i < events.length; i++) out.push(transitions.programFor(s, events[i]));
  return out;
}

/**
 * One hidden class for every seed's world options. The swarm draws a seed's
 * options as one object literal, but the first seeds' options are rewritten
 * by the covering rows (`{ ...o, weights: { ...o.weights, [name]: 0 } }`,
 * swarm-coverage.ts), and a spread makes an object of another hidden class.
 * The event table's kinds read `ctx.options` (and its `weights` and
 * `settings`) at every step: code optimised on the first seeds' options met
 * the later seeds' plain literals as a new class and was thrown away and
 * compiled again (a dozen deopts per process, in each kind's `enabled`).
 * Copied key by key, in the key order the options have, every copy of
 * options with the same keys in the same order has one class, whichever way
 * it was made. Same keys, same order, same values: only the class differs.
 */
import type { WorldOptions } from './options.ts';

/** A copy of a flat record made by adding its keys, in its own order, to an empty object. */
function copyRecord<T>(o: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k in o) out[k] = o[k];
  return out;
}

/** `options` (and its `weights` and `settings`) copied key by key (see the file's comment). */
export function uniformOptions(options: WorldOptions): WorldOptions {
  const out = copyRecord(options as unknown as Readonly<Record<string, unknown>>) as unknown as WorldOptions;
  out.weights = copyRecord(options.weights);
  if (options.settings !== undefined) out.settings = copyRecord(options.settings);
  return out;
}

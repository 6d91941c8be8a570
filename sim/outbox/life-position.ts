/**
 * Where long life or a deep cycle was when a rule set's decision broke its
 * contract (long-life.ts, deep-cycles.ts): the events from the seed's start
 * to the world whose step, listing or quiet test broke it, and the options
 * of that world (budgets raised for the rounds). `check` reports such a
 * break as it reports one in a seed's run (docs/rules.md, 'Contract for every decision'):
 * the rule file's fault, with the trace of the steps before it. Without
 * it, a break met only past a seed's own run (a janitor that tombstones a
 * pending record, whose envelope then has no body) ended the check as an
 * internal error, with no verdict.
 */
import { RuleFault } from '../../model/rule-fault.ts';
import type { WorldOptions } from './options.ts';
import type { WorldEvent } from './world.ts';

/** The events to the world that broke a decision, and that world's options once known. */
export interface LifePosition {
  events: readonly (WorldEvent | null)[];
  options?: WorldOptions;
}

const positions = new WeakMap<RuleFault, LifePosition>();

/** Where long life was when `err` was thrown, if it was thrown there. */
export function lifePositionOf(err: RuleFault): LifePosition | undefined {
  return positions.get(err);
}

/**
 * Runs `fn`; a broken decision it throws is placed after `events()` (read
 * when it is thrown), unless a call inside placed it first: the innermost
 * call knows the most steps.
 */
export function locatedIn<T>(events: () => readonly (WorldEvent | null)[], fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof RuleFault && !positions.has(err)) positions.set(err, { events: [...events()] });
    throw err;
  }
}

/** Runs `fn` in a world of `options`: a broken decision it throws, placed (above) without options, gets these. */
export function inWorld<T>(options: WorldOptions, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const at = err instanceof RuleFault ? positions.get(err) : undefined;
    if (err instanceof RuleFault && at !== undefined && at.options === undefined) positions.set(err, { ...at, options });
    throw err;
  }
}

/**
 * A decision of a rule set that threw or broke its contract, as an error
 * ({@link RuleFault}), without the contract itself: the schemas that check
 * a user's decisions (rule-contract.ts) need a schema library that every
 * seed runner would otherwise load and evaluate too (a worker thread of
 * `check --workers N` spent about 40 ms of its start on it), although
 * catalog rule sets run unguarded and only catch this error.
 */
import type { DECISIONS } from './rules.ts';

/** The decisions, by name. */
export type Decision = (typeof DECISIONS)[number];

/** How a decision broke its contract. */
export type FaultKind = 'threw' | 'malformed' | 'hung';

/** A decision of a rule set that threw or returned a value outside its contract. */
export class RuleFault extends Error {
  constructor(
    /** The rule set, as the user knows it: its name, and its file when it came from one. */
    readonly ruleSet: string,
    readonly decision: Decision | 'import',
    readonly kind: FaultKind,
    /** The error's message, or what was returned and what was expected. */
    readonly detail: string,
    /** What the decision threw (kind 'threw'), as `cause`. */
    thrown?: unknown,
  ) {
    super(`rule set ${ruleSet}: ${decision} ${detail}`, thrown === undefined ? undefined : { cause: thrown });
    this.name = 'RuleFault';
  }
}

/** The fault last thrown by a guarded decision (see {@link ruleFaultOf}). */
let lastFault: RuleFault | null = null;

/** Notes `f` as the fault last thrown by a guarded decision, and returns it (to throw). */
export function thrownFault(f: RuleFault): RuleFault {
  lastFault = f;
  return f;
}

/**
 * The RuleFault behind `err`: itself, or the one XState's `transition()`
 * wrapped when a guard threw it (it rethrows a new Error carrying only the
 * message); null when there is none.
 */
export function ruleFaultOf(err: unknown): RuleFault | null {
  if (err instanceof RuleFault) return err;
  if (err instanceof Error && lastFault !== null && err.message.endsWith(`\n${lastFault.message}`)) return lastFault;
  return null;
}

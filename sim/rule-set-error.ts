/**
 * A broken decision of a rule set, as the error a command ends with: its
 * message is the command line's one line, and its fields say the same for a
 * program that calls the commands as functions (README.md, 'Use it in your
 * test suite'), so that it need not read them out of the message. It is a
 * {@link UsageError}: the command line prints it as bad input, exit code 2.
 */
import type { Decision, FaultKind, RuleFault } from '../model/rule-fault.ts';
import { UsageError } from './usage-error.ts';

/** Where a decision broke: at a seeded run's step, or while a search expanded a state at a depth (of one of check's small worlds). */
export type BrokenAt = { seed: number; step: number } | { depth: number; world?: string };

/** What broke, where, and the trace that leads to it. */
export interface BrokenDecision {
  /** The rule set, as the user knows it: its name, and its file when it came from one. */
  ruleSet: string;
  decision: Decision | 'import';
  /** It threw, returned a value outside its contract, or never returned. */
  kind: FaultKind;
  /** What it threw, or what it returned and what was expected. */
  detail: string;
  /** Null when the command does not know (a replay's step is in its message). */
  at: BrokenAt | null;
  /** The path of the trace of the steps before it, null when none was written. */
  trace: string | null;
}

export class RuleSetError extends UsageError implements BrokenDecision {
  readonly ruleSet: string;
  readonly decision: Decision | 'import';
  readonly kind: FaultKind;
  readonly detail: string;
  readonly at: BrokenAt | null;
  readonly trace: string | null;

  /** `cause`: the {@link RuleFault} raised on this thread (whose own `cause` is what the decision threw); absent when the decision ran on a worker thread. */
  constructor(message: string, broken: BrokenDecision, cause?: RuleFault) {
    super(message, cause);
    this.name = 'RuleSetError';
    this.ruleSet = broken.ruleSet;
    this.decision = broken.decision;
    this.kind = broken.kind;
    this.detail = broken.detail;
    this.at = broken.at;
    this.trace = broken.trace;
  }
}

/**
 * The error behind each fault a seeded run raised on this thread, keyed by
 * the fault's plain data (check.ts's `RawFault`), for the `cause` of the
 * error the command ends with. The data crosses threads and shard files;
 * a fault that did is not found here.
 */
const FAULT_ERRORS = new WeakMap<object, RuleFault>();

/** Notes `error` as the error behind `fault`, the plain data made from it. */
export function noteFaultError(fault: object, error: RuleFault): void {
  FAULT_ERRORS.set(fault, error);
}

/** The error behind `fault` when it was raised on this thread. */
export function faultErrorOf(fault: object): RuleFault | undefined {
  return FAULT_ERRORS.get(fault);
}

/**
 * A rule set's decision that threw, returned a value outside its contract
 * (see `model/rule-contract.ts`) or never returned is bad input: one line on
 * stderr naming the rule set, the decision, what happened and where (seed
 * and step, or search depth), with a trace of the steps before it, and exit
 * code 2.
 */
import { RuleFault } from '../../model/rule-fault.ts';
import type { RawFault } from '../check.ts';
import { runPositionOf } from '../core/random.ts';
import { searchPositionOf } from '../core/explore.ts';
import type { Steppers } from '../outbox/outbox-system.ts';
import type { WorldOptions } from '../outbox/options.ts';
import type { RulesPair } from '../outbox/record-trace.ts';
import { writeStepsBefore, type FaultTrace } from '../outbox/fault-trace.ts';
import { probePositionOf, probeText, type ProbePosition } from '../outbox/probe-position.ts';
import type { WorldEvent } from '../outbox/world.ts';
import { UsageError } from '../usage-error.ts';
import { faultErrorOf, RuleSetError, type BrokenAt, type BrokenDecision } from '../rule-set-error.ts';
import { terminalText } from '../terminal-text.ts';

/** The line's end: what the written trace holds. `what`: where it ends when it reaches the broken decision. */
function traceNote(trace: FaultTrace | null, what: string): string {
  if (trace === null) return '';
  const ends = trace.reach === 'look-ahead' ? "to where the look-ahead began (its steps could not be re-run as one run)" : trace.lookAhead ? "before it, the look-ahead's included" : what;
  return `; trace of the ${trace.steps} step${trace.steps === 1 ? '' : 's'} ${ends}: ${trace.path}`;
}

/** Where in the run or search a decision broke: in the liveness phase's look-ahead, or at the step itself. */
function probeNote(probe: ProbePosition | undefined): string {
  return probe === undefined ? '' : `, in ${probeText(probe)}`;
}

/** Where the liveness search's cycle search was when it threw: how many steady steps past the state being expanded, once faults stopped. */
function pastNote(events: readonly (WorldEvent | null)[]): string {
  const at = events.indexOf(null);
  if (at < 0) return '';
  const past = events.length - at - 1;
  return `, once faults stopped and ${past} step${past === 1 ? '' : 's'} past it`;
}

/** The one line for a fault of a seeded run (check, compare). */
export function runFaultLine(f: Pick<RawFault, 'ruleSet' | 'decision' | 'detail' | 'seed' | 'step' | 'probe' | 'longLife'>, trace: FaultTrace | null): string {
  const where = f.longLife === true ? ` (past the seed's run: a record's cycle taken again in a world of raised budgets, long life or deep cycles)` : '';
  return `rule set ${f.ruleSet}: ${f.decision} ${f.detail}; at seed ${f.seed}, step ${f.step}${where}${probeNote(f.probe)}${traceNote(trace, 'before it')}`;
}

/** Writes the trace of a check's fault and gives the error that ends the command with its line. */
export function checkFaultError(pair: RulesPair, steppers: Steppers, fault: RawFault, outDir: string, origin: string): RuleSetError {
  const broken = (trace: FaultTrace | null): BrokenDecision => ({ ruleSet: fault.ruleSet, decision: fault.decision, kind: fault.kind, detail: fault.detail, at: { seed: fault.seed, step: fault.step }, trace: trace?.path ?? null });
  let trace: FaultTrace;
  try {
    trace = writeStepsBefore(outDir, pair, steppers, fault.seed, fault.options, fault.events, origin, fault.probe, { ruleSet: fault.ruleSet, decision: fault.decision, kind: fault.kind, detail: fault.detail });
  } catch (err) {
    // The fault is the news; a trace that cannot be written is said on the same line.
    return new RuleSetError(`${runFaultLine(fault, null)} (no trace written: ${err instanceof Error ? err.message.split('\n')[0] : String(err)})`, broken(null), faultErrorOf(fault));
  }
  return new RuleSetError(runFaultLine(fault, trace), broken(trace), faultErrorOf(fault));
}

/** What a search needs to write the trace of the path to a state whose expansion broke a decision. */
export interface SearchContext {
  pair: RulesPair;
  steppers: Steppers;
  options: WorldOptions;
  outDir: string;
  origin: string;
  /** The small world searched (check's suite), named on the line: its trace's header is not the first place a reader looks. */
  world?: string;
}

/** Runs a search; a broken decision ends it as a one-line error with a trace of the path to the state being expanded. */
export function faultTraced<T>(search: () => T, ctx: SearchContext): T {
  try {
    return search();
  } catch (err) {
    if (!(err instanceof RuleFault)) throw err;
    const at = searchPositionOf<WorldEvent>(err);
    if (at === undefined) throw err;
    const probe = probePositionOf(err);
    let trace: FaultTrace | null;
    try {
      trace = writeStepsBefore(ctx.outDir, ctx.pair, ctx.steppers, 0, ctx.options, at.events, ctx.origin, probe, { ruleSet: err.ruleSet, decision: err.decision, kind: err.kind, detail: err.detail });
    } catch {
      // The fault is the news: without its trace if that cannot be written.
      trace = null;
    }
    const line = `rule set ${err.ruleSet}: ${err.decision} ${err.detail}; at search depth ${at.depth}${ctx.world === undefined ? '' : ` of small world "${ctx.world}"`}, expanding a state${pastNote(at.events)}${probeNote(probe)}${traceNote(trace, 'to it')}`;
    const where = ctx.world === undefined ? { depth: at.depth } : { depth: at.depth, world: ctx.world };
    throw new RuleSetError(line, { ruleSet: err.ruleSet, decision: err.decision, kind: err.kind, detail: err.detail, at: where, trace: trace?.path ?? null }, err);
  }
}

/** The line for a fault that reached the command line's entry point (replay, recheck, diff, ...), with where it happened when known. */
export function ruleFaultLine(err: RuleFault, command: string | undefined): string {
  const at = brokenAtOf(err);
  const where = at === null ? '' : 'seed' in at ? `; at seed ${at.seed}, step ${at.step}` : `; at search depth ${at.depth}`;
  return `rule set ${err.ruleSet}: ${err.decision} ${err.detail}${where}${probeNote(probePositionOf(err))}${command ? ` (during ${command})` : ''}`;
}

function brokenAtOf(err: RuleFault): BrokenAt | null {
  const run = runPositionOf(err);
  if (run !== undefined) return { seed: run.seed, step: run.step };
  const search = searchPositionOf(err);
  return search === undefined ? null : { depth: search.depth };
}

/** A fault that reached a command's end as the error a library call rejects with: its line and its fields (no trace: the commands that write one throw a {@link RuleSetError} themselves). */
export function ruleSetErrorOf(err: RuleFault, command: string | undefined): RuleSetError {
  return new RuleSetError(ruleFaultLine(err, command), { ruleSet: err.ruleSet, decision: err.decision, kind: err.kind, detail: err.detail, at: brokenAtOf(err), trace: null }, err);
}

/** The one line bad input ends a command with (a {@link UsageError}'s message, a rule set's fault), or null for any other error. */
export function badInputLine(err: unknown, command: string | undefined): string | null {
  if (err instanceof UsageError) return `outbox-sim: ${terminalText(err.message)}`;
  if (err instanceof RuleFault) return `outbox-sim: ${ruleFaultLine(err, command)}`;
  return null;
}

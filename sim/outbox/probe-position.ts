/**
 * Where in the liveness phase's look-ahead a rule set's decision broke.
 * The quiet test and the walk of passes under way (`outboxSystem`'s
 * `quiescent`, `waitsForTime` and `settle`) step engines through passes
 * that the run itself has not taken, sometimes with the clock moved on: a
 * decision that breaks there breaks at a state no step of the run reaches.
 * The steps the test took are attached to the fault, so that its trace
 * goes on from the state the test was asked about to the broken decision
 * (`fault-trace.ts`), instead of ending at a state that replays clean.
 */
import type { WorldEvent } from './world.ts';

/** The look-ahead's steps from the world it was asked about, as data (a fault crosses threads as data). */
export interface ProbePosition {
  /** Which test: whether the healed world is quiet, or the passes under way walked to their end (the liveness phase's bound of steps). */
  test: 'quiet' | 'settle';
  /** Ticks the test moved the clock on before its steps (0: it looked at the clock's present reading). */
  later: number;
  /** The events the test stepped, the last the one in which the decision broke. */
  events: WorldEvent[];
}

const positions = new WeakMap<object, ProbePosition>();

/** Attaches `position` to the fault `err` (the first attached stays). */
export function markProbe(err: object, position: ProbePosition): void {
  if (!positions.has(err)) positions.set(err, position);
}

/** The look-ahead position attached to `err`, if the decision broke in one. */
export function probePositionOf(err: unknown): ProbePosition | undefined {
  return typeof err === 'object' && err !== null ? positions.get(err) : undefined;
}

/** What the test was doing, for the fault's line: "the quiet test (engine 2's pass, 1,000 ticks later)". */
export function probeText(p: ProbePosition): string {
  const first = p.events[0];
  const engine = first !== undefined && 'pid' in first ? `engine ${first.pid}'s pass` : 'a pass';
  const when = p.later > 0 ? `, ${p.later.toLocaleString('en-US')} ticks later` : '';
  return p.test === 'quiet' ? `the quiet test (${engine}${when})` : `the walk of the passes under way to their end (${engine})`;
}

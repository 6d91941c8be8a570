/** Rebuilding every state of a trace from its initial world and the recorded changes. */
import { applyChange, type Trace } from '../../sim/trace-format.ts';
import { initialWorldOf } from './initial.ts';

/** A state as rebuilt from a trace: plain JSON. */
export type TraceState = Record<string, unknown>;

/** The states of a trace: index 0 is the initial world, index n the state after step n. */
export function statesOf(trace: Trace): TraceState[] {
  const initial = initialWorldOf(trace.header);
  const states: TraceState[] = [initial];
  for (const step of trace.steps) states.push(applyChange(states[states.length - 1], step.change, initial));
  return states;
}

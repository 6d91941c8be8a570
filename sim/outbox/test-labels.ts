/**
 * Test helpers: step a world by the labels of its events, as a trace prints
 * them (`produce a`, `e1 scan a`, `crash e2 (claiming)`), so that a test
 * reads as the scenario it sets up. A label that is not enabled throws,
 * naming the events that are.
 */
import type { PackedSystem } from '../core/explore-packed.ts';
import type { StepResult, TransitionSystem } from '../core/system.ts';
import { labelOf, type WorldEvent } from './world.ts';

/** The step of the enabled event labelled `label` from `w`. */
export function takeLabelled<S>(system: TransitionSystem<S, WorldEvent>, w: S, label: string): StepResult<S> {
  const events = system.choices(w).flatMap((g) => g.events);
  const e = events.find((x) => labelOf(x) === label);
  if (e === undefined) throw new Error(`${label} is not enabled; enabled: ${events.map(labelOf).join(', ')}`);
  return system.step(w, e);
}

/** The world after the events labelled `labels`, from `from` (the initial world when absent). */
export function walkLabelled<S>(system: TransitionSystem<S, WorldEvent>, labels: readonly string[], from: S = system.initial()): S {
  let w = from;
  for (const label of labels) w = takeLabelled(system, w, label).state;
  return w;
}

/** The packed state after the events labelled `labels`, from the initial state. */
export function walkPackedLabelled(packed: PackedSystem<WorldEvent>, labels: readonly string[]): Int32Array {
  let s = new Int32Array(packed.width);
  packed.initial(s);
  for (const label of labels) {
    const events = packed.events(s);
    const e = events.find((x) => labelOf(x) === label);
    if (e === undefined) throw new Error(`${label} is not enabled; enabled: ${events.map(labelOf).join(', ')}`);
    const t = new Int32Array(packed.width);
    packed.apply(s, e, t);
    s = t;
  }
  return s;
}

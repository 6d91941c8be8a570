/**
 * Replaying an outbox trace: exactly (every step's choice, label and change
 * of state compared), or re-run under other rules (`--under`), reporting
 * whether it still violates and where it departs from the recording. Rule
 * files the trace was recorded with come only from the user (`supplied`).
 */
import type { RuleSet } from '../../model/rules.ts';
import { applyChange, stateChange, type Trace } from '../trace-format.ts';
import { sameCanonical } from '../core/canonical.ts';
import { rerun, type RerunResult } from '../core/rerun.ts';
import { simulateEvents } from '../core/simulate.ts';
import { checkingOnly } from '../core/system.ts';
import { BOUNDS_DEFAULT, steppersFor } from '../check.ts';
import { outboxMatchKey, recordedOldRules, recordedOptions, recordedWorld, type SuppliedRules } from './from-trace.ts';
import { outboxSystem } from './outbox-system.ts';
import { healStepsOf } from './options.ts';
import { ANSWERS_SAME_AS } from './events/broker.ts';
import type { World, WorldEvent } from './world.ts';

/** The outcome of an exact replay. */
export type ExactReplay = { identical: true; steps: number } | { identical: false; step: number; why: string };

/** Replays a trace exactly under the rules it recorded. */
export async function replayExactly(trace: Trace, supplied: SuppliedRules = {}): Promise<ExactReplay> {
  const { pair, options } = await recordedWorld(trace.header, supplied);
  const whole = outboxSystem(options, { rules: pair.rules, ...(pair.oldRules ? { oldRules: pair.oldRules } : {}) }, steppersFor(pair.rules, pair.oldRules));
  // A trace of one property replays to its violation, as it was recorded (record-trace.ts): another's met on the way is not its end.
  const recorded = trace.header.violation;
  const system = recorded === null ? whole : checkingOnly(whole, recorded.property);
  const events = trace.steps.map((s) => s.event as WorldEvent | null);
  const sim = simulateEvents(system, events, { healStepsMax: healStepsOf(BOUNDS_DEFAULT.healStepsMax, options) });
  let before: World = sim.initial;
  for (let i = 0; i < trace.steps.length; i++) {
    const rec = trace.steps[i];
    const got = sim.steps[i];
    if (got === undefined) {
      if (sim.invalidAt === i) return { identical: false, step: i + 1, why: `the recorded event "${rec.label}" is not enabled here` };
      return { identical: false, step: i + 1, why: `the run ended (${sim.violation?.property ?? 'no violation'}) before this step` };
    }
    if (got.label !== rec.label) return { identical: false, step: i + 1, why: `label "${got.label}", recorded "${rec.label}"` };
    if (got.group !== rec.group || got.index !== rec.choice) {
      return { identical: false, step: i + 1, why: `choice ${got.group}#${got.index}, recorded ${rec.group}#${rec.choice}` };
    }
    const change = stateChange(before, got.state);
    if (!sameCanonical(change, rec.change)) return { identical: false, step: i + 1, why: 'the change of state differs from the recording' };
    before = got.state;
  }
  const want = trace.header.violation;
  const got = sim.violation;
  if ((want === null) !== (got === null) || (want !== null && got !== null && (want.property !== got.property || want.step !== got.step))) {
    return { identical: false, step: trace.steps.length, why: `violation ${got?.property ?? 'none'}, recorded ${want?.property ?? 'none'}` };
  }
  return { identical: true, steps: trace.steps.length };
}

/** The states a trace recorded, rebuilt from its changes. */
export function recordedStates(initial: World, trace: Trace): World[] {
  const start = initial as unknown as Record<string, unknown>;
  let state = start;
  return trace.steps.map((s) => {
    state = applyChange(state, s.change, start);
    return state as unknown as World;
  });
}

/**
 * Re-runs a trace's recorded world under `rules` (and the recorded old
 * rules, if any: a rule file among them must be `supplied`). The rules the
 * trace recorded are not needed, so not loaded.
 */
export async function rerunTrace(trace: Trace, rules: RuleSet, supplied: SuppliedRules = {}): Promise<RerunResult> {
  const options = recordedOptions(trace.header);
  const oldRules = await recordedOldRules(trace.header, supplied);
  const events = trace.steps.map((s) => s.event as WorldEvent | null);
  // The recorded world gave an answer the same as another (ok:false): it is given here too, whatever `rules` classify.
  const apart = events.some((e) => e?.kind === 'answer' && ANSWERS_SAME_AS.has(e.answer));
  const system = outboxSystem(options, { rules, ...(oldRules ? { oldRules } : {}), ...(apart ? { answersApart: true as const } : {}) }, steppersFor(rules, oldRules));
  return rerun(system, events, recordedStates(system.initial(), trace), outboxMatchKey, trace.header.seed, healStepsOf(BOUNDS_DEFAULT.healStepsMax, options));
}

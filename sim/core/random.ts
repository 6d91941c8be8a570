/**
 * Random simulation: one seeded run of any {@link TransitionSystem}. A run is a safety
 * phase (faults enabled, every `always` property checked after every step),
 * then, when the system has one, a liveness phase: faults stop (`heal`), the
 * system runs until it is quiet, and the `eventually` properties are checked
 * there. Every bound is reported in the result, never silent.
 */
import { seededChooser } from './chooser.ts';
import { boundVerdict, isQuiet, quietVerdict } from './liveness.ts';
import { BUSY_PROPERTY, type TransitionSystem, type Violation } from './system.ts';
import { POSITION_RUN, watchAt, watchStep } from '../watch.ts';

/** Bounds of one run. */
export interface RunBounds {
  /** Steps of the safety phase (faults on). */
  faultStepsMax: number;
  /** Steps allowed for the system to become quiet once faults stop. */
  healStepsMax: number;
}

/** Label of the step at which faults stop and the liveness phase begins. */
export const HEAL_LABEL = 'faults stop: liveness phase';

/** The liveness violation of a system still busy when the liveness phase's bound is reached. */
export function busyAfterHealing(healStepsMax: number): Violation {
  return {
    property: BUSY_PROPERTY,
    subject: '*',
    body: '',
    layer: 'scheduler',
    detail: `the system was still busy ${healStepsMax} steps after faults stopped (silence is never an end state)`,
  };
}

/** One step as recorded in a trace. */
export interface RecordedStep<E> {
  label: string;
  /** The subsystem that chose, and the index it chose among that group's events. */
  group: string;
  index: number;
  /** The event, or null for the switch to the liveness phase. */
  event: E | null;
  tags: readonly string[];
  phase: 'fault' | 'heal';
}

/** What one run found. */
export interface RunResult<S, E> {
  seed: number;
  steps: RecordedStep<E>[];
  /** States after each step (index 0 is the initial state); only when recording. */
  states: S[] | null;
  final: S;
  violation: (Violation & { step: number }) | null;
  /** Tag counts of this run. */
  tags: Record<string, number>;
  /** `sometimes` properties reached in this run. */
  reached: string[];
  /** Why the run ended. */
  end: 'violation' | 'quiet' | 'waiting' | 'heal-bound' | 'fault-bound-no-heal' | 'no-events';
}

/** Where in a seeded run the system threw: the step being taken (1-based) and the events taken before it (null: the switch to the liveness phase). */
export interface RunPosition<E> {
  seed: number;
  step: number;
  events: (E | null)[];
}

const positions = new WeakMap<object, RunPosition<unknown>>();

/** Where the run was when `err` was thrown out of {@link runSeed}, if it was. */
export function runPositionOf<E>(err: unknown): RunPosition<E> | undefined {
  return typeof err === 'object' && err !== null ? (positions.get(err) as RunPosition<E> | undefined) : undefined;
}

/**
 * Runs one seeded world. An error the system throws (a rule set's decision
 * that breaks its contract, say) leaves unchanged, with its position
 * attached (see {@link runPositionOf}).
 */
export function runSeed<S, E>(
  system: TransitionSystem<S, E>,
  seed: number,
  bounds: RunBounds,
  record = false,
  initial: S = system.initial(),
): RunResult<S, E> {
  const chooser = seededChooser(seed);
  let state = initial;
  const steps: RecordedStep<E>[] = [];
  const states: S[] | null = record ? [state] : null;
  const tags: Record<string, number> = {};
  const reached = new Set<string>();
  const always = system.properties.filter((p) => p.kind === 'always');
  const sometimes = system.properties.filter((p) => p.kind === 'sometimes');

  const observe = (s: S): void => {
    for (const p of sometimes) if (!reached.has(p.name) && p.check(s) !== null) reached.add(p.name);
  };
  const result = (end: RunResult<S, E>['end'], violation: RunResult<S, E>['violation']): RunResult<S, E> => ({
    seed,
    steps,
    states,
    final: state,
    violation,
    tags,
    reached: [...reached].sort(),
    end,
  });
  /** The end of a run judged at a quiet state (`quietVerdict`, `boundVerdict`). */
  const judged = (v: Violation | null | 'waiting'): RunResult<S, E> => {
    if (v === 'waiting') return result('waiting', null);
    return v !== null ? result('violation', { ...v, step: steps.length }) : result('quiet', null);
  };

  watchAt(POSITION_RUN, seed, 1);
  try {
    observe(state);
    let phase: 'fault' | 'heal' = 'fault';
    let budget = bounds.faultStepsMax;
    for (;;) {
      watchStep(steps.length + 1);
      const choices = system.choices(state);
      if (phase === 'heal' && isQuiet(system, state, choices)) {
        return judged(quietVerdict(system, state));
      }
      const groups = choices.filter((g) => g.events.length > 0 && g.weight > 0);
      if (groups.length === 0 || budget === 0) {
        if (phase === 'fault' && system.heal !== undefined) {
          phase = 'heal';
          budget = bounds.healStepsMax;
          state = system.heal(state);
          steps.push({ label: HEAL_LABEL, group: 'heal', index: 0, event: null, tags: ['heal'], phase });
          if (states !== null) states.push(state);
          continue;
        }
        if (phase === 'heal') {
          const v = boundVerdict(system, state);
          return v === 'busy' ? result('heal-bound', { ...busyAfterHealing(bounds.healStepsMax), step: steps.length }) : judged(v);
        }
        return result(groups.length === 0 ? 'no-events' : 'fault-bound-no-heal', null);
      }
      const g = groups[chooser.weighted('schedule', groups.map((x) => x.weight))];
      const index = g.eventWeights !== undefined ? chooser.weighted(g.group, g.eventWeights) : chooser.int(g.group, g.events.length);
      const event = g.events[index];
      const out = system.step(state, event);
      state = out.state;
      budget--;
      for (const t of out.tags) tags[t] = (tags[t] ?? 0) + 1;
      steps.push({ label: system.label(event), group: g.group, index, event, tags: out.tags, phase });
      if (states !== null) states.push(state);
      for (const p of always) {
        const v = p.check(state);
        if (v !== null) return result('violation', { ...v, step: steps.length });
      }
      observe(state);
    }
  } catch (err) {
    if (typeof err === 'object' && err !== null && !positions.has(err)) positions.set(err, { seed, step: steps.length + 1, events: steps.map((s) => s.event) });
    throw err;
  }
}

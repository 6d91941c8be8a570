/**
 * The fault knobs of one outbox world, in one documented object (fault
 * knobs in one place, units and qualifiers last). Each seed draws its own mix
 * (swarm testing), so different seeds stress different faults; `check` prints
 * the mix first.
 */
import { seededChooser } from '../core/chooser.ts';
import type { BrokerMode } from '../../model/types.ts';
import { BROKER_MODES } from '../../model/broker.ts';

/**
 * Broker answers to a POST; the swarm's weights are indexed by position
 * here (`swarmOptions` draws a later addition at the end so that it shifts
 * no earlier draw; the named streams of the event table's knobs are meant to
 * end that). What each answer means is its entry in the event table
 * (events/broker.ts, docs/faults.md).
 */
export const ANSWERS = ['accept', 'refuse-400', 'refuse-409', 'unavailable-503', 'timeout-unsent', 'lost-reply', 'garbled-200', 'crash-in-post', 'garbled-unsent'] as const;
export type Answer = (typeof ANSWERS)[number];

/** Fault events other than broker answers, in the order the swarm draws their weights (entries in events/faults.ts). */
export const FAULTS = ['crash', 'tear-record', 'tear-claim', 'newer-schema', 'legacy-record'] as const;
export type FaultKind = (typeof FAULTS)[number];

/** Options of one world. */
export interface WorldOptions {
  /** Engine processes alive at once. */
  engines: number;
  /** Outbox ids (task ids). */
  ids: number;
  /** Bodies the producer writes per id, each a new generation replacing the last. */
  bodiesPerId: number;
  /** Attempts before an item parks. */
  attemptsMax: number;
  broker: BrokerMode;
  /** True when engines of the old rule set run beside the new (version skew). */
  skew: boolean;
  /** Engine crashes allowed (between any two durable writes, or during a POST). */
  crashesMax: number;
  /** Record or claim corruptions, schema rewrites and legacy rewrites allowed. */
  corruptionsMax: number;
  /** Operator actions (requeue, restore) allowed. */
  operatorActionsMax: number;
  /** Relative weight of each broker answer (index as in {@link ANSWERS}). */
  answerWeights: readonly number[];
  /** Relative weight of each fault (index as in {@link FAULTS}). */
  faultWeights: readonly number[];
  /** Relative weight of the fault group against engine steps. */
  faultGroupWeight: number;
  /**
   * The broker's steady answer once faults stop (liveness phase): `accept`
   * for a healthy broker, or a failure that persists (an outage, a broker
   * that garbles every reply). Either way the system must become quiet.
   */
  healAnswer: Answer;
  /**
   * Steps of the safety phase before faults stop. Drawn per seed, so that
   * some runs stop their faults with work still in flight and the liveness
   * phase has something to finish.
   */
  faultStepsMax: number;
}

/** Options fixed by the user; absent fields are drawn by the swarm. */
export type FixedOptions = Partial<Pick<WorldOptions, 'engines' | 'ids' | 'bodiesPerId' | 'attemptsMax' | 'broker' | 'skew'>>;

function between(pick: (n: number) => number, lo: number, hi: number): number {
  return lo + pick(hi - lo + 1);
}

/**
 * Draws a world's options from the seed's `swarm` stream: sizes (engines 1-3,
 * ids 1-2, bodies per id 1-3, attempts limit 1-5), broker mode, and the fault
 * mix, in which each seed switches some faults off entirely.
 */
export function swarmOptions(seed: number, fixed: FixedOptions = {}): WorldOptions {
  const c = seededChooser(seed);
  const pick = (n: number) => c.int('swarm', n);
  // Draw every field in a fixed order whether or not it is fixed, so that
  // fixing one option does not shift the others.
  const engines = between(pick, 1, 3);
  const ids = between(pick, 1, 2);
  const bodiesPerId = between(pick, 1, 3);
  const attemptsMax = between(pick, 1, 5);
  const broker = BROKER_MODES[pick(BROKER_MODES.length)];
  const on = () => (pick(4) === 0 ? 0 : 1 + pick(4));
  // Answers added to the menu later are drawn at the end, so that they shift no earlier draw.
  const answerWeights = ANSWERS.filter((a) => a !== 'garbled-unsent').map((a) => (a === 'accept' ? 6 + pick(6) : on()));
  const faultWeights = FAULTS.map(() => on());
  const crashesMax = pick(4);
  const corruptionsMax = pick(3);
  const operatorActionsMax = pick(4);
  const faultGroupWeight = 1 + pick(4);
  // Drawn last, so that it shifts no earlier draw. Half the seeds heal to a
  // healthy broker, half to a persistent failure.
  const persistent = ANSWERS.filter((a) => a !== 'accept' && a !== 'crash-in-post');
  const healAnswer: Answer = pick(2) === 0 ? 'accept' : persistent[pick(persistent.length)];
  const faultStepsMax = between(pick, 20, 120);
  answerWeights.push(on());
  return {
    engines: fixed.engines ?? engines,
    ids: fixed.ids ?? ids,
    bodiesPerId: fixed.bodiesPerId ?? bodiesPerId,
    attemptsMax: fixed.attemptsMax ?? attemptsMax,
    broker: fixed.broker ?? broker,
    skew: fixed.skew ?? false,
    crashesMax,
    corruptionsMax,
    operatorActionsMax,
    answerWeights,
    faultWeights,
    faultGroupWeight,
    healAnswer,
    faultStepsMax,
  };
}

/** One line describing the options, printed before a run. */
export function describeOptions(o: WorldOptions): string {
  const answers = ANSWERS.map((a, i) => `${a}:${o.answerWeights[i]}`).join(' ');
  const faults = FAULTS.map((f, i) => `${f}:${o.faultWeights[i]}`).join(' ');
  return `engines=${o.engines} ids=${o.ids} bodies/id=${o.bodiesPerId} attemptsMax=${o.attemptsMax} broker=${o.broker} skew=${o.skew} crashesMax=${o.crashesMax} corruptionsMax=${o.corruptionsMax} operatorMax=${o.operatorActionsMax} faultWeight=${o.faultGroupWeight} answers[${answers}] faults[${faults}] healAnswer=${o.healAnswer} faultSteps=${o.faultStepsMax}`;
}

/** Whether the broker may give `answer` to a POST: once faults stop only the steady answer, and a crash in the POST only while crashes are left. */
export function answerOffered(options: WorldOptions, answer: Answer, healing: boolean, crashes: number): boolean {
  if (healing && answer !== options.healAnswer) return false;
  return answer !== 'crash-in-post' || crashes < options.crashesMax;
}

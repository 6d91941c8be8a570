/**
 * The world `explore` searches: sizes and fault budgets fixed by flags, every
 * broker answer and every fault of the menu enabled (weights only matter to
 * random runs).
 */
import type { BrokerMode } from '../../model/types.ts';
import { ANSWERS, FAULTS, type WorldOptions } from './options.ts';

/** Sizes and budgets of an exhaustive search. */
export interface ExploreSizes {
  ids: number;
  bodiesPerId: number;
  engines: number;
  attemptsMax: number;
  crashesMax: number;
  corruptionsMax: number;
  operatorActionsMax: number;
  broker: BrokerMode;
  /** The broker's dedupe window in broker steps; 0: it never forgets. */
  dedupeWindow: number;
  /** Late landing: at most this many POSTs in transit; 0: off (events/land.ts). */
  inTransitMax: number;
  /** Record retention: sweeps of DELIVERED records allowed; 0: off (events/retention.ts). */
  sweepsMax: number;
  skew: boolean;
  /** The opt-in property at-most-once is checked too. */
  atMostOnce?: boolean;
}

export const EXPLORE_DEFAULTS: ExploreSizes = {
  ids: 1,
  bodiesPerId: 2,
  engines: 2,
  attemptsMax: 2,
  crashesMax: 1,
  corruptionsMax: 0,
  operatorActionsMax: 0,
  broker: 'id-ok',
  dedupeWindow: 0,
  inTransitMax: 0,
  sweepsMax: 0,
  skew: false,
};

/** World options for a search. */
export function exploreOptions(s: ExploreSizes): WorldOptions {
  return {
    ...s,
    answerWeights: ANSWERS.map(() => 1),
    faultWeights: FAULTS.map(() => 1),
    faultGroupWeight: 1,
    healAnswer: 'accept',
    faultStepsMax: 120,
  };
}

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
  skew: boolean;
  /** The opt-in property at-most-once is checked too. */
  atMostOnce?: boolean;
  /** The clock's horizon in ticks (docs/rules.md, 'Time'); 0 or absent: no clock. */
  ticksMax?: number;
  /** A claim's lease in ticks (needs a clock); 0 or absent: claims never expire, and no engine stalls. */
  leaseTicks?: number;
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
    // With leases, the stall fault is on like every other fault.
    ...((s.ticksMax ?? 0) > 0 && (s.leaseTicks ?? 0) > 0 ? { stallWeight: 1 } : {}),
  };
}

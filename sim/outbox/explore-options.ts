/**
 * The world `explore` searches: sizes and fault budgets fixed by flags, every
 * broker answer and every fault of the menu enabled (weights only matter to
 * random runs).
 */
import type { BrokerMode } from '../../model/types.ts';
import { HEALTHY_ANSWER } from './events/broker.ts';
import { EVENT_KINDS } from './events/table.ts';
import type { WorldOptions } from './options.ts';

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
  /** The world settings the table's kinds declare (`--dedupe-window` ...), by name; absent: off. */
  settings?: Readonly<Record<string, number>>;
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
  skew: false,
};

/** World options for a search. */
export function exploreOptions(s: ExploreSizes): WorldOptions {
  return {
    ...s,
    // Every kind on (a kind that follows a setting is on when its setting is).
    weights: Object.fromEntries(EVENT_KINDS.flatMap((k) => (k.knob === null || k.knob.draw === 'setting' ? [] : [[k.name, 1]]))),
    faultGroupWeight: 1,
    healAnswer: HEALTHY_ANSWER,
    faultStepsMax: 120,
  };
}

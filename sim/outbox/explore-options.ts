/**
 * The world `explore` searches: sizes and fault budgets fixed by flags, every
 * broker answer and every fault of the menu enabled (weights only matter to
 * random runs).
 */
import type { BrokerMode } from '../../model/types.ts';
import { HEALTHY_ANSWER } from './events/broker.ts';
import { EVENT_KINDS, SETTINGS } from './events/table.ts';
import type { WorldOptions } from './options.ts';
import { healthyWeights } from './nothing-fails.ts';

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
  /** Every id's bodies are the same (`WorldOptions.sameBodies`). */
  sameBodies?: boolean;
  /** Ids named alike, as production ids (`WorldOptions.longIds`). */
  longIds?: boolean;
  /** The two ids a pair that differs only by case, normalisation or a trailing space (`WorldOptions.idShape`). */
  idShape?: string;
  /** Every body's shape after its letter (`WorldOptions.bodyShape`). */
  bodyShape?: string;
  /** Every broker answer but `accept`, and every fault, switched off: a world where nothing fails (nothing-fails.ts). */
  healthy?: boolean;
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

/**
 * Every kind's weight in a search: on (a kind that follows a setting is on
 * when its setting is). Built once: each world's `weights` is a copy.
 */
const SEARCH_WEIGHTS: Readonly<Record<string, number>> = Object.fromEntries(EVENT_KINDS.flatMap((k) => (k.knob === null || k.knob.draw === 'setting' ? [] : [[k.name, 1]])));

/**
 * A world's settings with every setting of the table as a key, in the
 * table's order (one hidden class for every world's settings; see
 * {@link exploreOptions}); a setting the world does not give is undefined,
 * which reads, encodes and prints as absent. A name the table does not
 * know (refused by the flags' checks) comes after, as given.
 */
function uniformSettings(given: Readonly<Record<string, number>>): Readonly<Record<string, number>> {
  const out: Record<string, number | undefined> = {};
  for (const s of SETTINGS) out[s.name] = given[s.name];
  for (const name in given) if (!(name in out)) out[name] = given[name];
  return out as Record<string, number>;
}

/**
 * World options for a search. Every world's options have one hidden class
 * (V8's map): every field is written, in one order, the optional ones
 * (`settings`, `atMostOnce`, `sameBodies`, `longIds`, `idShape`, `bodyShape`) undefined when the sizes lack them (absent
 * for every reader: `?.`, `=== true`, JSON and the world's key skip
 * undefined). Spreads of sizes with and without them gave each suite world
 * of `check` its own class, and code optimised on the first worlds (every
 * kind's `enabled`, the packed explorer's expansion) was thrown away and
 * compiled again at each later world. The order is the swarm's
 * (`swarmOptions`), so that the two share classes where they can.
 */
export function exploreOptions(s: ExploreSizes): WorldOptions {
  return {
    engines: s.engines,
    ids: s.ids,
    bodiesPerId: s.bodiesPerId,
    attemptsMax: s.attemptsMax,
    broker: s.broker,
    skew: s.skew,
    settings: s.settings === undefined ? undefined : uniformSettings(s.settings),
    atMostOnce: s.atMostOnce,
    sameBodies: s.sameBodies,
    longIds: s.longIds,
    idShape: s.idShape,
    bodyShape: s.bodyShape,
    crashesMax: s.crashesMax,
    corruptionsMax: s.corruptionsMax,
    operatorActionsMax: s.operatorActionsMax,
    weights: s.healthy === true ? healthyWeights(SEARCH_WEIGHTS, HEALTHY_ANSWER) : { ...SEARCH_WEIGHTS },
    faultGroupWeight: 1,
    healAnswer: HEALTHY_ANSWER,
    faultStepsMax: 120,
  };
}

/**
 * Traces written before the weights were kept by kind name keep them by
 * position (`answerWeights`, `faultWeights`) and the dedupe window at the top
 * level: read by the old order, they are the weights the swarm draws today
 * for the same seed (the swarm's draws did not move, only how they are kept).
 */
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from './events/table.ts';
import { currentOptions } from './legacy-options.ts';
import { drawWeights, swarmOptions, type WorldOptions } from './options.ts';

/** The options line of a trace written by `check` (seed 1) in the old shape. */
const OLD = {
  answerWeights: [7, 0, 4, 3, 1, 4, 2, 2, 0],
  attemptsMax: 2,
  bodiesPerId: 1,
  broker: 'id-409',
  corruptionsMax: 1,
  crashesMax: 2,
  dedupeWindow: 0,
  engines: 2,
  faultGroupWeight: 1,
  faultStepsMax: 114,
  faultWeights: [2, 0, 4, 0, 0],
  healAnswer: 'accept',
  ids: 1,
  operatorActionsMax: 0,
  skew: false,
};

describe('options of traces in the old shape', () => {
  it('are read by the old order: each weight by its kind, the window as a setting', () => {
    const o = currentOptions(OLD) as WorldOptions & Record<string, unknown>;
    expect(o.weights).toEqual({
      accept: 7, 'refuse-400': 0, 'refuse-409': 4, 'unavailable-503': 3, 'timeout-unsent': 1, 'lost-reply': 4, 'garbled-200': 2, 'crash-in-post': 2, 'garbled-unsent': 0,
      crash: 2, 'tear-record': 0, 'tear-claim': 4, 'newer-schema': 0, 'legacy-record': 0,
    });
    expect(o.settings).toEqual({ dedupeWindow: 0 });
    expect(o.answerWeights).toBeUndefined();
    expect(o.dedupeWindow).toBeUndefined();
    // The same weights each kind's stream draws for seed 1 today (before the covering rows of the
    // first seeds rewrite some: swarm-coverage.ts), for every kind the old shape kept (a kind added
    // since, such as field-corrupt, has no weight in such a trace: it is off in its replay).
    const kept = new Set(EVENT_KINDS.filter((k) => k.knob?.v1 !== undefined).map((k) => k.name));
    const today = Object.fromEntries(Object.entries(drawWeights(1)).filter(([name]) => kept.has(name)));
    expect(o.weights).toEqual(today);
    expect(Object.keys(drawWeights(1)).length).toBeGreaterThan(kept.size);
  });

  it('leaves options in today\'s shape as they are', () => {
    const today = swarmOptions(5);
    expect(currentOptions(today)).toBe(today);
    expect(currentOptions(null)).toBe(null);
  });
});

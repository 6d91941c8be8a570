/**
 * Duplicates made visible (issue 20 item 3): broker mode `log` keeps every
 * accepted POST, check counts duplicate deliveries in every mode, and the
 * opt-in property at-most-once catches a design that is legal by default
 * (fail-closed resends after a lost reply: at-least-once).
 */
import { describe, expect, it } from 'vitest';
import { brokerAccept, isDuplicate } from '../../model/broker.ts';
import { failClosed } from '../../model/catalog/index.ts';
import { BOUNDS_DEFAULT, runShard, type CheckPlan } from '../check.ts';
import { layersOf } from '../check-report.ts';
import { outboxProperties } from './properties.ts';

const envelope = { id: 'a', body: 'A', key: 'a#0' };

function check(plan: Partial<CheckPlan>) {
  return runShard({ rules: failClosed, oldRules: null, seedStart: 1, seeds: 400, broker: null, bounds: BOUNDS_DEFAULT, ...plan }, 1, 401);
}

describe('broker mode log', () => {
  it('appends every accepted POST, duplicates included, and answers ok', () => {
    const first = brokerAccept('log', null, envelope);
    const second = brokerAccept('log', first.holding, envelope);
    expect(second).toEqual({ holding: { body: 'A', key: 'a#0', log: ['A', 'A'] }, stored: true, reply: 'ok' });
    expect(isDuplicate(first.holding, 'A')).toBe(true);
    expect(isDuplicate(first.holding, 'B')).toBe(false);
  });
  it('a deduping mode stores no duplicate', () => {
    const first = brokerAccept('id-ok', null, envelope);
    expect(brokerAccept('id-ok', first.holding, envelope).stored).toBe(false);
  });
});

describe('at-most-once is opt-in', () => {
  it('is not among the default properties', () => {
    expect(outboxProperties().map((p) => p.name)).not.toContain('at-most-once');
    expect(outboxProperties(true).map((p) => p.name)).toContain('at-most-once');
  });
  it('fail-closed under --broker log: legal by default, duplicates counted, caught by --property at-most-once', () => {
    const plain = check({ broker: 'log' });
    expect(plain.violatedRuns).toEqual({});
    expect(layersOf(plain.tags).duplicateDeliveries).toBeGreaterThan(0);
    const strict = check({ broker: 'log', atMostOnce: true });
    expect(Object.keys(strict.violatedRuns)).toEqual(['at-most-once']);
  });
});

/**
 * The note behind retries-deduped (events/rekeyed.ts): a store, under a
 * broker deduping by key, of the body an id holds under another key is
 * noted unless the broker forgot the id or an operator acted (under version
 * skew, not when the key held is the other version's for the same record);
 * the search finds a rule set whose retries carry new keys, and fail-closed
 * stays clean where a dedupe window or a requeue stores a second copy.
 */
import { describe, expect, it } from 'vitest';
import { brokerAccept, type Holding } from '../../../model/broker.ts';
import { failClosed } from '../../../model/catalog/index.ts';
import type { RuleSet } from '../../../model/rules.ts';
import { freshRecord } from '../../../model/record.ts';
import type { BrokerMode, RecordSlot } from '../../../model/types.ts';
import keyPerAttempt from '../../../properties/mutants/key-per-attempt.ts';
import keyMarksRequeue from '../../../properties/rule-api/key-marks-requeue.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { exploreOutbox } from '../explore-outbox.ts';
import { retriesDeduped } from '../properties.ts';
import type { World } from '../world.ts';
import { heldAfter, otherVersionKey } from './rekeyed.ts';

/** The holding a POST of `body` under `key` leaves where the broker held `held`, in a world with `operatorActions` done (`otherKey`: the other version's key, under skew). */
function after(mode: BrokerMode, held: Holding | null, body: string, key: string, operatorActions = 0, otherKey?: string | null): Holding | null {
  const envelope = { id: 'a', body, key };
  return heldAfter(mode, { operatorActions } as World, held, brokerAccept(mode, held, envelope), envelope, otherKey === undefined ? undefined : () => otherKey);
}

describe('the rekeyed note', () => {
  const held: Holding = { body: 'A', key: 'a#0' };

  it('is set on a store of the same body under another key, by a broker deduping by key, with no operator action', () => {
    expect(after('key', held, 'A', 'a#0.1')).toEqual({ body: 'A', key: 'a#0.1', rekeyed: true });
  });

  it('is not set when the key is the same (the broker drops it), the body another, the id new, an operator acted, or the broker does not dedupe by key', () => {
    expect(after('key', held, 'A', 'a#0')).toBe(held);
    expect(after('key', held, 'B', 'a#1')).toEqual({ body: 'B', key: 'a#1' });
    expect(after('key', null, 'A', 'a#0')).toEqual({ body: 'A', key: 'a#0' });
    expect(after('key', held, 'A', 'a#1', 1)).toEqual({ body: 'A', key: 'a#1' });
    expect(after('none', held, 'A', 'a#0.1')).toEqual({ body: 'A', key: 'a#0.1' });
    expect(after('id-ok', held, 'A', 'a#0.1')).toBe(held);
  });

  it('after an operator acted, is set under skew only when the key held is the one the other version gives this POST\'s record', () => {
    // Two versions that key one cycle apart (a#1 and a#1#rq): the second store is the upgrade's, not the operator's.
    expect(after('key', { body: 'A', key: 'a#1' }, 'A', 'a#1#rq', 1, 'a#1')).toEqual({ body: 'A', key: 'a#1#rq', rekeyed: true });
    // The key held is of another cycle (the operator's new epoch), or the other version's key is unknown: excused.
    expect(after('key', held, 'A', 'a#1', 1, 'a#1')).toEqual({ body: 'A', key: 'a#1' });
    expect(after('key', held, 'A', 'a#1', 1, null)).toEqual({ body: 'A', key: 'a#1' });
  });

  it('the other version\'s key is asked of the record the POST was built from: none once the record moved on, or when a version cannot read it', () => {
    const record = { ...freshRecord('A', 1), inFlight: true };
    const slot: RecordSlot = { kind: 'record', record };
    const sent = keyMarksRequeue.envelope('a', record);
    expect(otherVersionKey(keyMarksRequeue, failClosed, slot, sent)).toBe('a#1');
    expect(otherVersionKey(failClosed, keyMarksRequeue, slot, failClosed.envelope('a', record))).toBe('a#1#rq');
    // Built from epoch 0, the record now at epoch 1 (an operator's resubmit since): its own key for it is not the one sent.
    expect(otherVersionKey(keyMarksRequeue, failClosed, slot, { ...sent, key: 'a#0' })).toBeNull();
    expect(otherVersionKey(keyMarksRequeue, undefined, slot, sent)).toBeNull();
    expect(otherVersionKey(keyMarksRequeue, failClosed, { kind: 'torn', bytes: '{"stat' }, sent)).toBeNull();
    expect(otherVersionKey(keyMarksRequeue, failClosed, undefined, sent)).toBeNull();
  });

  it('is a violation of retries-deduped wherever it stands, at the first id in sorted order', () => {
    const w = { broker: { b: { body: 'B', key: 'b#0.2', rekeyed: true }, a: { body: 'A', key: 'a#0' } } } as unknown as World;
    expect(retriesDeduped.check(w)).toMatchObject({ property: 'retries-deduped', subject: 'b', body: 'B', layer: 'stored' });
    expect(retriesDeduped.check({ broker: { a: { body: 'A', key: 'a#0' } } } as unknown as World)).toBeNull();
  });
});

describe('retries-deduped in the search', () => {
  const search = (rules: RuleSet, broker: BrokerMode, more: Partial<typeof EXPLORE_DEFAULTS> = {}) =>
    exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, engines: 1, attemptsMax: 3, crashesMax: 1, broker, ...more }), { rules }, steppersFor(rules, null), { statesMax: 200_000 });

  it('finds a key per attempt under a broker deduping by key: a retry after a lost reply stores the body again', () => {
    const r = search(keyPerAttempt, 'key');
    expect(r.violations.map((v) => v.violation.property)).toEqual(['retries-deduped']);
    expect(r.violations[0].violation.detail).toMatch(/stored A for a again under key a#0\.1/);
  });

  it('holds for fail-closed under a broker deduping by key, also where the broker forgets or an operator requeues (each stores a second copy)', () => {
    for (const more of [{}, { settings: { dedupeWindow: 2 } }, { operatorActionsMax: 2 }]) {
      const r = search(failClosed, 'key', more);
      expect([r.complete, r.violations]).toEqual([true, []]);
    }
  });

  it('finds two versions that key a requeued cycle apart, beside each other after an operator\'s action; each alone holds, and so does fail-closed beside itself', () => {
    const skewed = (rules: RuleSet, oldRules: RuleSet) =>
      exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, engines: 1, bodiesPerId: 1, operatorActionsMax: 1, broker: 'key', skew: true }), { rules, oldRules }, steppersFor(rules, oldRules), { statesMax: 200_000 });
    const r = skewed(keyMarksRequeue, failClosed);
    expect(r.violations.map((v) => v.violation.property)).toEqual(['retries-deduped']);
    expect(r.violations[0].violation.detail).toMatch(/stored A for a again under key a#1(#rq)?:/);
    expect(search(keyMarksRequeue, 'key', { operatorActionsMax: 2 }).violations).toEqual([]);
    const same = skewed(failClosed, failClosed);
    expect([same.complete, same.violations]).toEqual([true, []]);
  });

  it('does not judge keys under a broker that does not dedupe by them', () => {
    for (const broker of ['id-ok', 'none'] as const) expect(search(keyPerAttempt, broker).violations.map((v) => v.violation.property)).not.toContain('retries-deduped');
  });
});

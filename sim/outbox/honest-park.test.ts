/**
 * honest-park (issue 20 item 5): a park that claims non-delivery never stands
 * for a body the broker holds. fail-closed broke it (a 409 from an id-409
 * broker after a lost reply that stored the body parked permanent-refusal);
 * the mutant refusal-after-unknown keeps that old park.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import refusalAfterUnknown from '../../properties/mutants/refusal-after-unknown.ts';
import { BOUNDS_DEFAULT, runShard } from '../check.ts';
import { honestPark } from './properties.ts';
import type { World } from './world.ts';

function checkId409(rules: RuleSet) {
  return runShard({ rules, oldRules: null, seedStart: 1, seeds: 300, broker: 'id-409', bounds: BOUNDS_DEFAULT }, 1, 301);
}

function parked(reason: string, held: string | null): World {
  return {
    records: { a: { kind: 'record', record: { schema: 1, status: 'PARKED', reason, payload: 'A', digest: 'x', attempts: 1, resendEpoch: 0 } } },
    broker: held === null ? {} : { a: { body: held, key: 'a#0' } },
    quarantined: [],
  } as unknown as World;
}

describe('honest-park', () => {
  it('a park claiming non-delivery over the body the broker holds is a violation; outcome-unknown is not', () => {
    expect(honestPark.check(parked('permanent-refusal', 'A'))?.property).toBe('honest-park');
    expect(honestPark.check(parked('max-attempts', 'A'))?.property).toBe('honest-park');
    expect(honestPark.check(parked('outcome-unknown', 'A'))).toBeNull();
    expect(honestPark.check(parked('permanent-refusal', 'B'))).toBeNull();
    expect(honestPark.check(parked('permanent-refusal', null))).toBeNull();
  });
  it('judges a quarantined file as it was written: a cause that said not delivered while the broker held its body', () => {
    const file = { id: 'a', body: 'A', generation: 1, cause: 'parked-permanent-refusal', recovery: 'r' };
    const w = (contradicted: boolean): World => ({ ...parked('outcome-unknown', 'A'), quarantined: [contradicted ? { ...file, contradicted: true } : file] }) as unknown as World;
    expect(honestPark.check(w(true))?.detail).toMatch(/file a=A was quarantined as "parked-permanent-refusal", a cause that says it was not delivered, while the broker held A/);
    // Not noted: written before the broker held the body (an operator's requeue may deliver it later).
    expect(honestPark.check(w(false))).toBeNull();
  });
  it('fail-closed holds it against an id-409 broker; the old refusal park does not', () => {
    expect(checkId409(failClosed).violatedRuns['honest-park']).toBeUndefined();
    expect(checkId409(refusalAfterUnknown).violatedRuns['honest-park']).toBeGreaterThan(0);
  });
});

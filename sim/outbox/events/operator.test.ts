/**
 * An operator action whose `requeue` returns the record unchanged is refused:
 * nothing is written (docs/rules.md, 'Operator actions'). The record `requeue`
 * is given has the defaults a read fills in for damaged fields; written
 * back, a refusal stored `inFlight: false` where the stored record had lost
 * its flag, and erased the evidence that an attempt may have stored the body
 * (a rule file written blind that refused a resubmit while a live engine
 * held the claim was reported for honest-park through exactly that write).
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import { walkLabelled } from '../test-labels.ts';
import type { World } from '../world.ts';

/** Refuses every operator action, returning what it was given or (`copy`) an equal copy. */
function refusing(copy: boolean): RuleSet {
  return extendRules(failClosed, { name: copy ? 'refuse-copy' : 'refuse', summary: 'refuses every operator action', requeue: (record) => (copy ? { ...record } : record) });
}

/** The world after the events of `labels` from `from` (the initial world). */
function after(rules: RuleSet, labels: string[], from?: World): World {
  const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, bodiesPerId: 1, crashesMax: 0, corruptionsMax: 1, operatorActionsMax: 1 }), { rules }, steppersFor(rules, null));
  return walkLabelled(system, labels, from);
}

const DAMAGED = ['produce a', 'e1 scan a', 'field-corrupt a inFlight missing'];

describe('an operator action refused by its requeue', () => {
  it.each([
    ['the record given', false],
    ['an equal copy', true],
  ])('returning %s writes nothing: the damaged field stays missing, and the action counts against the budget', (_name, copy) => {
    const before = after(refusing(copy), DAMAGED);
    const record = before.records.a.kind === 'record' ? before.records.a.record : null;
    expect(record !== null && 'inFlight' in record).toBe(false);
    const refused = after(refusing(copy), ['operator resubmit a'], before);
    expect(refused.records.a).toBe(before.records.a);
    expect(refused.operatorActions).toBe(before.operatorActions + 1);
  });

  it('fail-closed, which does not refuse, writes its requeue: READY under a new epoch, its lost flag taken as set', () => {
    const w = after(failClosed, [...DAMAGED, 'operator resubmit a']);
    const slot = w.records.a;
    if (slot.kind !== 'record') throw new Error('no record');
    expect([slot.record.status, slot.record.resendEpoch, slot.record.unknownSeen]).toEqual(['READY', 1, true]);
  });
});

/**
 * Item "retention beyond DELIVERED records" (docs/rules.md, 'Retention'):
 * fail-closed with its sweeper's rule written out, the default's: the
 * retention sweeper takes DELIVERED records only (fail-closed leaves a
 * tombstone of each; one already a tombstone is not asked about). Clean, and
 * the same states as fail-closed: declaring the decision changes nothing.
 * No sound rule takes a PARKED record here: the record holds no mark that
 * its body was archived elsewhere (a decision writes no record when a
 * parked body's file is quarantined), so a sweeper reading the record
 * alone cannot tell a parked body kept elsewhere from one kept only there
 * (`sweep-parked.ts` takes them and is found).
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const sweepDeliveredDeclared: RuleSet = extendRules(failClosed, {
  name: 'sweep-delivered-declared',
  summary: 'fail-closed, its retention sweeper declared as the default: DELIVERED records only.',
  sweepable: (record) => record.status === 'DELIVERED',
});

export default sweepDeliveredDeclared;

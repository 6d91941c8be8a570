/**
 * The catalog and the mutants keep every decision's contract
 * (`model/rule-contract.ts`): run guarded on a few hundred seeds, with and
 * without old rules beside, none throws and none returns a malformed value.
 * They run unguarded in `check` (they are trusted); this test is what
 * entitles them to it.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../model/catalog/index.ts';
import { guardRules } from '../model/rule-contract.ts';
import type { RuleSet } from '../model/rules.ts';
import { BOUNDS_DEFAULT, runShard } from '../sim/check.ts';
import { MUTANTS, SURVIVORS } from './mutants/index.ts';

const SEEDS = 300;

function faultOf(rules: RuleSet, oldRules: RuleSet | null): string | null {
  const r = runShard({ rules: guardRules(rules), oldRules: oldRules && guardRules(oldRules), seedStart: 1, seeds: SEEDS, broker: null, bounds: BOUNDS_DEFAULT }, 1, SEEDS + 1);
  return r.fault === undefined ? null : `seed ${r.fault.seed} step ${r.fault.step}: ${r.fault.decision} ${r.fault.detail}`;
}

describe('rule contract', () => {
  it.each(CATALOG.map((r) => [r.name, r] as const))('catalog %s keeps it, alone and beside fail-closed as old rules', (_, rules) => {
    expect(faultOf(rules, null)).toBeNull();
    expect(faultOf(rules, CATALOG[0])).toBeNull();
  });
  it.each([...MUTANTS, ...SURVIVORS].map((m) => [m.rules.name, m.rules] as const))('mutant %s keeps it', (_, rules) => {
    expect(faultOf(rules, null)).toBeNull();
  });
});

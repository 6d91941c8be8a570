/**
 * The rule set whose rolling upgrade a check runs by default
 * (docs/rules.md, 'Version skew'): the catalog rule set the checked one extends
 * (`extendRules` records its name). A change is deployed from the rules
 * running before it, and a flaw that shows only while both versions drain
 * the outbox (a key format changed, a field renamed) was reported clean by
 * a check of the new rules alone.
 */
import { catalogRules } from '../model/catalog/index.ts';
import type { RuleSet } from '../model/rules.ts';

/** The catalog name of the rule set `rules` extends, or null: it extends none, itself, or a rule set the catalog does not hold (its file would have to be given). */
export function upgradeBase(rules: RuleSet): string | null {
  const from = rules.extends;
  return from !== undefined && from !== rules.name && catalogRules(from) !== undefined ? from : null;
}

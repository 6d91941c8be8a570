/** The shipped catalog of rule sets, in the order `rules` lists them. */
import type { RuleSet } from '../rules.ts';
import failClosed from './fail-closed.ts';
import freshCycle from './fresh-cycle.ts';
import freshCycleAfterDefinite from './fresh-cycle-after-definite.ts';

export const CATALOG: readonly RuleSet[] = [failClosed, freshCycle, freshCycleAfterDefinite];

/** The catalog rule set of that name, or undefined. */
export function catalogRules(name: string): RuleSet | undefined {
  return CATALOG.find((r) => r.name === name);
}

export { failClosed, freshCycle, freshCycleAfterDefinite };

/**
 * Rule sets handed to the library API as values (`check({ rules: myRules })`)
 * rather than named by a catalog name or a file path. Every command resolves
 * rule sets from a spec string (a check's worker tasks and shard files carry
 * specs, not functions), so a value is registered under a spec of its own,
 * `in-process:N`, that {@link loadRules} resolves in this thread only.
 * A value that is a catalog rule set itself is named by its catalog name.
 */
import { catalogRules } from '../model/catalog/index.ts';
import { ruleSetProblem, type RuleSet } from '../model/rules.ts';
import { UsageError } from './usage-error.ts';

/** The prefix of a registered value's spec; also what a trace records as the rule set's source. */
export const IN_PROCESS = 'in-process';

const bySpec = new Map<string, RuleSet>();
const byValue = new WeakMap<RuleSet, string>();

/** The spec that names `rules`: its catalog name, or a registered in-process spec. */
export function specOfValue(rules: unknown): string {
  const problem = ruleSetProblem(rules);
  if (problem !== null) throw new UsageError(`rules is not a rule set: ${problem}`);
  const value = rules as RuleSet;
  if (catalogRules(value.name) === value) return value.name;
  let spec = byValue.get(value);
  if (spec === undefined) {
    spec = `${IN_PROCESS}:${bySpec.size + 1}`;
    bySpec.set(spec, value);
    byValue.set(value, spec);
  }
  return spec;
}

/** The rule set registered under `spec`, if it names one. */
export function ruleValue(spec: string): RuleSet | undefined {
  return bySpec.get(spec);
}

/** Whether `spec` names a registered value (which only this thread can resolve). */
export function isValueSpec(spec: string | null | undefined): boolean {
  return spec != null && bySpec.has(spec);
}

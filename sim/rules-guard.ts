/**
 * What loading a user's rule file adds to the loader: its import runs under
 * the watch (a loop at the file's top level is seen by the supervisor), and
 * the rule set it exports is held to its decisions' contract
 * ({@link guardRules}), each call watched. Catalog rule sets pass unchanged:
 * they are trusted, and the guard costs a schema check per call.
 */
import type { RuleSet } from '../model/rules.ts';
import type { LoadedRules } from './rules-loader.ts';
import { WATCH_IMPORT, watchEnter, watchLabel, watchLeave } from './watch.ts';

/** One guarded rule set per loaded one, so that a rule set loaded again (each `check` task loads its plan) is the same object. */
const guarded = new WeakMap<RuleSet, RuleSet>();

/** How a user's rule set is named in messages: its name and its file. */
export function ruleSetLabel(name: string, source: string): string {
  return `${JSON.stringify(name)} (${source})`;
}

/**
 * A user's rule set held to its contract, each decision call watched. The
 * contract's module (and its schema library, some 0.2 MB of JavaScript) is
 * imported here, when a user's rule set is first loaded: a command on the
 * catalog's rule sets never loads it.
 */
export async function guardUserRules(rules: RuleSet, source: string): Promise<RuleSet> {
  if (!guarded.has(rules)) {
    const { guardRules } = await import('../model/rule-contract.ts');
    // Checked again after the import: a load of the same rule set meanwhile has guarded it already.
    if (!guarded.has(rules)) {
      const label = ruleSetLabel(rules.name, source);
      let labelId = 0;
      const g = guardRules(rules, label, {
        enter: (code) => watchEnter(code + 1, labelId === 0 ? (labelId = watchLabel(label)) : labelId),
        leave: watchLeave,
      });
      guarded.set(rules, g);
    }
  }
  return guarded.get(rules) as RuleSet;
}

/** Runs `load(spec)` with the import watched, and guards what a user's file exports. */
export async function watchedLoad(spec: string, load: (spec: string) => Promise<LoadedRules>): Promise<LoadedRules> {
  watchEnter(WATCH_IMPORT, watchLabel(spec));
  let loaded: LoadedRules;
  try {
    loaded = await load(spec);
  } finally {
    watchLeave();
  }
  return loaded.origin.source === 'catalog' ? loaded : { ...loaded, rules: await guardUserRules(loaded.rules, loaded.origin.source) };
}

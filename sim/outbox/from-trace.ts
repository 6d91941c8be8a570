/**
 * Rebuilding the outbox world a trace was recorded in: its options and rule
 * sets. A trace is data: nothing it names is imported. A catalog rule set is
 * taken by name; a rule file is loaded only from a path the user gives
 * (`--rules`, `--old-rules`), and only when its content hash is the one the
 * trace recorded, checked before any of it runs.
 */
import { catalogRules } from '../../model/catalog/index.ts';
import { loadRules } from '../rules-loader.ts';
import { UsageError } from '../usage-error.ts';
import { IN_PROCESS } from '../rule-values.ts';
import { terminalText } from '../terminal-text.ts';
import type { TraceHeader, TraceRules } from '../trace-format.ts';
import type { RuleSet } from '../../model/rules.ts';
import type { RulesPair } from './record-trace.ts';
import type { WorldOptions } from './options.ts';
import { canonicalJson } from '../core/canonical.ts';
import type { WorldEvent } from './world.ts';
import { findKind } from './events/table.ts';

/** The rule files a user supplies for a trace recorded with rule files of their own (paths as typed). */
export interface SuppliedRules {
  rules?: string;
  oldRules?: string;
}

/** Which flag supplies which recorded rule set. */
const FLAG = { rules: '--rules', oldRules: '--old-rules' } as const;

/**
 * The rule set a trace recorded under `role`: from the catalog by name, or
 * the user's file `supplied` once its hash matches the recording.
 */
export async function recordedRules(recorded: TraceRules, supplied: string | undefined, role: keyof typeof FLAG): Promise<RuleSet> {
  const flag = FLAG[role];
  if (recorded.source === 'catalog') {
    const rules = catalogRules(recorded.name);
    if (rules === undefined) throw new UsageError(`the trace was recorded under the catalog rule set "${recorded.name}", which this version of outbox-sim does not have`);
    if (supplied !== undefined && supplied !== recorded.name) {
      const instead = role === 'rules' ? ` (to re-run the recorded world under ${supplied}, use --under ${supplied})` : '';
      throw new UsageError(`the trace was recorded under the catalog rule set ${recorded.name}, not a rule file: ${flag} supplies a rule file a trace was recorded with${instead}`);
    }
    return rules;
  }
  // A rule set given to the library as a value names no file: what replays its trace is that rule set, as `under`.
  if (recorded.source === IN_PROCESS) {
    throw new UsageError(
      `the trace was recorded from the rule set ${terminalText(recorded.name)} given as a value, not from a file, so it cannot be replayed exactly: pass under with that rule set, replay({ trace, under: theRuleSet }), or with the path of the file that exports it (replay --under FILE)`,
    );
  }
  if (typeof recorded.hash !== 'string') throw new UsageError(`the trace names the rule file ${recorded.source} without its content hash, so no file can be checked against it`);
  if (supplied === undefined) {
    throw new UsageError(
      `the trace was recorded with the rule file ${recorded.source} (rule set ${recorded.name}, content hash ${recorded.hash}; the path is relative to the folder the trace was made in), and a trace never loads code by itself: pass that file with ${flag} ${recorded.source} (or its path from here)`,
    );
  }
  return (await loadRules(supplied, recorded)).rules;
}

/** The world's options as recorded; only outbox traces are replayed. */
export function recordedOptions(header: TraceHeader): WorldOptions {
  if (header.model !== 'outbox') throw new UsageError(`trace is of the ${header.model} model; replay handles outbox traces`);
  return header.options as WorldOptions;
}

/** The older engines' rule set a trace recorded (version skew), or null. */
export async function recordedOldRules(header: TraceHeader, supplied: SuppliedRules): Promise<RuleSet | null> {
  if (header.oldRules === null) {
    if (supplied.oldRules !== undefined) throw new UsageError('the trace was recorded without old rules; --old-rules supplies the rule file of older engines a trace ran beside');
    return null;
  }
  return recordedRules(header.oldRules, supplied.oldRules, 'oldRules');
}

/** The rule sets and options recorded in an outbox trace header. */
export async function recordedWorld(header: TraceHeader, supplied: SuppliedRules = {}): Promise<{ pair: RulesPair; options: WorldOptions }> {
  const options = recordedOptions(header);
  const rules = await recordedRules(header.rules, supplied.rules, 'rules');
  const oldRules = await recordedOldRules(header, supplied);
  return { pair: { rules, rulesOrigin: header.rules, oldRules, oldRulesOrigin: header.oldRules }, options };
}

/**
 * When an enabled event is the same outside action as a recorded one: an
 * engine's next step (or a crash of it) whatever its lifecycle state, under
 * any rules; every other event exactly.
 */
export function outboxMatchKey(e: WorldEvent): string {
  const key = findKind(e)?.replayKey;
  return key === undefined ? canonicalJson(e) : key(e);
}

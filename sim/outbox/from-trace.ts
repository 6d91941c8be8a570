/**
 * Rebuilding the outbox world a trace was recorded in: its options and rule
 * sets. A user rule file must still have the content hash the trace
 * recorded; otherwise the trace cannot be replayed exactly, and we say so.
 */
import { loadRules } from '../rules-loader.ts';
import { UsageError } from '../usage-error.ts';
import type { TraceHeader, TraceRules } from '../../traces/format.ts';
import type { RuleSet } from '../../model/rules.ts';
import type { RulesPair } from './record-trace.ts';
import type { WorldOptions } from './options.ts';
import { canonicalJson } from '../core/canonical.ts';
import type { WorldEvent } from './world.ts';

async function rulesOf(recorded: TraceRules): Promise<RuleSet> {
  const spec = recorded.source === 'catalog' ? recorded.name : recorded.source;
  const loaded = await loadRules(spec);
  if (recorded.hash !== null && loaded.origin.hash !== recorded.hash) {
    throw new UsageError(`rule file ${recorded.source} has changed since the trace was recorded (hash ${recorded.hash}, now ${String(loaded.origin.hash)}); restore that version to replay exactly, or use --rules to re-run under the new one`);
  }
  return loaded.rules;
}

/** The rule sets and options recorded in an outbox trace header. */
export async function recordedWorld(header: TraceHeader): Promise<{ pair: RulesPair; options: WorldOptions }> {
  if (header.model !== 'outbox') throw new UsageError(`trace is of the ${header.model} model; replay handles outbox traces`);
  const rules = await rulesOf(header.rules);
  const oldRules = header.oldRules !== null ? await rulesOf(header.oldRules) : null;
  return {
    pair: { rules, rulesOrigin: header.rules, oldRules, oldRulesOrigin: header.oldRules },
    options: header.options as WorldOptions,
  };
}

/**
 * When an enabled event is the same outside action as a recorded one: an
 * engine's next step (or a crash of it) whatever its lifecycle state, under
 * any rules; every other event exactly.
 */
export function outboxMatchKey(e: WorldEvent): string {
  if (e.kind === 'step') return `step:${e.pid}`;
  if (e.kind === 'crash') return `crash:${e.pid}`;
  return canonicalJson(e);
}

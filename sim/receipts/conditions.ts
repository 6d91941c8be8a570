/**
 * The controlled conditions of docs/receipts.md: the kernel with a counting
 * executor behind its callback, one successful first handling, a fault, then
 * a retry by a fresh kernel instance (a new process: nothing in memory). Rows
 * are data; the counts come from playing them through the receipts system.
 */
import { FIRST_COMMAND, receiptsSystem } from './receipts-system.ts';
import { CONDITIONS_OPTIONS } from './options.ts';
import { layerReport, type LayerReport } from './layers.ts';
import { alwaysViolations, startRun, tagCounts } from './script.ts';
import { damage, handleAll, newProcess, play, readerThrows, revisionChange, tornAppend, unknownVersion, type ScriptStepFn } from './steps.ts';

/** One row of the table: what is done to the store between the two handlings. */
export interface ConditionSpec {
  id: string;
  name: string;
  /** The counting executor coalesces a second start for a key. */
  executorDedupesByKey: boolean;
  faults: readonly ScriptStepFn[];
}

const K = FIRST_COMMAND.key;

/** The rows, in the order of the table in docs/receipts.md. */
export const CONDITIONS: readonly ConditionSpec[] = [
  { id: 'C1', name: 'intact completion', executorDedupesByKey: false, faults: [] },
  { id: 'C2', name: 'an unrelated malformed line only', executorDedupesByKey: false, faults: [tornAppend] },
  { id: 'C3', name: 'damaged completion, intact pending', executorDedupesByKey: false, faults: [damage(K, 'completed')] },
  { id: 'C4', name: 'both target receipts damaged', executorDedupesByKey: false, faults: [damage(K, 'completed'), damage(K, 'pending')] },
  {
    id: 'C5',
    name: 'both damaged, revision changed',
    executorDedupesByKey: false,
    faults: [damage(K, 'completed'), damage(K, 'pending'), revisionChange],
  },
  { id: 'C6', name: 'the reader throws', executorDedupesByKey: false, faults: [readerThrows] },
  { id: 'C7', name: 'completion rewritten to an unknown schema version', executorDedupesByKey: false, faults: [unknownVersion(K, 'completed')] },
  {
    id: 'C8',
    name: 'damaged completion, intact pending, revision changed',
    executorDedupesByKey: false,
    faults: [damage(K, 'completed'), revisionChange],
  },
  { id: 'C9', name: 'damaged completion, executor dedupes by key', executorDedupesByKey: true, faults: [damage(K, 'completed')] },
];

/** How the second handling's read went. */
export interface SecondRead {
  diagnostic: string;
  record: string;
  skipped: { corrupt: number; unknownVersion: number };
}

/** One row's outcome, cumulative over both handlings. */
export interface ConditionResult {
  id: string;
  name: string;
  /** What the second handling did, in words. */
  result: string;
  callbacks: number;
  effects: number;
  starts: number;
  secondRead: SecondRead;
  layers: LayerReport;
  /** `always` properties the final world breaks (the counting executor has no dispatcher to stop a second start). */
  violations: string[];
}

/** The words for the kernel decision tag of a handling. */
export function decisionWords(tags: Record<string, number>): string {
  const words: [string, string][] = [
    ['decision:replay', 'replays the completed result'],
    ['decision:call:pending-same-revision', 'finds the older pending row (same revision); calls again'],
    ['decision:call:nothing-found', 'nothing usable found; calls again'],
    ['decision:reject-stale:command-revision', 'rejects the stale revision; no call'],
    ['decision:reject-stale:pending-revision', 'sees the state advanced (pending under an older revision); no call'],
    ['decision:unavailable', 'store unavailable; no call'],
  ];
  const found = words.filter(([tag]) => (tags[tag] ?? 0) > 0).map(([, w]) => w);
  if ((tags['sdk:coalesced'] ?? 0) > 0) found.push('the executor coalesced the effect');
  return found.length > 0 ? found.join('; ') : 'no handling';
}

function secondRead(tags: Record<string, number>): SecondRead {
  const pick = (prefix: string): string => Object.keys(tags).find((k) => k.startsWith(prefix))?.slice(prefix.length) ?? 'none';
  return {
    diagnostic: pick('read:'),
    record: pick('record:'),
    skipped: { corrupt: tags['skipped:corrupt'] ?? 0, unknownVersion: tags['skipped:unknown-version'] ?? 0 },
  };
}

/** Plays one row: first handling, the faults, a fresh kernel instance, the retry. */
export function runCondition(spec: ConditionSpec): ConditionResult {
  const system = receiptsSystem({ ...CONDITIONS_OPTIONS, sdkDedupesByKey: spec.executorDedupesByKey });
  let run = handleAll(system, startRun(system), () => K);
  run = play(system, run, [...spec.faults, newProcess]);
  const retryFrom = run.steps.length;
  run = handleAll(system, run, () => K);
  const tags = tagCounts(run, retryFrom);
  const layers = layerReport(run);
  const violations = alwaysViolations(system, run);
  return {
    id: spec.id,
    name: spec.name,
    result: decisionWords(tags),
    callbacks: layers.callbacks,
    effects: layers.effects,
    starts: layers.starts,
    secondRead: secondRead(tags),
    layers,
    violations,
  };
}

/** Every row, in table order. */
export function runConditions(): ConditionResult[] {
  return CONDITIONS.map(runCondition);
}

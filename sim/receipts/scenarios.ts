/**
 * The dispatch scenarios of docs/receipts.md: the real dispatcher behind the
 * kernel's callback, one successful first execution (dispatched, started and
 * its receipt completed; the execution keeps running), then a fault and a
 * retry. Scenarios are data; starts, attempts and the mechanism that decided
 * each come from playing it through the receipts system.
 */
import type { ReceiptsEvent, ReceiptsWorld } from './world.ts';
import type { TransitionSystem } from '../core/system.ts';
import { layerReport, type LayerReport } from './layers.ts';
import { FIRST_COMMAND, receiptsSystem } from './receipts-system.ts';
import { SCENARIO_OPTIONS, type ReceiptsOptions } from './options.ts';
import { alwaysViolations, startRun, tagCounts } from './script.ts';
import { cancel, damage, handleAll, newestKey, newKey, newProcess, play, revisionChange, type ScriptStepFn } from './steps.ts';

/** One scenario: what happens after the first execution, and how the retry comes. */
export interface ScenarioSpec {
  id: string;
  name: string;
  before: readonly ScriptStepFn[];
  /** The key the retry carries. */
  key: (w: ReceiptsWorld) => string;
  /** Kernels handling the retry at once. */
  kernels: number;
}

const K = FIRST_COMMAND.key;
const bothDamaged = [damage(K, 'completed'), damage(K, 'pending')];
const sameKey = (): string => K;

/** The scenarios, in the order docs/receipts.md lists them. */
export const SCENARIOS: readonly ScenarioSpec[] = [
  { id: 'I0', name: 'intact receipts', before: [], key: sameKey, kernels: 1 },
  { id: 'I1', name: 'completion damaged', before: [damage(K, 'completed')], key: sameKey, kernels: 1 },
  { id: 'I2', name: 'both damaged', before: bothDamaged, key: sameKey, kernels: 1 },
  { id: 'I3', name: 'both damaged and a new process reads the disk', before: [...bothDamaged, newProcess], key: sameKey, kernels: 1 },
  {
    id: 'I4',
    name: 'both damaged, the original session cancelled, retried with the same key',
    before: [...bothDamaged, cancel(K)],
    key: sameKey,
    kernels: 1,
  },
  { id: 'I5', name: 'both damaged with the revision changed', before: [...bothDamaged, revisionChange], key: sameKey, kernels: 1 },
  { id: 'I6', name: 'both damaged with eight kernels calling one dispatcher at once', before: bothDamaged, key: sameKey, kernels: 8 },
  { id: 'I7', name: 'cancel, then a new command key', before: [cancel(K), newKey], key: newestKey, kernels: 1 },
];

/** One scenario's outcome, cumulative from the first execution on. */
export interface ScenarioResult {
  id: string;
  name: string;
  /** What the retry came to, in words. */
  result: string;
  /** The layer and rule that decided it. */
  mechanism: string;
  starts: number;
  attempts: number;
  callbacks: number;
  effects: number;
  layers: LayerReport;
  violations: string[];
}

const REFUSAL_WORDS: Record<string, string> = {
  'session-running': 'dispatcher check: the durable session record says the task is running, so each call stops before the attempt store',
  'lease-held': 'dispatcher check: an active execution lease is held for the task and round',
  'terminal-attempt': 'attempt store: the key still finds its attempt, which is terminal, so the claim is refused',
  occupied: 'attempt store: the attempt is occupied by another claim',
  'conflicting-lease': 'attempt store: another attempt holds the lease for the task and round',
};

/** Explains a retry from its tags (since the first execution) and the final world. */
function explain(tags: Record<string, number>, w: ReceiptsWorld, key: string, options: ReceiptsOptions): { result: string; mechanism: string } {
  const n = (k: string): number => tags[k] ?? 0;
  const context: string[] = [];
  if (n('fault:new-process') > 0) context.push('after a restart (kernel and dispatcher memory lost, disk and records kept)');
  if (n('operator:cancel') > 0) {
    const cancelled = w.dispatcher.store.attempts.filter((a) => a.status === 'cancelled').map((a) => `${a.id} (${a.key})`);
    context.push(`after the cancel moved ${cancelled.join(', ')} to cancelled`);
  }
  const prefix = context.length > 0 ? `${context.join(', ')}: ` : '';
  const callbacks = n('layer:callback');
  if (callbacks === 0) {
    if (n('decision:replay') > 0) return { result: 'replayed; no callback', mechanism: `${prefix}kernel replay: the completed receipt was readable, so the callback was never entered` };
    if (n('decision:reject-stale:command-revision') > 0 || n('decision:reject-stale:pending-revision') > 0) {
      const cmd = w.commands.find((c) => c.key === key);
      return {
        result: 'rejected as stale; no callback',
        mechanism: `${prefix}kernel revision check: nothing usable was read (diagnostic corrupt) and the command's revision ${cmd?.rev ?? '?'} is not the current ${w.revision}, so it is rejected before any callback`,
      };
    }
    if (n('decision:unavailable') > 0) return { result: 'store unavailable; no callback', mechanism: `${prefix}kernel: the reader threw, nothing was called` };
    return { result: 'no handling', mechanism: `${prefix}nothing ran` };
  }
  const parts: string[] = [];
  const reasons = Object.keys(tags).filter((k) => k.startsWith('refused:')).sort();
  const refused = reasons.reduce((s, k) => s + tags[k], 0);
  if (refused > 0) parts.push(`${refused} refused (${reasons.map((k) => `${k.slice('refused:'.length)} x${tags[k]}`).join(', ')})`);
  const starts = n('layer:start');
  if (starts > 0) parts.push(`${starts} started`);
  const result = `${callbacks} callback${callbacks === 1 ? '' : 's'}: ${parts.join(', ')}`;
  const why: string[] = reasons.map((k) => {
    const reason = k.slice('refused:'.length);
    if (reason === 'terminal-attempt') {
      const a = w.dispatcher.store.attempts.find((x) => x.key === key);
      return `attempt store: key ${key} still finds attempt ${a?.id ?? '?'} (${a?.status ?? '?'}, terminal), so the claim is refused`;
    }
    return REFUSAL_WORDS[reason] ?? reason;
  });
  if (starts > 0) {
    const a = w.dispatcher.store.attempts.find((x) => x.key === key);
    why.push(n('layer:attempt') > 0
      ? `attempt store: key ${key} had no attempt, so ${a?.id ?? '?'} was proposed, claimed and started`
      : `attempt store: key ${key} found ${a?.id ?? '?'} unclaimed; claimed and started`);
  }
  if (callbacks > 1 && options.dispatcher.serializePerTask) why.push(`the per-task lock let the ${callbacks} concurrent calls through one at a time`);
  return { result, mechanism: prefix + why.join('; ') };
}

/** Plays one scenario on a fresh world. */
export function runScenario(spec: ScenarioSpec, options: ReceiptsOptions = SCENARIO_OPTIONS): ScenarioResult {
  const system: TransitionSystem<ReceiptsWorld, ReceiptsEvent> = receiptsSystem(options);
  let run = handleAll(system, startRun(system), () => K);
  const firstDone = run.steps.length;
  run = play(system, run, spec.before);
  run = handleAll(system, run, spec.key, spec.kernels);
  const key = spec.key(run.state);
  const layers = layerReport(run);
  const { result, mechanism } = explain(tagCounts(run, firstDone), run.state, key, options);
  const violations = alwaysViolations(system, run);
  return { id: spec.id, name: spec.name, result, mechanism, starts: layers.starts, attempts: layers.attempts, callbacks: layers.callbacks, effects: layers.effects, layers, violations };
}

/** Every scenario, in order. */
export function runScenarios(options: ReceiptsOptions = SCENARIO_OPTIONS): ScenarioResult[] {
  return SCENARIOS.map((s) => runScenario(s, options));
}

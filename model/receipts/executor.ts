/**
 * The execution interface (the SDK start), simulated in memory. It counts
 * the two layers every report keeps apart: a start is a call to the SDK;
 * an effect is what reaches the outside world. An SDK that dedupes by key
 * coalesces a second start for a key into the first execution's effect.
 */

/** One execution the SDK runs. `attempt` is null when no dispatcher is in front. */
export interface Execution {
  key: string;
  attempt: string | null;
  status: 'running' | 'succeeded' | 'cancelled';
}

/** The SDK's state. */
export interface ExecutorState {
  dedupeByKey: boolean;
  /** SDK start calls per idempotency key. */
  startsByKey: Record<string, number>;
  /** External effects produced. */
  effects: number;
  executions: Execution[];
}

/** A fresh SDK. */
export function newExecutor(dedupeByKey: boolean): ExecutorState {
  return { dedupeByKey, startsByKey: {}, effects: 0, executions: [] };
}

/** Starts an execution for `key`; `coalesced` when the SDK deduped it into an earlier one. */
export function sdkStart(ex: ExecutorState, key: string, attempt: string | null): { executor: ExecutorState; coalesced: boolean } {
  const startsByKey = { ...ex.startsByKey, [key]: (ex.startsByKey[key] ?? 0) + 1 };
  if (ex.dedupeByKey && ex.executions.some((e) => e.key === key)) {
    return { executor: { ...ex, startsByKey }, coalesced: true };
  }
  return {
    executor: { ...ex, startsByKey, effects: ex.effects + 1, executions: [...ex.executions, { key, attempt, status: 'running' }] },
    coalesced: false,
  };
}

/** Ends the running execution at `index` with the given status. */
export function sdkEnd(ex: ExecutorState, index: number, status: 'succeeded' | 'cancelled'): ExecutorState {
  const e = ex.executions[index];
  if (e === undefined || e.status !== 'running') return ex;
  const executions = [...ex.executions];
  executions[index] = { ...e, status };
  return { ...ex, executions };
}

/** All SDK start calls. */
export function totalStarts(ex: ExecutorState): number {
  let n = 0;
  for (const k of Object.keys(ex.startsByKey)) n += ex.startsByKey[k];
  return n;
}

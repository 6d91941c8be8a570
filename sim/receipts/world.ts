/**
 * The receipts world as plain data: the receipt file's bytes, the governance
 * revision, the issued commands, the kernel processes with their in-flight
 * calls, the dispatcher, the SDK, and a count at every layer (see
 * docs/receipts.md). Faults are events like any kernel step.
 */
import type { Command } from '../../model/receipts/kernel.ts';
import type { Dispatcher, DispatchCall, DispatchPhase } from '../../model/receipts/dispatcher.ts';
import type { ExecutorState } from '../../model/receipts/executor.ts';
import type { ReceiptStore } from '../../model/receipts/store.ts';
import type { FaultBudget } from './options.ts';

/** A call a kernel has in flight: straight into the counting executor, or through the dispatcher's phases. */
export type InFlight = { via: 'counting-executor'; command: Command } | { via: 'dispatcher'; call: DispatchCall };

/** A kernel process. It remembers nothing between handlings; only its in-flight call. */
export interface KernelProc {
  id: number;
  inFlight: InFlight | null;
}

/**
 * The few counts the properties need. Everything else a report counts
 * (reads by diagnostic, records by kind, attempts, starts) comes from step
 * tags or the SDK, so the state space does not grow with bookkeeping.
 */
export interface LayerCounts {
  /** Executor callbacks entered, per idempotency key. */
  callbacksByKey: Record<string, number>;
  /** Dispatcher refusals by reason. */
  refusals: Record<string, number>;
  /** Handlings the kernel rejected as stale. */
  stale: number;
  /** Handlings that found the store unavailable. */
  unavailable: number;
}

/** The whole world. */
export interface ReceiptsWorld {
  store: ReceiptStore;
  /**
   * What each line's writer wrote, parallel to `store.lines`. Ground truth for
   * the properties only; the system never reads it.
   */
  written: string[];
  /** The current governance revision. */
  revision: number;
  /** Armed: the next read of the store throws. */
  readerThrows: boolean;
  /** Commands issued so far, in order. */
  commands: Command[];
  kernels: KernelProc[];
  dispatcher: Dispatcher;
  sdk: ExecutorState;
  counts: LayerCounts;
  handlings: number;
  /** Faults used so far, per kind. */
  faults: FaultBudget;
  /** Faults and new commands have stopped (liveness phase). */
  healing: boolean;
}

/** Everything that can happen. */
export type ReceiptsEvent =
  | { kind: 'handle'; kernel: number; key: string }
  | { kind: 'step-call'; kernel: number; phase: DispatchPhase | 'callback' }
  | { kind: 'finish-execution'; index: number }
  | { kind: 'damage'; line: number }
  | { kind: 'torn-append' }
  | { kind: 'unknown-version'; line: number }
  | { kind: 'reader-throws' }
  | { kind: 'revision-change' }
  | { kind: 'new-process' }
  | { kind: 'cancel'; session: string }
  | { kind: 'new-key' };

/** A short human label for an event. */
export function labelOf(e: ReceiptsEvent): string {
  switch (e.kind) {
    case 'handle':
      return `kernel ${e.kernel} handles ${e.key}`;
    case 'step-call':
      return e.phase === 'callback' ? `kernel ${e.kernel}: counting executor callback` : `kernel ${e.kernel}: dispatcher ${e.phase}`;
    case 'finish-execution':
      return `SDK: execution ${e.index + 1} succeeds`;
    case 'damage':
      return `fault: damage receipt line ${e.line + 1}`;
    case 'torn-append':
      return 'fault: torn unrelated line appended';
    case 'unknown-version':
      return `fault: receipt line ${e.line + 1} rewritten to an unknown schema version`;
    case 'reader-throws':
      return 'fault: the next read throws';
    case 'revision-change':
      return 'fault: governance revision changes';
    case 'new-process':
      return 'fault: new process (memory lost, disk kept)';
    case 'cancel':
      return `operator: cancel session ${e.session}`;
    case 'new-key':
      return 'operator: new command key';
  }
}

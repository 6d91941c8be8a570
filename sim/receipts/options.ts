/**
 * The knobs of one receipts world, in one documented object (fault
 * knobs in one place). Every fault has a budget, so random runs stay short
 * and exhaustive search stays finite.
 */
import { SOUND_DISPATCHER, type DispatcherRules } from '../../model/receipts/dispatcher.ts';

/** How many times each fault may happen in one run. */
export interface FaultBudget {
  /** Overwrite part of a readable row with junk bytes (a torn or rotted write), target or unrelated. */
  damage: number;
  /** Append a torn row of an unrelated command (a writer died mid-line). */
  tornAppend: number;
  /** Rewrite a readable row to a schema version this reader does not know (a newer writer). */
  unknownVersion: number;
  /** The next read of the store throws. */
  readerThrows: number;
  /** The governance revision advances. */
  revisionChange: number;
  /** The command service restarts: kernel and dispatcher memory are lost, the disk and durable records stay. */
  newProcess: number;
  /** An operator cancels a running session. */
  cancel: number;
  /** A new "retry task" command with a new idempotency key is issued. */
  newKey: number;
}

/** What the kernel's executor callback enters. */
export type Backend = 'dispatcher' | 'counting-executor';

/** Options of one receipts world. */
export interface ReceiptsOptions {
  /** Kernel processes, each able to handle a command and call the dispatcher concurrently with the others. */
  kernels: number;
  /** Handlings that may be started in one run, across all kernels. */
  handlingsMax: number;
  /** The real dispatcher, or a counting executor called directly (the controlled conditions). */
  backend: Backend;
  /** The SDK coalesces a second start for the same key into one effect. */
  sdkDedupesByKey: boolean;
  /** Dispatcher mechanisms; switch one off to build a deliberately broken variant. */
  dispatcher: DispatcherRules;
  faultsMax: FaultBudget;
  /** Relative weight of the fault group against the others (random runs only). */
  faultGroupWeight: number;
}

/** No fault at all; spread it and raise the ones a world uses. */
export const NO_FAULTS: FaultBudget = {
  damage: 0,
  tornAppend: 0,
  unknownVersion: 0,
  readerThrows: 0,
  revisionChange: 0,
  newProcess: 0,
  cancel: 0,
  newKey: 0,
};

/** Every fault once, except damage (twice: both target receipts). */
export const ALL_FAULTS_ONCE: FaultBudget = {
  damage: 2,
  tornAppend: 1,
  unknownVersion: 1,
  readerThrows: 1,
  revisionChange: 1,
  newProcess: 1,
  cancel: 1,
  newKey: 1,
};

const base: ReceiptsOptions = {
  kernels: 1,
  handlingsMax: 1,
  backend: 'dispatcher',
  sdkDedupesByKey: false,
  dispatcher: SOUND_DISPATCHER,
  faultsMax: NO_FAULTS,
  faultGroupWeight: 2,
};

/**
 * The dispatcher world `explore` searches exhaustively: two kernels calling
 * one dispatcher concurrently, three handlings, a damaged receipt, a revision
 * change, a restart, a cancel and a new key, with executions finishing at any
 * point. Every fault the dispatcher has to survive, at a size that finishes
 * in seconds; the tests pin its state count.
 */
export const EXPLORE_DISPATCH: ReceiptsOptions = {
  ...base,
  kernels: 2,
  handlingsMax: 3,
  faultsMax: { ...NO_FAULTS, damage: 1, revisionChange: 1, newProcess: 1, cancel: 1, newKey: 1 },
};

/**
 * The receipt-file world `explore` searches exhaustively: one kernel, two
 * handlings, and every fault of the file and its reader (damage to both
 * receipts, a torn unrelated line, an unknown schema version, a throwing
 * reader, a revision change).
 */
export const EXPLORE_STORE: ReceiptsOptions = {
  ...base,
  kernels: 1,
  handlingsMax: 2,
  faultsMax: { ...NO_FAULTS, damage: 2, tornAppend: 1, unknownVersion: 1, readerThrows: 1, revisionChange: 1 },
};

/** The world random runs use: every fault, more kernels and handlings than `explore` can afford. */
export const RANDOM_OPTIONS: ReceiptsOptions = {
  ...base,
  kernels: 4,
  handlingsMax: 8,
  faultsMax: { ...ALL_FAULTS_ONCE, damage: 3, tornAppend: 2, readerThrows: 2, newProcess: 2 },
};

/**
 * The controlled conditions (docs/receipts.md): one kernel at a time, the
 * counting executor called directly, every fault available to the script.
 */
export const CONDITIONS_OPTIONS: ReceiptsOptions = {
  ...base,
  kernels: 1,
  handlingsMax: 2,
  backend: 'counting-executor',
  faultsMax: ALL_FAULTS_ONCE,
};

/** The dispatch scenarios: the real dispatcher, and eight kernels for the concurrent one. */
export const SCENARIO_OPTIONS: ReceiptsOptions = {
  ...base,
  kernels: 8,
  handlingsMax: 9,
  faultsMax: ALL_FAULTS_ONCE,
};

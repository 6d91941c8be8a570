/**
 * The knobs of one receipts world, in one documented object (STYLE: fault
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

/**
 * The world `explore` searches exhaustively: two concurrent kernels, three
 * handlings and every fault. Small enough to finish in seconds; the tests pin
 * its state count.
 */
export const EXPLORE_OPTIONS: ReceiptsOptions = {
  kernels: 2,
  handlingsMax: 3,
  backend: 'dispatcher',
  sdkDedupesByKey: false,
  dispatcher: SOUND_DISPATCHER,
  faultsMax: ALL_FAULTS_ONCE,
  faultGroupWeight: 2,
};

/** The world random runs use: more kernels and handlings than `explore` can afford. */
export const RANDOM_OPTIONS: ReceiptsOptions = {
  ...EXPLORE_OPTIONS,
  kernels: 4,
  handlingsMax: 8,
  faultsMax: { ...ALL_FAULTS_ONCE, damage: 3, tornAppend: 2, readerThrows: 2, newProcess: 2 },
};

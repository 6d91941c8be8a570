/**
 * The command kernel (docs/receipts.md, 'Kernel'). It keeps no memory between
 * handlings: every decision comes from what the reader finds on disk, which
 * is what makes receipt damage matter. Handling is two pure halves around the
 * executor callback: {@link beginHandling} reads, decides and writes the
 * `pending` row; {@link finishHandling} writes the `completed` row.
 */
import { readNewest, type ReadResult, type Reader } from './reader.ts';
import { RECEIPT_SCHEMA_VERSION } from './row.ts';
import { appendRow, type ReceiptStore } from './store.ts';

/** A "retry task" command. `rev` is the governance revision it was issued under. */
export interface Command {
  key: string;
  task: string;
  round: number;
  rev: number;
}

/** Why the kernel calls the executor. */
export type CallBasis = 'pending-same-revision' | 'nothing-found';

/** Whose revision was found stale: the pending row's (the state advanced) or the command's own. */
export type StaleBasis = 'pending-revision' | 'command-revision';

/** What the kernel decided for one handling. */
export type KernelDecision =
  | { kind: 'replay'; result: string; read: ReadResult }
  | { kind: 'call'; basis: CallBasis; read: ReadResult }
  | { kind: 'reject-stale'; basis: StaleBasis; seenRev: number; currentRev: number; read: ReadResult }
  | { kind: 'unavailable'; error: string };

/**
 * The decision table: a readable `completed` replays; otherwise the revision
 * the handling is anchored to (the pending row's, else the command's) must
 * still be current, else the command is stale; then a pending row or nothing
 * at all both lead to a call.
 */
export function decide(read: ReadResult, command: Command, currentRev: number): Exclude<KernelDecision, { kind: 'unavailable' }> {
  const rec = read.record;
  if (rec !== null && rec.kind === 'completed') return { kind: 'replay', result: rec.result, read };
  const seenRev = rec !== null ? rec.rev : command.rev;
  if (seenRev !== currentRev) {
    return { kind: 'reject-stale', basis: rec !== null ? 'pending-revision' : 'command-revision', seenRev, currentRev, read };
  }
  return { kind: 'call', basis: rec !== null ? 'pending-same-revision' : 'nothing-found', read };
}

/** The store after the first half of a handling, and what was decided. */
export interface Begun {
  store: ReceiptStore;
  decision: KernelDecision;
}

/**
 * Reads, decides, and on a call appends the `pending` row under the current
 * revision. A reader that throws means the store is unavailable: nothing is
 * written and nothing is called.
 */
export function beginHandling(store: ReceiptStore, command: Command, currentRev: number, reader: Reader = readNewest): Begun {
  let read: ReadResult;
  try {
    read = reader(store, command.key);
  } catch (e) {
    return { store, decision: { kind: 'unavailable', error: e instanceof Error ? e.message : String(e) } };
  }
  const decision = decide(read, command, currentRev);
  if (decision.kind !== 'call') return { store, decision };
  const { key, task, round } = command;
  return { store: appendRow(store, { v: RECEIPT_SCHEMA_VERSION, kind: 'pending', key, task, round, rev: currentRev }), decision };
}

/** Appends the `completed` row with what the callback returned. */
export function finishHandling(store: ReceiptStore, command: Command, currentRev: number, result: string): ReceiptStore {
  const { key, task, round } = command;
  return appendRow(store, { v: RECEIPT_SCHEMA_VERSION, kind: 'completed', key, task, round, rev: currentRev, result });
}

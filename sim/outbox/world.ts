/**
 * The outbox world as plain data (docs/protocol.md, 'The world as data'): records, claims, files,
 * the broker's holdings and the engine processes with their statechart
 * memory. Faults, broker answers, producer and operator actions are events
 * like any engine step, so random runs, exhaustive search and traces share one
 * vocabulary (docs/faults.md).
 */
import type { Holding } from '../../model/broker.ts';
import type { EngineContext, LifecycleState } from '../../model/lifecycle.ts';
import type { ClaimSlot, QuarantinedFile, RecordSlot, ResultFile } from '../../model/types.ts';
import type { Answer } from './options.ts';

/** A live engine process. A crashed one is simply gone; its claims stay. */
export interface EngineProc {
  pid: number;
  /** Which rule set it runs: the checked one (`new`) or `--old-rules` (`old`). */
  version: 'new' | 'old';
  state: LifecycleState;
  ctx: EngineContext;
}

/** The whole world. */
export interface World {
  records: Record<string, RecordSlot>;
  claims: Record<string, ClaimSlot>;
  live: Record<string, ResultFile>;
  archived: ResultFile[];
  quarantined: QuarantinedFile[];
  broker: Record<string, Holding>;
  /**
   * Under a dedupe window only (absent otherwise): per id whose dedupe entry
   * the broker still keeps, the broker steps since it made it (up to the
   * window). An id the broker holds but that is missing here was forgotten:
   * its next POST is taken as new (docs/faults.md, `forget`).
   */
  dedupe?: Record<string, number>;
  /** Alive engine processes, by ascending pid. */
  engines: EngineProc[];
  /** Bodies written so far per id. */
  produced: Record<string, number>;
  /** `id:body` of every body that reached the outbox (a record write), sorted. */
  published: string[];
  /** The latest body the gateway reported delivered (archived) per id. */
  reported: Record<string, string>;
  nextPid: number;
  nextGeneration: number;
  crashes: number;
  corruptions: number;
  operatorActions: number;
  /**
   * Ids on which a POST was made of a body that was parked and not requeued
   * since: while the record said PARKED, or after the parked record was
   * replaced (parkedGone).
   */
  parkedAttempts: string[];
  /**
   * `id:body` of every body whose PARKED record was replaced other than by an
   * operator's requeue (a fresh cycle, a rebuilt or torn record): the park
   * still holds for that body (parked-stays-parked is per body).
   */
  parkedGone: string[];
  /** Faults have stopped (liveness phase). */
  healing: boolean;
  /**
   * The logical clock, in ticks: present only in a world with a clock
   * (`ticksMax` > 0; absent otherwise, so a world without one has the states
   * it always had). It advances by `tick` and `stall` events (events/clock.ts).
   */
  clock?: number;
}

/** Everything that can happen in the world. */
export type WorldEvent =
  | { kind: 'scan'; pid: number; id: string }
  | { kind: 'drain'; pid: number; id: string }
  | { kind: 'step'; pid: number; at: LifecycleState }
  | { kind: 'answer'; pid: number; answer: Answer }
  | { kind: 'crash'; pid: number; at: LifecycleState }
  | { kind: 'restart'; version: 'new' | 'old' }
  | { kind: 'upgrade'; pid: number }
  | { kind: 'produce'; id: string }
  /** `version: 'old'`: run by the old version's tool (version skew); absent: the checked rule set's. */
  | { kind: 'requeue'; id: string; reset: boolean; version?: 'old' }
  | { kind: 'resubmit'; id: string; version?: 'old' }
  | { kind: 'restore'; index: number }
  | { kind: 'tear-record'; id: string }
  | { kind: 'tear-claim'; id: string }
  | { kind: 'newer-schema'; id: string }
  | { kind: 'legacy-record'; id: string }
  | { kind: 'forget'; id: string }
  /** Time passes between steps: the clock advances to `to`. */
  | { kind: 'tick'; to: number }
  /** Engine `pid` stalls (a pause) while the clock runs on to `to`: its lease expires under it. */
  | { kind: 'stall'; pid: number; at: LifecycleState; to: number };

/** The outbox ids of a world with `n` ids. */
export function idNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));
}

/** The k-th body (0-based) the producer writes for id number `idIndex`: A, B, C for a; D, E, F for b. */
export function bodyName(idIndex: number, k: number, bodiesPerId: number): string {
  return String.fromCharCode(65 + idIndex * bodiesPerId + k);
}

/** A short human label for an event (from the event table). */
export { labelOf } from './events/table.ts';

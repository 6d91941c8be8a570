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
import { alikeBody, isAlikeShape, shapedBody } from './body-shape.ts';
import { shapedIdName } from './id-shape.ts';

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
  // A kind may own slots of its own (the broker's dedupe memory): it declares them on this
  // interface from its own file (`declare module '../world.ts'`), optional, and names them in its
  // entry's `slots`, from which the world's key (encode.ts) reads them.
  /** Alive engine processes, by ascending pid (but an engine back under an old pid, under stable identities, is appended: events/process.ts). */
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
}

/**
 * The world's events, by their `kind`: each table entry's file (events/)
 * declares its own by augmenting this interface (`declare module
 * '../world.ts'`), kind to the event's other fields, so a new kind adds its
 * event without an edit here.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DeclaredEvents {}

/** Everything that can happen in the world: the events the table's entries declare. */
export type WorldEvent = { [K in keyof DeclaredEvents]: { kind: K } & DeclaredEvents[K] }[keyof DeclaredEvents];

/**
 * The id number `i` (0-based) of a world of ids named alike
 * (`WorldOptions.longIds`): eu-west-1.tenant-42.order-000017,
 * eu-west-1.tenant-43.order-000017, ... They differ in one character in the
 * middle, so that an id cut to its first 18 characters or its last 13 is one
 * string for all of them.
 */
export function longIdName(i: number): string {
  return `eu-west-1.tenant-4${i + 2}.order-000017`;
}

/**
 * The outbox ids of a world with `n` ids: a, b, c; with `long`, ids named as
 * production ids are, long and alike ({@link longIdName}): a rule that cuts,
 * hashes or shards an id changes nothing on one letter; with `shape`
 * (`WorldOptions.idShape`, id-shape.ts), a pair of ids that differ only in
 * case, Unicode normalisation or a trailing space (`long` and `shape`
 * exclude each other: `long` wins).
 */
export function idNames(n: number, long = false, shape?: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(long ? longIdName(i) : shape !== undefined ? shapedIdName(i, shape) : String.fromCharCode(97 + i));
  return out;
}

/** The outbox ids of a world of `options` ({@link idNames}). */
export function worldIdNames(options: { ids: number; longIds?: boolean; idShape?: string }): string[] {
  return idNames(options.ids, options.longIds === true, options.idShape);
}

/**
 * The k-th body (0-based) the producer writes for id number `idIndex`: A, B, C for a; D, E, F for b
 * (`same`: A, B, C for every id). In a world of a body shape (`WorldOptions.bodyShape`, body-shape.ts)
 * the letter is followed by the shape: `A` then characters outside the BMP, or `A` and 262,144 more.
 */
export function bodyName(idIndex: number, k: number, bodiesPerId: number, same = false, shape?: string): string {
  const first = same ? 0 : idIndex * bodiesPerId;
  // Two bodies alike (body-shape.ts): the id's first two are the two forms of its first letter.
  if (isAlikeShape(shape) && k <= 1) return alikeBody(String.fromCharCode(65 + first), shape, k === 0 ? 0 : 1);
  return isAlikeShape(shape) ? String.fromCharCode(65 + first + k) : shapedBody(String.fromCharCode(65 + first + k), shape);
}

/** A short human label for an event (from the event table). */
export { labelOf } from './events/table.ts';


/**
 * A random run asks every group at every step whether it has an event, and
 * lists the events of the group it draws; most steps change one or two of the
 * world's fields. A group's answer is a function of the world's fields its
 * kinds read (their `reads`), the engines it asks about, and the world's
 * fixed surroundings; worlds are immutable, so while none of those fields is
 * a different object the answer is the one given before, and is kept here
 * (per system: its surroundings are one world's options and rules).
 */
import type { World } from '../world.ts';
import { copyWorld } from '../world-copy.ts';
import type { AnyKind, WorldField } from './kind.ts';
import type { WorldContext } from './context.ts';

/** Every top-level field of a world (the slots kinds own included): field `i` is bit `1 << i`. */
export const WORLD_FIELDS: readonly WorldField[] = Object.keys(copyWorld({} as World)) as WorldField[];

/** Fields as bits need a world of at most 31 fields (else nothing is kept: every group is listed afresh). */
const BITS_FIT = WORLD_FIELDS.length <= 31;

/** The bits of these fields (see {@link WORLD_FIELDS}). */
function bitsOf(fields: readonly WorldField[]): number {
  let bits = 0;
  for (const f of fields) bits |= 1 << WORLD_FIELDS.indexOf(f);
  return bits;
}

/** A group's answer depends on every field: it is never kept. */
export const EVERY_FIELD = -1;

/**
 * The fields a group's answer depends on, as bits: its kinds' `reads`,
 * whether faults have stopped (which groups a world lists), and `engines` when
 * it asks about each engine; {@link EVERY_FIELD} when a kind does not say what
 * it reads.
 */
export function groupReads(kinds: readonly AnyKind[], perEngine: boolean, ctx: WorldContext | null = null): number {
  if (!BITS_FIT) return EVERY_FIELD;
  const fields: WorldField[] = ['healing'];
  if (perEngine) fields.push('engines');
  for (const k of kinds) {
    if (k.reads === undefined) return EVERY_FIELD;
    // In a world's surroundings, what the kind reads there (`readsIn`), never more than its `reads`.
    const reads = ctx !== null && k.readsIn !== undefined ? k.readsIn(ctx).filter((f) => k.reads?.includes(f)) : k.reads;
    fields.push(...reads);
  }
  return bitsOf(fields);
}

/** Each field's bit, by name (a property read, not a lookup by key, on the hot path below). */
const BIT = Object.fromEntries(WORLD_FIELDS.map((f, i) => [f, 1 << i])) as { [K in WorldField]-?: number };

/**
 * The bits of the fields that are not the same object in `a` and `b`. Every
 * field written out: read by a key from a list, this was a sixth of a seeded
 * run (a keyed read of a world is a slow, generic one). `listing-memo.test.ts`
 * holds it to every field of {@link WORLD_FIELDS}.
 */
export function changedFields(a: World, b: World): number {
  let bits = 0;
  if (a.records !== b.records) bits |= BIT.records;
  if (a.claims !== b.claims) bits |= BIT.claims;
  if (a.live !== b.live) bits |= BIT.live;
  if (a.archived !== b.archived) bits |= BIT.archived;
  if (a.quarantined !== b.quarantined) bits |= BIT.quarantined;
  if (a.broker !== b.broker) bits |= BIT.broker;
  if (a.engines !== b.engines) bits |= BIT.engines;
  if (a.produced !== b.produced) bits |= BIT.produced;
  if (a.published !== b.published) bits |= BIT.published;
  if (a.reported !== b.reported) bits |= BIT.reported;
  if (a.nextPid !== b.nextPid) bits |= BIT.nextPid;
  if (a.nextGeneration !== b.nextGeneration) bits |= BIT.nextGeneration;
  if (a.crashes !== b.crashes) bits |= BIT.crashes;
  if (a.corruptions !== b.corruptions) bits |= BIT.corruptions;
  if (a.operatorActions !== b.operatorActions) bits |= BIT.operatorActions;
  if (a.parkedAttempts !== b.parkedAttempts) bits |= BIT.parkedAttempts;
  if (a.parkedGone !== b.parkedGone) bits |= BIT.parkedGone;
  if (a.healing !== b.healing) bits |= BIT.healing;
  if (a.dedupe !== b.dedupe) bits |= BIT.dedupe;
  if (a.inTransit !== b.inTransit) bits |= BIT.inTransit;
  if (a.clock !== b.clock) bits |= BIT.clock;
  if (a.sweeps !== b.sweeps) bits |= BIT.sweeps;
  if (a.poisoned !== b.poisoned) bits |= BIT.poisoned;
  if (a.poisonCrashes !== b.poisonCrashes) bits |= BIT.poisonCrashes;
  return bits;
}

/**
 * The answers of a run's listing, each for the world last asked about: per
 * entry (a group, or a pass of one) whether it has an event (-1: not known),
 * and for a group its listing. When a different world is asked about, the
 * fields it changed are found once (not once per entry), and the answers
 * that read one of them are dropped; the rest are answers for it too.
 */
export class ListingMemo<L> {
  // Plain arrays of small integers, not typed arrays: a memo is made per seed, and a typed array's
  // store is allocated off the heap, which costs more than a short run's listing.
  private readonly has: number[];
  private readonly listings: (L | null)[];
  private world: World | null = null;

  /** `reads`: each entry's fields (see {@link groupReads}), shared by the memos of every run. */
  constructor(private readonly reads: readonly number[]) {
    this.has = new Array<number>(reads.length).fill(-1);
    this.listings = new Array<L | null>(reads.length).fill(null);
  }

  /** Makes the answers kept those for `w`. */
  at(w: World): void {
    const before = this.world;
    if (before === w) return;
    this.world = w;
    const n = this.reads.length;
    if (before === null) return;
    const changed = changedFields(before, w);
    if (changed === 0) return;
    for (let i = 0; i < n; i++) {
      if ((this.reads[i] & changed) === 0) continue;
      this.has[i] = -1;
      this.listings[i] = null;
    }
  }

  /** Whether entry `i` has an event in the world last given to {@link at}: 1, 0, or -1 when not known. */
  hasEvents(i: number): number {
    return this.has[i];
  }

  setHasEvents(i: number, has: boolean): void {
    this.has[i] = has ? 1 : 0;
  }

  /** Entry `i`'s listing in the world last given to {@link at}, or null when not known. */
  listing(i: number): L | null {
    return this.listings[i];
  }

  setListing(i: number, listing: L): void {
    this.listings[i] = listing;
  }
}

/**
 * The outbox's `always` properties on packed states: each declares the world
 * fields it reads, which map to slots; a property is skipped when none of
 * its slots changed from a parent in which it held, and otherwise checked on
 * just those fields.
 */
import { slotMask } from '../../core/explore-packed.ts';
import type { Property, Violation } from '../../core/system.ts';
import { TupleTable } from '../../core/tuple-table.ts';
import type { World } from '../world.ts';
import * as L from './layout.ts';
import type { PackedLayout, PackedTables } from './layout.ts';
import { emptyList } from '../world-copy.ts';

// Slot positions copied to module constants (see transitions.ts).
const { BROKER, CLAIM, CORRUPTIONS, CRASHES, ENGINE_COUNT, HEALING, LIVE, OPERATOR, PER_ID, PRODUCED, QUARANTINED, REC } = L;

/** The state slots a top-level world field occupies. */
function slotsOfField(layout: PackedLayout, field: keyof World): number[] {
  const perId: Partial<Record<keyof World, number>> = { records: REC, claims: CLAIM, live: LIVE, broker: BROKER, produced: PRODUCED, reported: L.REPORTED };
  const global: Partial<Record<keyof World, number>> = {
    archived: L.ARCHIVED, quarantined: QUARANTINED, published: L.PUBLISHED, parkedAttempts: L.PARKED, parkedGone: L.PARKED_GONE, nextPid: L.NEXT_PID,
    nextGeneration: L.NEXT_GEN, crashes: CRASHES, corruptions: CORRUPTIONS, operatorActions: OPERATOR, healing: HEALING,
  };
  const p = perId[field];
  if (p !== undefined) return layout.ids.map((_, j) => j * PER_ID + p);
  const q = global[field];
  if (q !== undefined) return [layout.globals + q];
  // engines: the count and every engine slot (which need not follow the count: other slots lie between).
  return [layout.globals + ENGINE_COUNT, ...Array.from({ length: layout.enginesMax }, (_, k) => layout.globals + L.ENGINES + k)];
}

/**
 * Verdicts a property of the engines keeps at most: its combinations grow
 * with the search, so its memo is dropped when full (a verdict is a function
 * of its key: dropping one costs a check, never a different answer), and
 * begun again only if it answered at least as many checks as it held; else
 * the property is checked afresh from then on (a large search, at five
 * engines, meets few combinations twice, and a memo there only cost a probe
 * and an entry per check). A few hundred kilobytes at most.
 */
export const ENGINE_VERDICTS_MAX = 1 << 14;

/** No bound on a property's verdicts: a small integer, as the bound above is (Infinity, a heap number, gave the properties' objects a second hidden class). */
const VERDICTS_UNBOUNDED = 0x3fffffff;

/**
 * A property checked on packed states: skipped when nothing it reads differs
 * from a parent in which it held (by the explorer's `changed` mask);
 * otherwise checked on just the fields it reads, with verdicts memoised on
 * those slots. A property of the engines keeps at most
 * {@link ENGINE_VERDICTS_MAX} verdicts (it was checked afresh on every state
 * whose engines changed, nearly every state, each check unpacking the
 * engines: a fifth of the small-world suite's garbage).
 */
export class MemoProperty {
  private table = new TupleTable();
  private readonly verdicts: (Violation | null)[] = emptyList();
  private readonly slots: Int32Array;
  /** The bits of `changed` (see `changedSlots`) that stand for the slots read. */
  private readonly mask: number;
  private readonly key: Int32Array;
  /** Most verdicts kept before the memo is dropped. */
  private readonly verdictsMax: number;
  /** Checks the memo answered since it was last begun. */
  private hits = 0;
  /** False once a full memo answered fewer checks than it held: every check is then made afresh. */
  private memoised = true;

  constructor(
    readonly property: Property<World>,
    private readonly layout: PackedLayout,
    private readonly tables: PackedTables,
  ) {
    const reads = property.reads;
    const slots = reads ? reads.flatMap((f) => slotsOfField(layout, f)) : Array.from({ length: layout.width }, (_, i) => i);
    this.slots = Int32Array.from(slots);
    this.mask = slotMask(slots);
    this.key = new Int32Array(slots.length);
    this.verdictsMax = (reads ?? []).includes('engines') ? ENGINE_VERDICTS_MAX : VERDICTS_UNBOUNDED;
  }

  private world(s: Int32Array): World {
    const reads = this.property.reads;
    return reads ? this.layout.unpackFields(s, this.tables, reads) : this.layout.unpack(s, this.tables);
  }

  /** `changed` as in {@link PackedSystem.check}. */
  check(s: Int32Array, changed: number): Violation | null {
    if ((changed & this.mask) === 0) return null;
    if (!this.memoised) return this.property.check(this.world(s));
    for (let k = 0; k < this.slots.length; k++) this.key[k] = s[this.slots[k]];
    let i = this.table.find(this.key, this.key.length);
    if (i >= 0) {
      this.hits++;
      return this.verdicts[i];
    }
    if (this.table.size >= this.verdictsMax) {
      this.memoised = this.hits >= this.table.size;
      this.table = new TupleTable();
      this.verdicts.length = 0;
      this.hits = 0;
      if (!this.memoised) return this.property.check(this.world(s));
    }
    i = this.table.add(this.key, this.key.length);
    this.verdicts[i] = this.property.check(this.world(s));
    return this.verdicts[i];
  }
}

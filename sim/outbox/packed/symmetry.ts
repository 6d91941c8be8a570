/**
 * Symmetry reduction for the packed explorer: engines that run the same rule
 * set are interchangeable, and a pid means nothing beyond which engine it
 * names and which claims that engine (alive or dead) holds. So two states
 * equal up to renaming pids have the same futures up to that renaming, and
 * the search stores one of them: the visited set holds the fingerprint of a
 * state's canonical form (as Stateright's `representative`), while the
 * frontier keeps the real state, so a counterexample's path is a real path
 * whose trace replays as it is.
 *
 * The canonical form renames pids: alive engines, ordered by their process
 * with its own pid made a placeholder (its version, lifecycle state and
 * memory) and then by the ids whose claim each holds, become pids 1..n (two
 * engines equal on both hold no claim and are interchangeable, so their
 * order does not matter); dead claim holders follow, in the order of the
 * first id whose claim each holds; the next pid is the one after. Only
 * claims and engine processes hold pids (see `pid-renaming.ts`) unless a
 * rule set reads `who.pid`: a rule set that does may store or branch on a
 * pid, and the search that met it is thrown away (see `pid-watch.ts`).
 */
import type { Symmetry } from '../../core/explore.ts';
import { fingerprintInts } from '../../core/tuple-table.ts';
import type { WorldEvent } from '../world.ts';
import * as L from './layout.ts';
import { Unrepresentable, type PackedLayout, type PackedTables } from './layout.ts';
import { PidRenaming, renamePid } from './pid-renaming.ts';
import type { PackedOutbox } from './system.ts';

const { CLAIM, ENGINE_COUNT, ENGINES, NEXT_PID, PER_ID } = L;

/** New pids a renamed process may get: the engines and the dead claim holders of a state. */
const NEW_PIDS_MAX = 64;

export class PackedSymmetry {
  private readonly renaming: PidRenaming;
  /**
   * Per engine process id, at `2 * procId`: its pid + 1 and its class + 1
   * (the process with its own pid made a placeholder); 0 where not yet
   * known. Typed tables: plain arrays filled at scattered indices turn
   * into slow dictionaries.
   */
  private procInfo = new Int32Array(1 << 12);
  /** Per claim id: the pid holding it + 2 (1: not held; 0: not yet known). */
  private holderOf = new Int32Array(1 << 10);
  /** Per (process id, new pid), at `procId * enginesMax + pid - 1`: the renamed process id + 1 (0: not yet made). */
  private renamed = new Int32Array(1 << 12);
  /** Per pid: the id of the claim it holds + 1 (0: not yet known). */
  private heldClaim = new Int32Array(1 << 8);
  // Scratch, per engine slot and per id.
  private readonly procs: Int32Array;
  private readonly pids: Int32Array;
  private readonly classes: Int32Array;
  private readonly masks: Int32Array;
  private readonly order: Int32Array;
  private readonly dead: Int32Array;
  /** Per id, the pid holding its claim (-1: none), as {@link canonical} read it. */
  private readonly holders: Int32Array;
  /** After {@link canonical}: the renaming it applied, real pids in `from`, new ones in `to`, `renamedCount` of each. */
  readonly from: Int32Array;
  readonly to: Int32Array;
  renamedCount = 0;
  private readonly scratch: Int32Array;
  constructor(
    private readonly layout: PackedLayout,
    private readonly tables: PackedTables,
  ) {
    this.renaming = new PidRenaming(tables);
    const n = layout.enginesMax;
    const ids = layout.ids.length;
    if (n + ids >= NEW_PIDS_MAX) throw new Error(`packed symmetry: at most ${NEW_PIDS_MAX - 1} engines and ids together`);
    this.procs = new Int32Array(n);
    this.pids = new Int32Array(n);
    this.classes = new Int32Array(n);
    this.masks = new Int32Array(n);
    this.order = new Int32Array(n);
    this.dead = new Int32Array(ids);
    this.holders = new Int32Array(ids);
    this.from = new Int32Array(n + ids);
    this.to = new Int32Array(n + ids);
    this.scratch = new Int32Array(layout.width);
  }

  private pid(procId: number): number {
    if (2 * procId + 1 >= this.procInfo.length) this.procInfo = grown(this.procInfo, 2 * procId + 2);
    let p = this.procInfo[2 * procId] - 1;
    if (p < 0) {
      p = this.tables.procs.value(procId)?.pid ?? 0;
      this.procInfo[2 * procId] = p + 1;
    }
    return p;
  }

  private classOfProc(procId: number): number {
    if (2 * procId + 1 >= this.procInfo.length) this.procInfo = grown(this.procInfo, 2 * procId + 2);
    let c = this.procInfo[2 * procId + 1] - 1;
    if (c < 0) {
      c = this.renaming.procAsSelf(procId);
      this.procInfo[2 * procId + 1] = c + 1;
    }
    return c;
  }

  private holder(claimId: number): number {
    if (claimId >= this.holderOf.length) this.holderOf = grown(this.holderOf, claimId + 1);
    let h = this.holderOf[claimId] - 2;
    if (h === -2) {
      const claim = this.tables.claims.value(claimId);
      // A renamed claim is rebuilt from its owner and its lease's end (see the renaming below): a claim with any other field would lose it.
      if (claim?.kind === 'held' && Object.keys(claim).some((k) => k !== 'kind' && k !== 'owner' && k !== 'until')) {
        throw new Unrepresentable(`packed symmetry: a held claim with fields beyond its owner and lease (${JSON.stringify(claim)})`);
      }
      h = claim?.kind === 'held' ? claim.owner : -1;
      this.holderOf[claimId] = h + 2;
    }
    return h;
  }

  private renamedProc(procId: number, pid: number): number {
    const at = procId * this.layout.enginesMax + pid - 1;
    if (at >= this.renamed.length) this.renamed = grown(this.renamed, at + 1);
    let r = this.renamed[at] - 1;
    if (r < 0) {
      r = this.renaming.proc(procId, { from: [this.pid(procId)], to: [pid] });
      this.renamed[at] = r + 1;
    }
    return r;
  }

  private heldBy(pid: number): number {
    if (pid >= this.heldClaim.length) this.heldClaim = grown(this.heldClaim, pid + 1);
    let c = this.heldClaim[pid] - 1;
    if (c < 0) {
      c = this.renaming.heldBy(pid);
      this.heldClaim[pid] = c + 1;
    }
    return c;
  }

  /** Writes the canonical form of `s` into `out` (not `s`), and the renaming into `from`/`to`. */
  canonical(s: Int32Array, out: Int32Array): void {
    // An element loop: `set` on a few ints is a slow runtime call.
    const width = this.layout.width;
    for (let i = 0; i < width; i++) out[i] = s[i];
    const g = this.layout.globals;
    const ids = this.layout.ids.length;
    const n = s[g + ENGINE_COUNT];
    const { procs, pids, classes, masks, order, dead, from, to, holders } = this;
    for (let k = 0; k < n; k++) {
      const p = s[g + ENGINES + k];
      procs[k] = p;
      // Both known after the first meeting of a process: one bounds check, two reads.
      const at = 2 * p;
      const info = this.procInfo;
      if (at + 1 < info.length && info[at] > 0 && info[at + 1] > 0) {
        pids[k] = info[at] - 1;
        classes[k] = info[at + 1] - 1;
      } else {
        pids[k] = this.pid(p);
        classes[k] = this.classOfProc(p);
      }
      masks[k] = 0;
    }
    let deadCount = 0;
    for (let j = 0; j < ids; j++) {
      const h = this.holder(s[j * PER_ID + CLAIM]);
      // Kept for the renaming of the claims below.
      holders[j] = h;
      if (h < 0) continue;
      let k = 0;
      while (k < n && pids[k] !== h) k++;
      if (k < n) {
        masks[k] |= 1 << j;
        continue;
      }
      let d = 0;
      while (d < deadCount && dead[d] !== h) d++;
      if (d === deadCount) dead[deadCount++] = h;
    }
    // Insertion sort of the engines by (class, claims held): at most a handful.
    for (let i = 0; i < n; i++) {
      let k = i;
      while (k > 0 && (classes[order[k - 1]] > classes[i] || (classes[order[k - 1]] === classes[i] && masks[order[k - 1]] > masks[i]))) {
        order[k] = order[k - 1];
        k--;
      }
      order[k] = i;
    }
    for (let i = 0; i < n; i++) {
      const k = order[i];
      // A process whose pid is already its new one renames to itself (equal values intern to one id): no table read.
      out[g + ENGINES + i] = pids[k] === i + 1 ? procs[k] : this.renamedProc(procs[k], i + 1);
      from[i] = pids[k];
      to[i] = i + 1;
    }
    for (let d = 0; d < deadCount; d++) {
      from[n + d] = dead[d];
      to[n + d] = n + 1 + d;
    }
    const count = n + deadCount;
    this.renamedCount = count;
    for (let j = 0; j < ids; j++) {
      const h = holders[j];
      if (h < 0) continue;
      let r = 0;
      while (from[r] !== h) r++;
      // A claim whose holder keeps its pid stays as it is; a renamed one keeps its lease's end, which tells states apart.
      if (to[r] !== h) {
        const claim = this.tables.claims.value(s[j * PER_ID + CLAIM]);
        const until = claim?.kind === 'held' ? claim.until : undefined;
        out[j * PER_ID + CLAIM] = until === undefined ? this.heldBy(to[r]) : this.renaming.heldBy(to[r], until);
      }
    }
    out[g + NEXT_PID] = count + 1;
  }

  /** The renaming of pids that takes `a` to `b`, two states of one class: a's pid `from[i]` is b's `to[i]`. */
  between(a: Int32Array, b: Int32Array): { from: number[]; to: number[] } {
    this.canonical(a, this.scratch);
    const aFrom = Array.from(this.from.subarray(0, this.renamedCount));
    const aTo = Array.from(this.to.subarray(0, this.renamedCount));
    this.canonical(b, this.scratch);
    const bFrom = Array.from(this.from.subarray(0, this.renamedCount));
    const bTo = Array.from(this.to.subarray(0, this.renamedCount));
    // a's pid p is canonical pid c; b's pid q is canonical pid c too.
    return { from: aFrom, to: aTo.map((c) => bFrom[bTo.indexOf(c)]) };
  }
}

/** A copy of `table` at least `length` long (doubling), zeros after the old entries. */
function grown(table: Int32Array, length: number): Int32Array<ArrayBuffer> {
  let size = table.length * 2;
  while (size < length) size *= 2;
  const t = new Int32Array(size);
  t.set(table);
  return t;
}

/** The symmetry of a packed outbox, as the explorer takes it. */
export function packedSymmetry(system: PackedOutbox): Symmetry<Int32Array, WorldEvent> {
  const symmetry = new PackedSymmetry(system.layout, system.tables);
  const width = system.width;
  const canonical = new Int32Array(width);
  return {
    print(s, out) {
      symmetry.canonical(s, canonical);
      fingerprintInts(canonical, width, out);
    },
    carry(from, to, events) {
      const r = symmetry.between(from, to);
      return events.map((e) => ('pid' in e ? { ...e, pid: renamePid(e.pid, r) } : e));
    },
    same(a, b) {
      for (let i = 0; i < width; i++) if (a[i] !== b[i]) return false;
      return true;
    },
  };
}

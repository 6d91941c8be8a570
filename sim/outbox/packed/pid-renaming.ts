/**
 * Renaming engine pids inside interned values. The outbox system depends on
 * a pid only through equality (is this claim mine, is its holder alive), so
 * what one engine's step does is the same for every engine up to renaming
 * pids: the packed transitions derive a step once, with the engine's pid
 * (and the pid of the claim's holder) replaced by placeholders, and rename
 * the placeholders back for each engine that meets the same situation.
 * Pids occur in a claim's owner and in an engine process (its pid and its
 * memory's pid); no other interned value holds one (records, files,
 * holdings, counts and strings have none).
 */
import type { ClaimSlot } from '../../../model/types.ts';
import { copyContext } from '../compiled-stepper.ts';
import type { EngineProc } from '../world.ts';
import { TupleTable } from '../../core/tuple-table.ts';
import type { PackedTables } from './layout.ts';

/** Placeholder for the pid of the engine an event names. Real pids are positive. */
export const SELF = -1;
/** Placeholder for the pid of the holder of the claim that engine reads. */
export const OTHER = -2;

/** A renaming of pids: the pid in `from[i]` becomes `to[i]`; any other pid stays. */
export interface Renaming {
  from: readonly number[];
  to: readonly number[];
  /**
   * Called with each pid not in `from`; may throw to refuse it. The check
   * runs on every renaming, memoised or not: what a renaming makes depends
   * on `from` and `to` only, so a memo hit is run past the check first.
   */
  check?(pid: number): void;
}

/** Renamings of more pids than this are not memoised. */
const RENAMED_PIDS_MAX = 4;

export class PidRenaming {
  /** (kind, id, pids from, pids to) to the renamed id, for renamings without a check. */
  private readonly memo = new TupleTable();
  private readonly renamed: number[] = [];
  private readonly key = new Int32Array(2 + 2 * RENAMED_PIDS_MAX);

  /** Per engine process id: the process with its own pid made {@link SELF}. */
  private readonly placeholderProcs: number[] = [];
  /** Per pid: the id of the claim held by it. */
  private readonly heldClaims = new Map<number, number>();

  constructor(private readonly tables: PackedTables) {}

  /** The engine process `procId` as a memo key holds it: its own pid made {@link SELF}. */
  procAsSelf(procId: number): number {
    let v = this.placeholderProcs[procId];
    if (v === undefined) {
      const pid = this.tables.procs.value(procId)?.pid ?? 0;
      v = this.placeholderProcs[procId] = this.proc(procId, { from: [pid], to: [SELF] });
    }
    return v;
  }

  /**
   * The claim `claimId` as the memo key of an event of engine `self` holds
   * it: held by `self` becomes held by {@link SELF}, held by another engine
   * held by {@link OTHER}.
   */
  claimFor(claimId: number, self: number): number {
    const claim = this.tables.claims.value(claimId);
    if (claim === undefined || claim.kind !== 'held') return claimId;
    return this.heldBy(claim.owner === self ? SELF : OTHER, claim.until);
  }

  /** The id of the claim held by `pid`; with a lease, one that ends at `until` (a renamed claim keeps its lease: it tells states apart). */
  heldBy(pid: number, until?: number): number {
    if (until !== undefined) return this.tables.claims.id({ kind: 'held', owner: pid, until });
    let v = this.heldClaims.get(pid);
    if (v === undefined) {
      const held: ClaimSlot = { kind: 'held', owner: pid };
      v = this.tables.claims.id(held);
      this.heldClaims.set(pid, v);
    }
    return v;
  }

  /** The interned claim `claimId` with its owner renamed (0, an absent claim, stays 0). */
  claim(claimId: number, r: Renaming): number {
    const claim = this.tables.claims.value(claimId);
    if (claim === undefined || claim.kind !== 'held') return claimId;
    return this.heldBy(renamePid(claim.owner, r), claim.until);
  }

  /** The interned engine process `procId` with its pids renamed. */
  proc(procId: number, r: Renaming): number {
    const proc = this.tables.procs.value(procId);
    if (proc === undefined) return procId;
    // The check sees the process's pids whether or not the memo answers (a program derived with a check renames every process it writes).
    if (r.check !== undefined) {
      renamePid(proc.pid, r);
      renamePid(proc.ctx.pid, r);
    }
    return this.memoised(1, procId, r, () => {
      return this.tables.procs.id(renamedProc(proc, renamePid(proc.pid, r), renamePid(proc.ctx.pid, r)));
    });
  }

  private memoised(kind: number, id: number, r: Renaming, make: () => number): number {
    if (r.from.length > RENAMED_PIDS_MAX) return make();
    const key = this.key;
    let n = 0;
    key[n++] = kind;
    key[n++] = id;
    for (const p of r.from) key[n++] = p;
    for (const p of r.to) key[n++] = p;
    let i = this.memo.find(key, n);
    if (i < 0) {
      i = this.memo.add(key, n);
      this.renamed[i] = make();
    }
    return this.renamed[i];
  }
}

/**
 * `proc` with its pid and its memory's pid replaced, every field written in
 * the order the steppers write them (`newEngineProc`, `withMemory`, the
 * compiled stepper's context copy): a spread made processes of another
 * hidden class, and every engine read of the explorer and the object system
 * met two classes of process (the renamed ones first in a world with
 * crashes or one engine). The types fail to compile when a process gains a field.
 */
function renamedProc(proc: EngineProc, pid: number, memoryPid: number): EngineProc {
  // The compiled stepper's own copy, so that a renamed memory has the class of a stepped one.
  const ctx = copyContext(proc.ctx);
  ctx.pid = memoryPid;
  const renamed: { [K in keyof Required<EngineProc>]: EngineProc[K] } = { pid, version: proc.version, state: proc.state, ctx };
  return renamed;
}

/** A pid under a renaming. */
export function renamePid(pid: number, r: Renaming): number {
  const i = r.from.indexOf(pid);
  if (i >= 0) return r.to[i];
  r.check?.(pid);
  return pid;
}

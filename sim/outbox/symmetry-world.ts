/**
 * Symmetry reduction for the object explorer: the same canonical form as the
 * packed one (`packed/symmetry.ts`), on worlds. Alive engines, ordered by
 * their process with its own pid left out and then by the ids whose claim
 * each holds, become pids 1..n; dead claim holders follow in the order of the
 * first id whose claim each holds; the next pid is the one after.
 */
import { canonicalKey } from '../core/canonical.ts';
import type { Symmetry } from '../core/explore.ts';
import { fingerprint as fingerprintOf } from '../core/fingerprint.ts';
import type { TransitionSystem } from '../core/system.ts';
import type { ClaimSlot } from '../../model/types.ts';
import type { EngineProc, World, WorldEvent } from './world.ts';

/** A world's canonical form, and the renaming that made it (pid `from[i]` became `to[i]`). */
export function canonicalWorld(w: World): { world: World; from: number[]; to: number[] } {
  const ids = Object.keys(w.claims).sort();
  const alive = new Set(w.engines.map((p) => p.pid));
  const masks = new Map<number, number>();
  const dead: number[] = [];
  ids.forEach((id, j) => {
    const c = w.claims[id];
    if (c?.kind !== 'held') return;
    if (alive.has(c.owner)) masks.set(c.owner, (masks.get(c.owner) ?? 0) | (1 << j));
    else if (!dead.includes(c.owner)) dead.push(c.owner);
  });
  const classOf = (p: EngineProc): string => canonicalKey({ ...p, pid: 0, ctx: { ...p.ctx, pid: 0 } });
  const sorted = w.engines
    .map((p) => ({ p, cls: classOf(p), mask: masks.get(p.pid) ?? 0 }))
    .sort((a, b) => (a.cls < b.cls ? -1 : a.cls > b.cls ? 1 : a.mask - b.mask));
  const from = [...sorted.map((x) => x.p.pid), ...dead];
  const to = from.map((_, i) => i + 1);
  const renamed = (pid: number): number => to[from.indexOf(pid)];
  const claims: Record<string, ClaimSlot> = {};
  for (const [id, c] of Object.entries(w.claims)) claims[id] = c.kind === 'held' ? { ...c, owner: renamed(c.owner) } : c; // every other field of the claim (a lease's end) kept
  const engines = sorted.map(({ p }, i) => ({ ...p, pid: i + 1, ctx: { ...p.ctx, pid: i + 1 } }));
  return { world: { ...w, claims, engines, nextPid: from.length + 1 }, from, to };
}

/** The symmetry of the object outbox system, keyed by its own canonical key. */
export function worldSymmetry(system: TransitionSystem<World, WorldEvent>): Symmetry<World, WorldEvent> {
  return {
    print(w, out) {
      const [hi, lo] = fingerprintOf(system.key(canonicalWorld(w).world));
      out[0] = hi;
      out[1] = lo;
    },
    carry(a, b, events) {
      const ca = canonicalWorld(a);
      const cb = canonicalWorld(b);
      // a's pid p is canonical c, and so is b's pid q: p becomes q.
      const map = (pid: number): number => cb.from[cb.to.indexOf(ca.to[ca.from.indexOf(pid)])] ?? pid;
      return events.map((e) => ('pid' in e ? { ...e, pid: map(e.pid) } : e));
    },
    same: (a, b) => system.key(a) === system.key(b),
  };
}

import { describe, expect, it, vi } from 'vitest';
import type { EngineProc } from '../world.ts';
import { PackedTables } from './layout.ts';
import { OTHER, PidRenaming, renamePid, SELF } from './pid-renaming.ts';

const proc = (pid: number): EngineProc => ({
  pid,
  version: 'new',
  state: 'idle',
  ctx: { pid, attemptsMax: 2, id: null, file: null, envelope: null, outcome: null, pending: null, effect: null },
});

describe('PidRenaming', () => {
  it('renames the owner of a held claim and leaves other claims alone', () => {
    const t = new PackedTables();
    const r = new PidRenaming(t);
    const held3 = t.claims.id({ kind: 'held', owner: 3 });
    const torn = t.claims.id({ kind: 'torn' });
    expect(t.claims.value(r.claim(held3, { from: [3], to: [SELF] }))).toEqual({ kind: 'held', owner: SELF });
    expect(r.claim(torn, { from: [3], to: [SELF] })).toBe(torn);
    expect(r.claim(0, { from: [3], to: [SELF] })).toBe(0);
    // As a key holds it: mine, or another engine's.
    expect(t.claims.value(r.claimFor(held3, 3))).toEqual({ kind: 'held', owner: SELF });
    expect(t.claims.value(r.claimFor(held3, 5))).toEqual({ kind: 'held', owner: OTHER });
  });

  it('renames an engine process and its memory, both ways, to the same ids', () => {
    const t = new PackedTables();
    const r = new PidRenaming(t);
    const p4 = t.procs.id(proc(4));
    const self = r.procAsSelf(p4);
    expect(t.procs.value(self)).toEqual(proc(SELF));
    expect(r.procAsSelf(t.procs.id(proc(7)))).toBe(self);
    expect(r.proc(self, { from: [SELF], to: [4] })).toBe(p4);
  });

  it('runs a renaming check on every pid it does not rename', () => {
    const refuse = { from: [1], to: [SELF], check: (pid: number) => { throw new Error(`pid ${pid} refused`); } };
    expect(renamePid(1, refuse)).toBe(SELF);
    expect(() => renamePid(2, refuse)).toThrow(/pid 2 refused/);
    const t = new PackedTables();
    const r = new PidRenaming(t);
    expect(() => r.claim(t.claims.id({ kind: 'held', owner: 2 }), refuse)).toThrow(/pid 2 refused/);
  });

  it('memoises a renaming with a check, and still runs the check on a memo hit', () => {
    const t = new PackedTables();
    const r = new PidRenaming(t);
    const p4 = t.procs.id({ ...proc(4), ctx: { ...proc(4).ctx, pid: 2 } });
    const allow = { from: [4], to: [SELF], check: () => undefined };
    const first = r.proc(p4, allow);
    // A derived program renames each process it writes: the second time, nothing is built or interned again.
    const interned = vi.spyOn(t.procs, 'id');
    expect(r.proc(p4, { ...allow })).toBe(first);
    expect(interned).not.toHaveBeenCalled();
    // The memo answers for (from, to); the check still sees the pid it does not rename.
    const refuse = { from: [4], to: [SELF], check: (pid: number) => { throw new Error(`pid ${pid} refused`); } };
    expect(() => r.proc(p4, refuse)).toThrow(/pid 2 refused/);
  });
});

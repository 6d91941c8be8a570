import { describe, expect, it } from 'vitest';
import { beginHandling, decide, finishHandling, type Command } from './kernel.ts';
import { readNewest, type Reader } from './reader.ts';
import { parseLine } from './row.ts';
import { EMPTY_STORE, type ReceiptStore } from './store.ts';

const cmd: Command = { key: 'k1', task: 't1', round: 1, rev: 1 };
const handled = (): ReceiptStore => {
  const b = beginHandling(EMPTY_STORE, cmd, 1);
  return finishHandling(b.store, cmd, 1, 'started a1');
};
const damage = (s: ReceiptStore, i: number): ReceiptStore => ({ lines: s.lines.map((l, j) => (j === i ? `${l.slice(0, 5)}###` : l)) });

describe('kernel decision table', () => {
  it('calls and writes a pending row when nothing was ever handled', () => {
    const b = beginHandling(EMPTY_STORE, cmd, 1);
    expect(b.decision).toMatchObject({ kind: 'call', basis: 'nothing-found' });
    expect(b.store.lines).toHaveLength(1);
    expect(parseLine(b.store.lines[0])).toMatchObject({ kind: 'row', row: { kind: 'pending', key: 'k1', rev: 1 } });
  });

  it('replays a readable completion and writes nothing', () => {
    const s = handled();
    const b = beginHandling(s, cmd, 1);
    expect(b.decision).toMatchObject({ kind: 'replay', result: 'started a1' });
    expect(b.store).toBe(s);
  });

  it('replays a completion even under a newer revision', () => {
    expect(beginHandling(handled(), cmd, 2).decision.kind).toBe('replay');
  });

  it('calls again on a pending row of the current revision', () => {
    expect(beginHandling(damage(handled(), 1), cmd, 1).decision).toMatchObject({ kind: 'call', basis: 'pending-same-revision' });
  });

  it('rejects a pending row of an older revision (the state advanced)', () => {
    expect(beginHandling(damage(handled(), 1), cmd, 2).decision).toMatchObject({ kind: 'reject-stale', basis: 'pending-revision', seenRev: 1, currentRev: 2 });
  });

  it('rejects a command of an older revision when nothing usable is found', () => {
    const s = damage(damage(handled(), 1), 0);
    expect(beginHandling(s, cmd, 2).decision).toMatchObject({ kind: 'reject-stale', basis: 'command-revision' });
    expect(beginHandling(s, cmd, 1).decision).toMatchObject({ kind: 'call', basis: 'nothing-found' });
  });

  it('reports unavailable, writes and calls nothing, when the reader throws', () => {
    const throwing: Reader = () => {
      throw new Error('disk gone');
    };
    const s = handled();
    const b = beginHandling(s, cmd, 1, throwing);
    expect(b.decision).toEqual({ kind: 'unavailable', error: 'disk gone' });
    expect(b.store).toBe(s);
  });

  it('decide is a pure function of the read', () => {
    const read = readNewest(handled(), 'k1');
    expect(decide(read, cmd, 1)).toEqual(decide(read, cmd, 1));
  });
});

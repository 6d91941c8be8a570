/**
 * The watch on a step's read notes every path read and the value seen
 * there, and calls anything a path cannot name beyond; the codes of a
 * record under a set of paths are equal exactly when the read agrees at
 * every path (and the world's kind and status of the record agree).
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { foundRead, readSlot } from '../../../model/record.ts';
import type { OutboxRecord, RecordRead, RecordSlot } from '../../../model/types.ts';
import { ReadCodes, readersOf } from './read-codes.ts';
import { RecordProjection } from './record-reads.ts';
import { encodeValue, ReadWatch, valueAt } from './read-watch.ts';

const record = (over: Partial<OutboxRecord> = {}): OutboxRecord => ({ schema: 1, status: 'PARKED', payload: 'A', digest: 'd', attempts: 1, resendEpoch: 0, reason: 'max-attempts', ...over });

/** Runs `probe` on a watched read of `r`: the watch afterwards. */
function watched(probe: (read: RecordRead) => unknown, r: RecordRead = foundRead(record())): ReadWatch {
  const w = new ReadWatch();
  w.start();
  probe(w.watch(r));
  w.close();
  return w;
}

describe('ReadWatch', () => {
  it('notes each path read once, in order, with the value seen; the values are what valueAt reads of the plain read', () => {
    const read = foundRead(record());
    const w = watched((r) => {
      if (r.kind !== 'found') return;
      void [r.record.status, r.record.payload, r.record.status, 'reason' in r.record, r.record.reason, r.metadataOnly];
    }, read);
    expect(w.paths).toEqual(['kind', 'record', 'record.status', 'record.payload', 'record.in:reason', 'record.reason', 'metadataOnly']);
    expect(w.values).toEqual(['sfound', 'object', 'sPARKED', 'sA', 'boolean:true', 'smax-attempts', 'undefined:undefined']);
    expect(w.paths.map((p) => valueAt(read, p))).toEqual(w.values);
    expect([w.beyond, w.escaped, w.touched]).toEqual([false, false, true]);
    // A record read twice is one stand-in (a step may compare it with itself).
    expect(watched((r) => expect(r.kind === 'found' && r.record === r.record).toBe(true)).beyond).toBe(false);
  });

  it('anything a path cannot name is beyond: enumerating, a spread, the stored fields, an object value, a symbol, a write, JSON', () => {
    const probes: [string, (r: RecordRead) => unknown][] = [
      ['a spread of the record', (r) => (r.kind === 'found' ? { ...r.record } : null)],
      ['a spread of the read', (r) => ({ ...r })],
      ['its keys', (r) => (r.kind === 'found' ? Object.keys(r.record) : null)],
      ['the stored fields', (r) => (r.kind === 'found' ? r.stored.missing : null)],
      ['a field holding an object', (r) => (r.kind === 'found' ? (r.record as Record<string, unknown>).nested : null)],
      ['a symbol', (r) => (r.kind === 'found' ? `${String((r.record as unknown as Record<symbol, unknown>)[Symbol.iterator])}` : null)],
      ['a name with a dot', (r) => (r as unknown as Record<string, unknown>)['record.status']],
      ['a write', (r) => (r.kind === 'found' ? Object.assign(r.record, { attempts: 2 }) : null)],
      ['JSON', (r) => JSON.stringify(r)],
      ['instanceof', (r) => r instanceof Array],
    ];
    for (const [what, probe] of probes) {
      const w = watched(probe, foundRead(record({ nested: { x: 1 } })));
      expect([what, w.beyond]).toEqual([what, true]);
    }
  });

  it('an access after close is an escape; leaks finds a stand-in in a step output and nothing in plain data', () => {
    const w = new ReadWatch();
    w.start();
    const r = w.watch(foundRead(record()));
    const rec = r.kind === 'found' ? r.record : null;
    w.close();
    expect(w.escaped).toBe(false);
    expect(w.leaks({ state: 'idle', effects: [{ kind: 'write-record', record: { ...record() } }] })).toBe(false);
    expect(w.leaks({ effects: [{ kind: 'write-record', record: rec }] })).toBe(true);
    expect(w.leaks({ ctx: { kept: [r] } })).toBe(true);
    // The search entered no stand-in: no access was noted.
    expect(w.escaped).toBe(false);
    void rec?.status;
    expect(w.escaped).toBe(true);
    w.start();
    expect([w.escaped, w.paths.length, w.leaks({ r })]).toEqual([false, 0, false]);
  });

  it('encodes values by type and text', () => {
    expect(new Set(['1', 1, true, 'true', null, undefined, 'undefined:undefined'].map(encodeValue)).size).toBe(7);
  });

  it('codes a long string by a number of its own: equal texts alike, different texts apart, the code short', () => {
    const a = 'A' + 'x'.repeat(1 << 20);
    const b = 'B' + 'x'.repeat(1 << 20);
    const aCopy = 'A' + 'x'.repeat(1 << 20);
    const codes = [a, b, aCopy, a].map(encodeValue);
    expect(codes[0]).toBe(codes[2]);
    expect(codes[0]).toBe(codes[3]);
    expect(codes[0]).not.toBe(codes[1]);
    expect(Math.max(...codes.map((c) => c.length))).toBeLessThan(16);
    // A short string keeps its text: it never shares a code with a long one.
    expect(encodeValue('x'.repeat(1023))).toBe(`s${'x'.repeat(1023)}`);
    expect(codes).not.toContain(encodeValue('A'));
  });
});

describe('ReadCodes', () => {
  const slots: (RecordSlot | undefined)[] = [
    undefined,
    { kind: 'record', record: record() },
    { kind: 'record', record: record({ resendEpoch: 3, attempts: 0 }) },
    { kind: 'record', record: record({ reason: 'permanent-refusal' }) },
    { kind: 'record', record: record({ payload: 'B' }) },
    { kind: 'record', record: record({ status: 'READY', reason: undefined }) },
    { kind: 'torn', bytes: 'x' },
  ];
  const value = (id: number) => slots[id];
  const codes = new ReadCodes(value, new RecordProjection(value), readersOf({ rules: failClosed }));

  it("one code for records that read alike at every path of a set (and alike in the world's kind and status)", () => {
    const disposal = codes.setOf(['record.reason', 'kind', 'record', 'record.status', 'record.payload']);
    expect(codes.setOf(['kind', 'record', 'record.status', 'record.payload', 'record.reason'])).toBe(disposal);
    const c = slots.map((_, id) => codes.code(disposal, 'new', id));
    // Records differing only in counts share; a reason, a body, a status, absent, torn each differ.
    expect(c[1]).toBe(c[2]);
    expect(new Set([c[0], c[1], c[3], c[4], c[5], c[6]]).size).toBe(6);
    const status = codes.setOf(['kind', 'record', 'record.status']);
    const s = slots.map((_, id) => codes.code(status, 'new', id));
    expect(new Set([s[1], s[2], s[3], s[4]]).size).toBe(1);
    // Sets never share codes: the set is part of the code.
    expect(s[1]).not.toBe(c[1]);
    // The empty set codes the world's kind and status only.
    const none = codes.setOf([]);
    expect(codes.code(none, 'new', 1)).toBe(codes.code(none, 'new', 3));
    expect(codes.code(none, 'new', 1)).not.toBe(codes.code(none, 'new', 5));
  });

  it('check throws where a step saw another value than the reader reads', () => {
    const read = readSlot(slots[3], 1);
    const paths = ['kind', 'record', 'record.reason'];
    expect(() => codes.check('new', 3, paths, paths.map((p) => valueAt(read, p)))).not.toThrow();
    expect(() => codes.check('new', 3, paths, ['sfound', 'object', 'smax-attempts'])).toThrow(/readers differ/);
  });

  it('without readers only the empty set is codable', () => {
    const bare = new ReadCodes(value, new RecordProjection(value), null);
    expect([bare.codable([]), bare.codable(['kind'])]).toEqual([true, false]);
    expect(bare.code(bare.setOf([]), 'old', 2)).toBe(bare.code(bare.setOf([]), 'old', 1));
  });
});

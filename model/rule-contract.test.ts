/**
 * Each decision's contract accepts what the types allow and refuses the
 * rest; a guarded rule set turns a throw or a malformed return into a
 * RuleFault naming the rule set, the decision, the value and what was
 * expected, and passes good values through unchanged.
 */
import { describe, expect, it } from 'vitest';
import failClosed from './catalog/fail-closed.ts';
import { freshRecord, SHAPE_DEFAULT } from './record.ts';
import { contractProblem, guardRules, preview, RuleFault, type Decision } from './rule-contract.ts';
import { keepsContract } from './rule-contract-fast.ts';
import { extendRules } from './rules.ts';

const record = freshRecord('A', 0);
const { attempts: _a, resendEpoch: _r, digest: _d, ...legacy } = record;
const file = { id: 'a', body: 'A', generation: 1 };

const GOOD: Record<Decision, unknown[]> = {
  admit: [{ kind: 'write', record }, { kind: 'write', record: { ...record, extra: [1] } }, { kind: 'keep' }, { kind: 'quarantine', cause: 'x' }, { kind: 'leave' }],
  mayClaim: [true, false],
  selectable: [true, false],
  fences: [true, false],
  sweepable: [true, false],
  preSend: [null, record, { ...record, inFlight: true }, { ...record, status: 'PARKED', reason: 'outcome-unknown' }],
  envelope: [{ id: 'a', body: 'A', key: 'a#0' }],
  classify: ['confirmed', 'definite', 'transient', 'indeterminate', 'unclassified'],
  complete: [[], [record], [record, { ...record, status: 'PARKED', reason: 'max-attempts' }]],
  requeue: [record, legacy],
  dispose: [{ kind: 'archive', file }, { kind: 'quarantine', file, cause: 'x' }, { kind: 'leave' }],
  decode: ['', 'A', 'gz:\u0000'],
};

const BAD: Record<Decision, unknown[]> = {
  admit: [undefined, null, { kind: 'bogus' }, { kind: 'write' }, { kind: 'write', record: legacy }, { kind: 'quarantine' }, 'keep'],
  mayClaim: [undefined, 'yes', 1, null],
  selectable: [undefined, 'yes', 0, null],
  fences: [undefined, 'no', 0, null],
  sweepable: [undefined, 'yes', 1, null, { delete: true }],
  preSend: [undefined, 42, { ...record, digest: 7 }, { ...record, status: 'SENT' }, { ...record, status: 'PARKED' }],
  envelope: [undefined, { id: 'a', body: 'A' }, { id: 'a', body: 1, key: 'k' }, 'a#0'],
  classify: ['strange', undefined, 'ok', null],
  complete: ['done', [null], [legacy], undefined, record],
  requeue: [null, undefined, { ...record, resendEpoch: Number.NaN }, { ...record, status: 'GONE' }],
  dispose: [{ kind: 'burn' }, { kind: 'archive' }, { kind: 'quarantine', file }, undefined],
  decode: [undefined, null, 1, { body: 'A' }, ['A']],
};

describe('decision contracts', () => {
  for (const decision of Object.keys(GOOD) as Decision[]) {
    it(`${decision} accepts what its type allows`, () => {
      for (const v of GOOD[decision]) expect(contractProblem(decision, v)).toBeNull();
    });
    it(`${decision} refuses anything else, naming the value and what was expected`, () => {
      for (const v of BAD[decision]) expect(contractProblem(decision, v)).toMatch(new RegExp(`^returned .+, expected `));
    });
  }
  it('accepts the four park reasons of the protocol (retry-window-exhausted: a retry window that closed) and refuses any other', () => {
    for (const reason of ['permanent-refusal', 'max-attempts', 'retry-window-exhausted', 'outcome-unknown']) {
      expect(contractProblem('complete', [{ ...record, status: 'PARKED', reason }])).toBeNull();
    }
    expect(contractProblem('complete', [{ ...record, status: 'PARKED', reason: 'gave-up' }])).toMatch(/^returned .+, expected /);
  });
  it('a PARKED record returned by preSend (park instead of send) must carry its park reason; complete may park without one', () => {
    expect(contractProblem('preSend', { ...record, status: 'PARKED' })).toMatch(/^returned .+, expected .+ \(reason: a PARKED record \(park instead of send\) needs its park reason\)$/);
    expect(contractProblem('preSend', { ...record, status: 'PARKED', reason: 'outcome-unknown' })).toBeNull();
    expect(contractProblem('complete', [{ ...record, status: 'PARKED' }])).toBeNull();
    // The fast check leaves it to the schema (which refuses it), and passes the same record with its reason.
    expect(keepsContract('preSend', { ...record, status: 'PARKED' }, SHAPE_DEFAULT)).toBe(false);
    expect(keepsContract('preSend', { ...record, status: 'PARKED', reason: 'outcome-unknown' }, SHAPE_DEFAULT)).toBe(true);
  });
  it('names the field that breaks a nested contract', () => {
    expect(contractProblem('preSend', { ...record, digest: 7 })).toContain('(digest: ');
  });
});

describe('guardRules', () => {
  const broken = extendRules(failClosed, {
    name: 'broken',
    summary: 'test',
    classify: () => 'strange' as never,
    dispose: () => {
      throw new TypeError('no dispose here');
    },
  });
  const guarded = guardRules(broken, '"broken" (./broken.ts)');

  const who = { pid: 1, rules: 'broken', schema: 1 };
  it('passes a good value through as it was returned', () => {
    const a = guarded.admit({ id: 'a', body: 'A', read: { kind: 'absent' }, claim: { kind: 'free' }, who, now: 0 });
    expect(a).toEqual(failClosed.admit({ id: 'a', body: 'A', read: { kind: 'absent' }, claim: { kind: 'free' }, who, now: 0 }));
    expect(guarded.mayClaim({ kind: 'free' })).toBe(true);
  });
  it('turns a malformed return into a RuleFault', () => {
    let fault: unknown;
    try {
      guarded.classify('ok');
    } catch (err) {
      fault = err;
    }
    expect(fault).toBeInstanceOf(RuleFault);
    expect(fault).toMatchObject({ ruleSet: '"broken" (./broken.ts)', decision: 'classify', kind: 'malformed' });
    expect((fault as RuleFault).detail).toMatch(/^returned "strange", expected an Outcome: one of 'confirmed', /);
  });
  it('refuses a record holding a number a JSON store cannot keep (Infinity, NaN), naming the field', () => {
    const never = guardRules(
      extendRules(failClosed, { name: 'never', summary: 'retryAt Infinity', complete: (record, outcome, limits, view) => failClosed.complete(record, outcome, limits, view).map((r) => ({ ...r, retryAt: Infinity })) }),
      '"never"',
    );
    const admitted = failClosed.admit({ id: 'a', body: 'A', read: { kind: 'absent' }, claim: { kind: 'free' }, who, now: 0 });
    if (admitted.kind !== 'write') throw new Error('fail-closed admits a new body by writing it');
    const record = admitted.record;
    expect(() => never.complete(record, 'transient', { attemptsMax: 3 }, { who, now: 0, stored: undefined })).toThrow(
      expect.objectContaining({ decision: 'complete', kind: 'malformed', detail: 'wrote 0.retryAt = Infinity, which a JSON store keeps as null: store a finite number, or leave the field out' }),
    );
  });
  it('turns a throw into a RuleFault with the error message', () => {
    expect(() => guarded.dispose({ file, live: file, read: { kind: 'absent' }, sent: null, outcome: null, who, now: 0 })).toThrow(
      expect.objectContaining({ decision: 'dispose', kind: 'threw', detail: 'threw TypeError: no dispose here' }),
    );
  });
  it('calls decisions with the rule set as `this`', () => {
    const withThis = { ...failClosed, name: 'this', mayClaim(this: { allow: boolean }) { return this.allow; }, allow: true };
    expect(guardRules(withThis).mayClaim({ kind: 'free' })).toBe(true);
  });
  it('freezes the records a decision returns, so that a decision changing one it is given fails at that line, saying so', () => {
    const bumps = guardRules(
      extendRules(failClosed, {
        name: 'bumps',
        summary: 'test',
        complete(r, outcome, limits, view) {
          (r as { attempts: number }).attempts += 1;
          return failClosed.complete(r, outcome, limits, view);
        },
      }),
      '"bumps"',
    );
    const admitted = bumps.admit({ id: 'a', body: 'A', read: { kind: 'absent' }, claim: { kind: 'free' }, who, now: 0 });
    if (admitted.kind !== 'write') throw new Error('fail-closed writes a fresh record');
    expect(Object.isFrozen(admitted.record)).toBe(true);
    expect(() => bumps.complete(admitted.record, 'transient', { attemptsMax: 3 }, { who, now: 0 })).toThrow(
      expect.objectContaining({ decision: 'complete', kind: 'threw', detail: expect.stringMatching(/^threw TypeError: Cannot assign to read only property 'attempts'.* \(a decision must not change a record it is given: return a new one/) }),
    );
    // Unchanged: what the store holds is what admit wrote.
    expect(admitted.record.attempts).toBe(0);
  });
  it('reports each call to the watch', () => {
    const calls: string[] = [];
    const watched = guardRules(failClosed, 'fc', { enter: (d) => calls.push(`enter ${d}`), leave: () => calls.push('leave') });
    watched.classify('ok');
    expect(calls).toEqual(['enter 4', 'leave']);
  });
});

describe('preview', () => {
  it('is one short line whatever the value', () => {
    expect(preview(undefined)).toBe('undefined');
    expect(preview('a\u001b[2Jb')).toBe('"a\\u001b[2Jb"');
    expect(preview('x'.repeat(500)).length).toBe(80);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(preview(cyclic)).toBe('[object Object]');
    expect(preview(Promise.resolve(1))).toMatch(/Promise/);
  });
});

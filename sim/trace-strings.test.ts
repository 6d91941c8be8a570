/** Long strings in a trace line (trace-strings.ts): written in runs, read back exactly, within a budget. */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './core/canonical.ts';
import { LONG_STRING_CHARS, piecesOf, readBudget, readForm, WrittenFormError, writtenForm } from './trace-strings.ts';

const roundTrip = (v: unknown): unknown => readForm(JSON.parse(canonicalJson(writtenForm(v))), readBudget());

describe('long strings in a trace', () => {
  const large = `A${'x'.repeat(1_048_576)}`;
  const cases: Record<string, string> = {
    large,
    lowercased: large.toLowerCase(),
    'cut and marked': `${large.slice(0, 262_144)}?`,
    'base64-like': `B${'eHh4'.repeat(70_000)}`,
    astral: `C${'\u{1F4E6}'.repeat(5_000)}tail`,
    'no runs': Array.from({ length: 5_000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join(''),
  };
  for (const [name, s] of Object.entries(cases)) {
    it(`reads back exactly: ${name}`, () => {
      expect(roundTrip({ records: { a: { payload: s } }, list: [s, 'A'] })).toEqual({ records: { a: { payload: s } }, list: [s, 'A'] });
    });
  }

  it('writes a large body in a few dozen bytes', () => {
    expect(canonicalJson(writtenForm(large)).length).toBeLessThan(60);
    expect(piecesOf(large)).toEqual(['A', ['x', 1_048_576]]);
  });

  it('leaves a value without a long string as it is (a trace of short bodies is byte for byte what it was)', () => {
    const v = { a: 'x'.repeat(LONG_STRING_CHARS), b: [1, { c: 'A' }], d: null };
    expect(writtenForm(v)).toBe(v);
  });

  it('writes an object that looks written apart, so it reads back as the object', () => {
    const v = { odd: { $chars: ['A'] }, other: { $object: 1 } };
    expect(roundTrip(v)).toEqual(v);
  });

  it('refuses a string past the budget, and pieces that are not pieces', () => {
    expect(() => readForm({ $chars: [['x', 2 ** 40]] }, readBudget())).toThrow(WrittenFormError);
    expect(() => readForm({ $chars: [['x', 2 ** 20]] }, readBudget(2 ** 21, 2 ** 19))).toThrow(WrittenFormError);
    expect(() => readForm({ $chars: [5] }, readBudget())).toThrow(WrittenFormError);
    expect(() => readForm({ $chars: 'A' }, readBudget())).toThrow(WrittenFormError);
  });

  it('makes a string met on many lines once', () => {
    const budget = readBudget();
    const w = JSON.parse(canonicalJson(writtenForm(large))) as unknown;
    expect(readForm(w, budget)).toBe(readForm(JSON.parse(canonicalJson(writtenForm(large))) as unknown, budget));
    expect(budget.used).toBe(large.length);
  });
});

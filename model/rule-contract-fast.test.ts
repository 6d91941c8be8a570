/**
 * The cheap contract tests against the contract's schemas: over values near
 * the contract (each field right, wrong, or missing) they give the schema's
 * verdict exactly, and over any value at all they never accept one the
 * schema refuses. So a guarded rule set is held to the contract it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepsContract } from './rule-contract-fast.ts';
import { CONTRACT, CONTRACT_METADATA_ONLY, contractProblem } from './rule-contract.ts';
import { SHAPE_DEFAULT, type RecordShape } from './record.ts';
import { DECISIONS } from './rules.ts';
import { PARK_REASONS, STATUSES } from './types.ts';

const SHAPES: readonly RecordShape[] = [SHAPE_DEFAULT, { payload: 'optional' }];
const schemaOf = (shape: RecordShape) => (shape.payload === 'optional' ? CONTRACT_METADATA_ONLY : CONTRACT);

/** A value of a field: one that suits it, or one of a kind that breaks some field or other. */
const oddValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1.5, 0),
  fc.string({ maxLength: 3 }),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
);
const maybe = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: oddValue });
/** A field present with a value, or left out (`absent`). */
const ABSENT = Symbol('absent');
const field = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 6, arbitrary: maybe(good) }, { weight: 1, arbitrary: fc.constant(ABSENT) });
const withoutAbsent = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== ABSENT));

const number = fc.integer({ min: -2, max: 9 });
const record = fc
  .record({
    schema: field(number),
    status: field(fc.constantFrom(...STATUSES, 'SENT')),
    payload: field(fc.string({ maxLength: 2 })),
    digest: field(fc.string({ maxLength: 2 })),
    attempts: field(number),
    resendEpoch: field(number),
    reason: field(fc.constantFrom(...PARK_REASONS, 'bored')),
    extra: field(fc.anything()),
  })
  .map(withoutAbsent);
const file = fc.record({ id: field(fc.string({ maxLength: 2 })), body: field(fc.string({ maxLength: 2 })), generation: field(number) }).map(withoutAbsent);
const kind = fc.constantFrom('write', 'keep', 'quarantine', 'leave', 'archive', 'burn');
const tagged = fc.record({ kind: field(kind), record: field(record), file: field(file), cause: field(fc.string({ maxLength: 2 })) }).map(withoutAbsent);
const envelope = fc.record({ id: field(fc.string({ maxLength: 2 })), body: field(fc.string({ maxLength: 2 })), key: field(fc.string({ maxLength: 2 })) }).map(withoutAbsent);

/** Values near each decision's contract, and now and then one near another's or far from any. */
const NEAR: Record<(typeof DECISIONS)[number], fc.Arbitrary<unknown>> = {
  admit: tagged,
  mayClaim: maybe(fc.boolean()),
  selectable: maybe(fc.boolean()),
  fences: maybe(fc.boolean()),
  sweepable: maybe(fc.boolean()),
  preSend: fc.oneof(record, fc.constant(null)),
  envelope,
  classify: fc.constantFrom('confirmed', 'definite', 'transient', 'indeterminate', 'unclassified', 'ok'),
  complete: fc.oneof({ weight: 5, arbitrary: fc.array(record, { maxLength: 3 }) }, { weight: 1, arbitrary: record }),
  requeue: record,
  dispose: tagged,
  decode: maybe(fc.string({ maxLength: 2 })),
};
const anyNear = fc.oneof(...Object.values(NEAR), oddValue);
const nearContract = fc.constantFrom(...DECISIONS).chain((decision) => fc.tuple(fc.constant(decision), fc.oneof({ weight: 4, arbitrary: NEAR[decision] }, { weight: 1, arbitrary: anyNear })));

describe('the cheap contract tests (rule-contract-fast.ts)', () => {
  it('give the schema verdict exactly on values near the contract, for every decision and record shape', () => {
    let accepted = 0;
    fc.assert(
      fc.property(nearContract, fc.constantFrom(...SHAPES), ([decision, value], shape) => {
        const schema = schemaOf(shape)[decision].schema.safeParse(value).success;
        expect(keepsContract(decision, value, shape)).toBe(schema);
        if (schema) accepted++;
      }),
      { numRuns: 20_000, seed: 7 },
    );
    // Both verdicts are common, so the comparison is not of refusals alone.
    expect(accepted).toBeGreaterThan(4_000);
  });

  it('never accept a value the schema refuses, whatever the value', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, withSparseArray: true }), fc.constantFrom(...DECISIONS), fc.constantFrom(...SHAPES), (value, decision, shape) => {
        if (keepsContract(decision, value, shape)) expect(schemaOf(shape)[decision].schema.safeParse(value).success).toBe(true);
      }),
      { numRuns: 5_000, seed: 11 },
    );
  });

  it('leave a value whose field read throws to the schema, which judges it as before', () => {
    const value = {
      get kind(): string {
        throw new Error('boom');
      },
    };
    expect(keepsContract('admit', value, SHAPE_DEFAULT)).toBe(false);
    expect(() => contractProblem('admit', value)).toThrow();
  });
});

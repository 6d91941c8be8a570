/**
 * The fast path equals XState's own `transition()`: a differential
 * fast-check test, both on engine memories and events generated directly, and
 * on every engine step of generated seeded worlds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../model/catalog/index.ts';
import { LIFECYCLE_STATES, type EngineEvent } from '../../model/lifecycle.ts';
import { foundRead, freshRecord } from '../../model/record.ts';
import type { ClaimView, OutboxRecord, RecordRead, Reply, ResultFile } from '../../model/types.ts';
import { canonicalJson } from '../core/canonical.ts';
import { runSeed } from '../core/random.ts';
import { compiledStepper } from './compiled-stepper.ts';
import { outboxSystem } from './outbox-system.ts';
import { swarmOptions } from './options.ts';
import { xstateStepper, type EngineMemory, type Stepper } from './stepper.ts';

const body = fc.constantFrom('A', 'B');
const file: fc.Arbitrary<ResultFile> = fc.record({ id: fc.constant('a'), body, generation: fc.integer({ min: 1, max: 3 }) });
const record: fc.Arbitrary<OutboxRecord> = fc
  .record({
    body,
    status: fc.constantFrom('READY', 'QUEUED', 'DELIVERED', 'PARKED') as fc.Arbitrary<OutboxRecord['status']>,
    attempts: fc.integer({ min: 0, max: 4 }),
    epoch: fc.integer({ min: 0, max: 2 }),
    reason: fc.option(fc.constantFrom('permanent-refusal', 'max-attempts', 'retry-window-exhausted', 'outcome-unknown') as fc.Arbitrary<NonNullable<OutboxRecord['reason']>>, { nil: undefined }),
  })
  .map(({ body: b, status, attempts, epoch, reason }) => ({ ...freshRecord(b, epoch), status, attempts, ...(reason ? { reason } : {}) }));
const read: fc.Arbitrary<RecordRead> = fc.oneof(
  fc.constant({ kind: 'absent' } as const),
  fc.constant({ kind: 'corrupt' } as const),
  fc.constant({ kind: 'unknown-version', schema: 2 } as const),
  record.map((r) => foundRead(r)),
);
const claim: fc.Arbitrary<ClaimView> = fc.oneof(
  fc.constant({ kind: 'free' } as const),
  fc.constant({ kind: 'torn' } as const),
  fc.record({ kind: fc.constant('held' as const), mine: fc.boolean(), ownerAlive: fc.boolean() }),
);
const reply = fc.constantFrom<Reply>('ok', 'refused-400', 'conflict-409', 'unavailable-503', 'timeout', 'garbled-200');
const event: fc.Arbitrary<EngineEvent> = fc.oneof(
  fc.record({ type: fc.constant('SCAN' as const), file, read, claim }),
  fc.record({ type: fc.constant('DRAIN' as const), id: fc.constant('a'), read }),
  fc.record({ type: fc.constant('STEP' as const), read, claim, live: fc.option(file, { nil: null }) }),
  fc.record({ type: fc.constant('POST' as const), reply, claim }),
);
const memory: fc.Arbitrary<EngineMemory> = fc
  .record({
    state: fc.constantFrom(...LIFECYCLE_STATES),
    working: fc.boolean(),
    file: fc.option(file, { nil: null }),
    envelope: fc.option(fc.record({ id: fc.constant('a'), body, key: fc.constantFrom('a#0', 'a#1') }), { nil: null }),
    outcome: fc.option(fc.constantFrom('confirmed', 'definite', 'transient', 'indeterminate', 'unclassified') as fc.Arbitrary<'confirmed'>, { nil: null }),
    pending: fc.option(fc.array(record, { maxLength: 2 }), { nil: null }),
    attemptsMax: fc.integer({ min: 1, max: 5 }),
  })
  .map((m) => ({
    state: m.state,
    ctx: { pid: 3, attemptsMax: m.attemptsMax, id: m.working ? 'a' : null, file: m.file, envelope: m.envelope, outcome: m.outcome, pending: m.pending, effect: null },
  }));

describe.each(CATALOG.map((r) => [r.name, r] as const))('fast path equals XState transition() under %s', (_name, rules) => {
  const reference = xstateStepper(rules);
  const fast = compiledStepper(rules);
  it('on generated engine memories and events (seed 20261130)', () => {
    fc.assert(
      fc.property(memory, event, (m, e) => {
        expect(canonicalJson(fast(m, e))).toBe(canonicalJson(reference(m, e)));
      }),
      { seed: 20261130, numRuns: 3000 },
    );
  });
  it('on every engine step of generated seeded worlds (seed 7)', () => {
    let compared = 0;
    const both: Stepper = (m, e) => {
      const a = reference(m, e);
      const b = fast(m, e);
      compared++;
      expect(canonicalJson(b)).toBe(canonicalJson(a));
      return b;
    };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        runSeed(outboxSystem(swarmOptions(seed), { rules }, { new: both, old: both, oldQueued: both }), seed, { faultStepsMax: 120, healStepsMax: 400 });
      }),
      { seed: 7, numRuns: 60 },
    );
    expect(compared).toBeGreaterThan(1000);
  });
});

/**
 * The dispatches over the protocol's unions use ts-pattern's
 * `match(...).exhaustive()` (model/catalog/fail-closed.ts: reads, replies,
 * outcomes; model/broker.ts: broker modes; sim/outbox/events/engine-step.ts:
 * the statechart's effects; sim/receipts/receipts-system.ts: the receipts
 * world's event kinds), so a member added to a union without a handler is a
 * type error there. Each match below leaves one member out, as a new
 * reply, outcome, mode, effect or event kind would be left out: the
 * `@ts-expect-error` says `npm test`'s type-check (tsc) rejects it, and would
 * itself fail the type-check the day such a match compiled. At run time the
 * member left out throws instead of falling through.
 */
import { match, P } from 'ts-pattern';
import { describe, expect, it } from 'vitest';
import { brokerAccept } from '../model/broker.ts';
import failClosed from '../model/catalog/fail-closed.ts';
import { foundRead } from '../model/record.ts';
import type { BrokerMode, Effect, Outcome, RecordRead, Reply } from '../model/types.ts';
import type { ReceiptsEvent } from './receipts/world.ts';

function classifyWithoutGarbled(reply: Reply): Outcome {
  return (
    match(reply)
      .returnType<Outcome>()
      .with('ok', () => 'confirmed')
      .with('refused-400', 'conflict-409', () => 'definite')
      .with('unavailable-503', () => 'transient')
      .with('timeout', () => 'indeterminate')
      // @ts-expect-error: 'garbled-200' has no outcome
      .exhaustive()
  );
}

function completeWithoutUnclassified(outcome: Outcome): string {
  return (
    match(outcome)
      .with('confirmed', () => 'DELIVERED')
      .with('definite', () => 'PARKED')
      .with('transient', 'indeterminate', () => 'READY')
      // @ts-expect-error: 'unclassified' is not completed
      .exhaustive()
  );
}

function admitWithoutParked(read: RecordRead): string {
  return (
    match(read)
      .with({ kind: P.union('absent', 'corrupt', 'unknown-version') }, () => 'decided')
      .with({ kind: 'found', record: { status: P.union('READY', 'DELIVERED') } }, () => 'decided')
      // @ts-expect-error: a PARKED record is not admitted or refused
      .exhaustive()
  );
}

function acceptWithoutLog(mode: BrokerMode): boolean {
  return (
    match(mode)
      .with('id-ok', 'id-409', () => false)
      .with('key', 'none', () => true)
      // @ts-expect-error: the 'log' mode has no answer to a second POST
      .exhaustive()
  );
}

function applyWithoutQuarantine(fx: Effect): string {
  return (
    match(fx)
      .with({ kind: P.union('write-record', 'take-claim', 'release-claim', 'post', 'archive') }, (f) => f.kind)
      // @ts-expect-error: a quarantine effect is not applied
      .exhaustive()
  );
}

function stepWithoutNewKey(e: ReceiptsEvent): string {
  return (
    match(e)
      .with({ kind: P.union('handle', 'step-call', 'finish-execution', 'damage', 'torn-append', 'unknown-version', 'reader-throws', 'revision-change', 'new-process', 'cancel') }, (x) => x.kind)
      // @ts-expect-error: the operator's new-key event is not stepped
      .exhaustive()
  );
}

describe('exhaustive dispatch', () => {
  it('an incomplete match handles what it lists and throws on what it left out', () => {
    expect(classifyWithoutGarbled('timeout')).toBe('indeterminate');
    expect(() => classifyWithoutGarbled('garbled-200')).toThrow(/Pattern matching error/);
    expect(() => completeWithoutUnclassified('unclassified')).toThrow(/Pattern matching error/);
    expect(() => admitWithoutParked(foundRead({ ...failClosedRecord(), status: 'PARKED' }))).toThrow(/Pattern matching error/);
    expect(acceptWithoutLog('key')).toBe(true);
    expect(() => acceptWithoutLog('log')).toThrow(/Pattern matching error/);
    expect(() => applyWithoutQuarantine({ kind: 'quarantine', file: { id: 'a', body: 'A', generation: 1 }, cause: 'x' })).toThrow(/Pattern matching error/);
    expect(() => stepWithoutNewKey({ kind: 'new-key' })).toThrow(/Pattern matching error/);
  });

  it('the complete matches decide every member', () => {
    const replies: Reply[] = ['ok', 'refused-400', 'conflict-409', 'ok-false', 'unavailable-503', 'timeout', 'garbled-200'];
    expect(replies.map((r) => failClosed.classify(r))).toEqual(['confirmed', 'definite', 'definite', 'definite', 'transient', 'indeterminate', 'unclassified']);
    const modes: BrokerMode[] = ['id-ok', 'id-409', 'key', 'none', 'log'];
    const held = { body: 'A', key: 'k1' };
    expect(modes.map((m) => brokerAccept(m, held, { id: 'a', body: 'B', key: 'k2' } as Parameters<typeof brokerAccept>[2]).stored)).toEqual([false, false, true, true, true]);
  });
});

function failClosedRecord() {
  const read = failClosed.admit({ body: 'A', read: { kind: 'absent' } } as Parameters<typeof failClosed.admit>[0]);
  if (read.kind !== 'write') throw new Error('fail-closed writes a fresh record for an absent one');
  return read.record;
}

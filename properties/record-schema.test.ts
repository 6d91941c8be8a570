/**
 * A rule set declares its record schema (issue 19 item 1) and the world
 * damages declared fields (issue 20 item 1, field-corrupt): reading tells
 * absent from zero, legacy-record and an old engine's rewrite act on
 * declared fields, bounded-record checks the bounds a rule set states, and
 * the tool finds the flaw each makes expressible (the test rule sets in
 * `rule-api/`), while fail-closed stays clean.
 */
import { describe, expect, it } from 'vitest';
import failClosed from '../model/catalog/fail-closed.ts';
import { foundRead, freshRecord, readSlot } from '../model/record.ts';
import { extendRules, ruleSetProblem, type RuleSet } from '../model/rules.ts';
import { asWritten, SCHEMA_DEFAULT } from '../model/schema.ts';
import type { OutboxRecord } from '../model/types.ts';
import { steppersFor } from '../sim/check.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../sim/outbox/explore-options.ts';
import { exploreOutbox } from '../sim/outbox/explore-outbox.ts';
import { fieldCorrupt } from '../sim/outbox/events/field-corrupt.ts';
import { EVENT_KINDS } from '../sim/outbox/events/table.ts';
import { outboxSystem } from '../sim/outbox/outbox-system.ts';
import { boundedRecord, boundedRecordOf } from '../sim/outbox/properties.ts';
import { labelOf, type World } from '../sim/outbox/world.ts';
import flagsTrustDefaults from './rule-api/flags-trust-defaults.ts';
import flagsOldDrops from './rule-api/flags-old-drops.ts';
import flagsOldKeeps from './rule-api/flags-old-keeps.ts';
import parkHistoryCapped from './rule-api/park-history-capped.ts';
import parkHistoryOverCap from './rule-api/park-history-over-cap.ts';

/** `outbox-sim explore` with the eventually properties; `faults`: the only faults switched on (default: all). */
function search(rules: RuleSet, oldRules: RuleSet | null, sizes: Partial<ExploreSizes>, faults: readonly string[] | null = null) {
  const options = exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes });
  const faultKinds = EVENT_KINDS.filter((k) => k.group === 'fault').map((k) => k.name);
  const only = faults === null ? options : { ...options, weights: { ...options.weights, ...Object.fromEntries(faultKinds.map((f) => [f, faults.includes(f) ? 1 : 0])) } };
  const r = exploreOutbox(only, oldRules === null ? { rules } : { rules, oldRules }, steppersFor(rules, oldRules), { statesMax: 1_000_000, liveness: true, stopAtFirst: true });
  return { ...r, found: r.violations.map((v) => v.violation.property), path: r.violations[0]?.events.map(labelOf) ?? [] };
}

/** The smallest world where a lost flag matters: one engine (restarted after a crash), one body. */
const SMALL: Partial<ExploreSizes> = { engines: 1, bodiesPerId: 1, corruptionsMax: 1 };

const slotOf = (record: Record<string, unknown>) => ({ kind: 'record', record: record as OutboxRecord }) as const;

describe('reading tells absent from zero (readSlot, stored)', () => {
  const fresh = freshRecord('A', 0);
  it('a record missing a declared counter: the default in `record`, the raw record and the field named in `stored`', () => {
    const { attempts: _a, ...raw } = { ...fresh, attempts: 3 };
    const read = readSlot(slotOf(raw), 1);
    expect(read.kind === 'found' ? [read.record.attempts, read.legacy, read.stored.raw, read.stored.missing, read.stored.illTyped] : null).toEqual([0, true, raw, ['attempts'], []]);
  });
  it('a counter of another type (a string for a number, a boolean for a count) is named ill-typed, not read as its value', () => {
    for (const attempts of ['2', true]) {
      const read = readSlot(slotOf({ ...fresh, attempts }), 1);
      expect(read.kind === 'found' ? [read.record.attempts, read.stored.illTyped, read.stored.missing] : null).toEqual([0, ['attempts'], []]);
    }
  });
  it("a rule set's declared fields are checked too; a rule set without a declaration checks only the base fields", () => {
    const flagless = readSlot(slotOf(fresh), 1, undefined, failClosed.recordSchema);
    expect(flagless.kind === 'found' ? [flagless.stored.missing, flagless.record.unknownSeen] : null).toEqual([['inFlight', 'unknownSeen'], false]);
    const byDefault = readSlot(slotOf(fresh), 1);
    expect(byDefault.kind === 'found' ? [byDefault.stored.missing, byDefault.record] : null).toEqual([[], fresh]);
  });
  it('a record schema that is not one is refused when a rule file is loaded', () => {
    const bad = (recordSchema: unknown) => ruleSetProblem({ ...failClosed, recordSchema });
    expect(bad({ version: 1, fields: { n: { type: 'number', since: 1, default: 'zero' } } })).toMatch(/default that is not a number/);
    expect(bad({ version: 1, fields: {}, unknownFields: 'maybe' })).toMatch(/unknownFields/);
    expect(bad({ version: 1, fields: { status: { type: 'string', since: 1, default: '' } } })).toMatch(/structural field `status`/);
    expect(bad(parkHistoryCapped.recordSchema)).toBeNull();
  });
});

describe('field-corrupt: one declared field stored missing, of the wrong type, or torn back', () => {
  const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, corruptionsMax: 1 }), { rules: failClosed });
  const ctx = { options: exploreOptions({ ...EXPLORE_DEFAULTS, corruptionsMax: 1 }), ids: ['a'], skew: false, worldRules: { rules: failClosed }, steppers: steppersFor(failClosed, null) };
  const withRecord = (record: Record<string, unknown>): World => ({ ...system.initial(), records: { a: slotOf(record) } });
  it('offers each declared field the record holds, and only within the corruption budget', () => {
    const w = withRecord({ ...freshRecord('A', 1), attempts: 2, inFlight: true, unknownSeen: false });
    const labels = fieldCorrupt.enabled(w, ctx, { engine: null, id: 'a' }).map(labelOf);
    expect(labels).toEqual([
      'field-corrupt a digest missing', 'field-corrupt a digest wrong-type',
      'field-corrupt a attempts missing', 'field-corrupt a attempts wrong-type', 'field-corrupt a attempts earlier',
      'field-corrupt a resendEpoch missing', 'field-corrupt a resendEpoch wrong-type', 'field-corrupt a resendEpoch earlier',
      'field-corrupt a inFlight missing', 'field-corrupt a inFlight wrong-type',
      'field-corrupt a unknownSeen missing', 'field-corrupt a unknownSeen wrong-type',
    ]);
    expect(fieldCorrupt.enabled({ ...w, corruptions: 1 }, ctx, { engine: null, id: 'a' })).toEqual([]);
    expect(fieldCorrupt.knob?.weight(exploreOptions(EXPLORE_DEFAULTS))).toBe(0);
  });
  it('a count of 0 or 1 becomes a boolean, a larger one a string, a flag a number; earlier is one lower', () => {
    const damage = (record: Record<string, unknown>, field: string, how: 'missing' | 'wrong-type' | 'earlier') => {
      const tags: string[] = [];
      const w = fieldCorrupt.apply(withRecord(record), { kind: 'field-corrupt', id: 'a', field, how }, ctx, tags);
      const slot = w.records.a;
      return [slot?.kind === 'record' ? slot.record[field] : 'torn', w.corruptions, tags];
    };
    const r = { ...freshRecord('A', 0), attempts: 1, inFlight: true, unknownSeen: true };
    expect(damage(r, 'attempts', 'wrong-type')).toEqual([true, 1, ['fault:field-corrupt', 'field-corrupt:wrong-type']]);
    expect(damage({ ...r, attempts: 3 }, 'attempts', 'wrong-type')[0]).toBe('3');
    expect(damage(r, 'unknownSeen', 'wrong-type')[0]).toBe(1);
    expect(damage({ ...r, attempts: 3 }, 'attempts', 'earlier')[0]).toBe(2);
    expect(damage(r, 'unknownSeen', 'missing')[0]).toBeUndefined();
  });
});

describe('a rule that trusts a declared field without checking it was stored is caught', () => {
  it('under field-corrupt: a lost unknownSeen reads false, and a refusal parks permanent-refusal over the stored body (honest-park)', () => {
    const r = search(flagsTrustDefaults, null, SMALL, ['crash', 'field-corrupt']);
    expect(r.found).toEqual(['honest-park']);
    expect(r.path.some((l) => l.startsWith('field-corrupt a '))).toBe(true);
  });
  it('under legacy-record, which drops the declared fields introduced after the legacy schema (the flags too)', () => {
    const r = search(flagsTrustDefaults, null, SMALL, ['crash', 'legacy-record']);
    expect(r.found).toEqual(['honest-park']);
    expect(r.path).toContain('legacy-record a');
  });
  it('fail-closed, which takes a flag it cannot trust as set, is clean in both worlds, and with two field corruptions', () => {
    for (const faults of [['crash', 'field-corrupt'], ['crash', 'legacy-record']]) {
      const r = search(failClosed, null, SMALL, faults);
      expect([r.complete, r.found]).toEqual([true, []]);
    }
    // Two corruptions dropping both flags after a POST cut by a crash: a record written without its flags would look fresh.
    const two = search(failClosed, null, { ...SMALL, corruptionsMax: 2 }, ['crash', 'field-corrupt']);
    expect([two.complete, two.found]).toEqual([true, []]);
  }, 60_000);
});

describe('an engine keeps or drops fields it does not know, as its rule set declares (unknownFields)', () => {
  it('a record written by a schema that drops unknown fields keeps only the structural and declared ones', () => {
    const record = { ...freshRecord('A', 0), inFlight: true, unknownSeen: true, takenBy: 'x' };
    expect(asWritten(SCHEMA_DEFAULT, record)).toBe(record);
    expect(Object.keys(asWritten(flagsOldDrops.recordSchema ?? SCHEMA_DEFAULT, record)).sort()).toEqual(['attempts', 'digest', 'inFlight', 'payload', 'resendEpoch', 'schema', 'status']);
  });
  it('an old engine that drops the newer unknownSeen as it rewrites records is caught under --old-rules (honest-park); keeping it is clean', () => {
    const drops = search(failClosed, flagsOldDrops, { skew: true, bodiesPerId: 1 });
    expect(drops.found).toEqual(['honest-park']);
    const keeps = search(failClosed, flagsOldKeeps, { skew: true, bodiesPerId: 1 });
    expect([keeps.complete, keeps.found]).toEqual([true, []]);
  }, 60_000);
});

describe('bounded-record checks the bounds a rule set states', () => {
  const record = { ...freshRecord('A', 0), note: 'x'.repeat(150) };
  const world = (r: Record<string, unknown>) => ({ records: { a: slotOf(r) } }) as unknown as World;
  it('the declared metadata bound, default 256 bytes', () => {
    expect(boundedRecord.check(world(record))).toBeNull();
    expect(boundedRecordOf({ ...SCHEMA_DEFAULT, metadataBytesMax: 128 }).check(world(record))?.detail).toMatch(/bytes \(bound 128\)/);
  });
  it('a history capped at K entries: the stated cap is checked, however small the entries', () => {
    const over = search(parkHistoryOverCap, null, { engines: 1, bodiesPerId: 1, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 2 });
    expect(over.found).toEqual(['bounded-record']);
    expect(over.violations[0].violation.detail).toMatch(/keeps 3 entries in parks \(its rule set caps it at 2\)/);
    const capped = search(parkHistoryCapped, null, { engines: 1, bodiesPerId: 1, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 2 });
    expect([capped.complete, capped.found]).toEqual([true, []]);
  });
  it('a found read built by hand names nothing missing', () => {
    expect(foundRead(freshRecord('A', 0)).stored).toEqual({ raw: freshRecord('A', 0), missing: [], illTyped: [] });
  });
});

describe('existing rule sets keep working: a rule set without a declaration gets the default schema', () => {
  it('a rule set spread from fail-closed without its declaration reads only the base fields and searches the default world as before', () => {
    const { recordSchema: _declared, ...rest } = failClosed;
    const undeclared: RuleSet = extendRules(rest as RuleSet, { name: 'undeclared', summary: 'fail-closed without its schema declaration' });
    const r = search(undeclared, null, {});
    expect([r.complete, r.found, r.states, r.transitions]).toEqual([true, [], 17611, 48482]);
  });
});

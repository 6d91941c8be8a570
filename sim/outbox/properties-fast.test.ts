/**
 * The properties' fast checks (properties.ts: a scan without sorting or
 * allocating, the violation found in sorted order only when there is one;
 * bounded-record measuring only the records a step replaced, without
 * building their JSON) against the plain checks they replace, written out
 * here as they were: the same verdict, the same violation, on every state of
 * recorded runs of every catalog rule set and on worlds made to violate at
 * several ids at once.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG, failClosed, freshCycle } from '../../model/catalog/index.ts';
import { metadataBytes } from '../../model/record.ts';
import { declaredFields, digestOf, SCHEMA_DEFAULT, schemaOf, type RecordSchema } from '../../model/schema.ts';
import type { OutboxRecord } from '../../model/types.ts';
import { BOUNDS_DEFAULT, fixedOptions, seedBounds, steppersFor, type CheckPlan } from '../check.ts';
import { runSeed } from '../core/random.ts';
import type { Property, Violation } from '../core/system.ts';
import { recordMetadataBytes } from './metadata-bytes.ts';
import { outboxSystem } from './outbox-system.ts';
import { boundedRecordOf, heldText, honestPark, noPhantomDelivery, NOT_DELIVERED_REASONS, outboxProperties } from './properties.ts';
import { swarmOptions } from './options.ts';
import type { World } from './world.ts';
import { bodyText } from '../body-text.ts';
import { idText } from './id-shape.ts';

// A violation names its body and its ids as every report prints them (sim/body-text.ts, id-shape.ts).
const v = (property: string, subject: string, body: string, layer: string, detail: string): Violation => ({ property, subject, body: bodyText(body), layer, detail });

/** The checks as they were before the fast ones: every id in sorted order, every record measured by `metadataBytes`. */
const plain = {
  phantom(w: World): Violation | null {
    for (const id of Object.keys(w.records).sort()) {
      const slot = w.records[id];
      if (slot.kind !== 'record' || slot.record.status !== 'DELIVERED' || typeof slot.record.payload !== 'string') continue;
      const held = w.broker[id]?.body;
      // A damaged payload whose digest names the body held is no phantom (alter-payload).
      if (held !== slot.record.payload && !(held !== undefined && slot.record.digest === digestOf(held))) return v('no-phantom-delivery', id, slot.record.payload, 'record', `record ${idText(id)} says DELIVERED ${bodyText(slot.record.payload)} but the broker holds ${heldText(w, id, slot.record.payload)}`);
    }
    for (const id of Object.keys(w.reported).sort()) {
      const held = w.broker[id]?.body;
      if (held !== w.reported[id]) return v('no-phantom-delivery', id, w.reported[id], 'archive', `file ${idText(id)}=${bodyText(w.reported[id])} was archived as delivered but the broker holds ${heldText(w, id, w.reported[id])}`);
    }
    return null;
  },
  honest(w: World): Violation | null {
    for (const id of Object.keys(w.records).sort()) {
      const slot = w.records[id];
      if (slot.kind !== 'record' || slot.record.status !== 'PARKED') continue;
      const reason = slot.record.reason;
      if (reason === undefined || !NOT_DELIVERED_REASONS.includes(reason)) continue;
      if (w.broker[id]?.body === slot.record.payload) return v('honest-park', id, slot.record.payload, 'record', `record ${idText(id)} is PARKED ${reason} for ${bodyText(slot.record.payload)} but the broker holds ${bodyText(slot.record.payload)}`);
    }
    return null;
  },
  bounded(schema: RecordSchema, w: World): Violation | null {
    const max = schema.metadataBytesMax ?? 256;
    const caps = declaredFields(schema).flatMap(([name, d]) => (d.type === 'array' && d.maxEntries !== undefined ? [[name, d.maxEntries] as const] : []));
    for (const id of Object.keys(w.records).sort()) {
      const slot = w.records[id];
      if (slot.kind !== 'record') continue;
      const bytes = metadataBytes(slot.record);
      if (bytes > max) return v('bounded-record', id, slot.record.payload ?? '', 'record', `record ${idText(id)} metadata is ${bytes} bytes (bound ${max})`);
      for (const [name, cap] of caps) {
        const history = slot.record[name];
        if (Array.isArray(history) && history.length > cap) return v('bounded-record', id, slot.record.payload ?? '', 'record', `record ${idText(id)} keeps ${history.length} entries in ${name} (its rule set caps it at ${cap})`);
      }
    }
    return null;
  },
};

/** Every state of the first `seeds` recorded runs of a rule set's swarm. */
function statesOf(p: CheckPlan, seeds: number): World[] {
  const steppers = steppersFor(p.rules, p.oldRules);
  const out: World[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const options = swarmOptions(seed, fixedOptions(p));
    const system = outboxSystem(options, { rules: p.rules, ...(p.oldRules ? { oldRules: p.oldRules } : {}) }, steppers);
    out.push(...(runSeed(system, seed, seedBounds(p.bounds, options), true).states ?? []));
  }
  return out;
}

const plan = (rules: CheckPlan['rules'], extra: Partial<CheckPlan> = {}): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT, ...extra });

/** A world's broker emptied: every DELIVERED record and archived file is then a phantom, at several ids at once. */
const brokerless = (w: World): World => ({ ...w, broker: {} });
/** A world where the broker holds every record's body: every PARKED-not-delivered record is then dishonest. */
const brokerHoldsAll = (w: World): World => {
  const broker: World['broker'] = { ...w.broker };
  for (const [id, slot] of Object.entries(w.records)) if (slot.kind === 'record') broker[id] = { body: slot.record.payload, key: 'k' } as World['broker'][string];
  return { ...w, broker };
};

describe('the fast property checks', () => {
  const worlds: World[] = [];
  for (const rules of CATALOG) worlds.push(...statesOf(plan(rules), 40));
  worlds.push(...statesOf(plan(failClosed, { settings: { lateLanding: 2, retention: 2 }, oldRules: freshCycle }), 40));

  it('give the plain checks verdicts and violations on every state of recorded runs, and on worlds violating at several ids', () => {
    let violated = 0;
    for (const w of worlds) {
      for (const x of [w, brokerless(w), brokerHoldsAll(w)]) {
        const phantom = plain.phantom(x);
        const honest = plain.honest(x);
        expect(noPhantomDelivery.check(x)).toEqual(phantom);
        expect(honestPark.check(x)).toEqual(honest);
        if (phantom !== null || honest !== null) violated++;
      }
    }
    expect(violated).toBeGreaterThan(1000);
  });

  it('bounded-record gives the plain verdict whatever worlds it was asked about before (its cache keeps no verdict of another world)', () => {
    const schemas: RecordSchema[] = [SCHEMA_DEFAULT, schemaOf(failClosed), { ...schemaOf(failClosed), metadataBytesMax: 70 }, { version: 1, fields: {}, metadataBytesMax: 60 }];
    let violated = 0;
    for (const schema of schemas) {
      const bounded = boundedRecordOf(schema);
      // In run order, then in an order that mixes runs (each state after the state of another run).
      const mixed = worlds.map((_, i) => worlds[(i * 7919) % worlds.length]);
      for (const w of [...worlds, ...mixed]) {
        const expected = plain.bounded(schema, w);
        expect(bounded.check(w)).toEqual(expected);
        if (expected !== null) violated++;
      }
    }
    expect(violated).toBeGreaterThan(100);
  });

  it('bounded-record counts a capped history as the plain check does', () => {
    const schema: RecordSchema = { version: 1, fields: { seen: { type: 'array', since: 1, default: [], maxEntries: 2 } } };
    const record = (seen: string[]): World['records'][string] => ({ kind: 'record', record: { schema: 1, status: 'READY', payload: 'A', digest: 'd', attempts: 0, resendEpoch: 0, seen } as unknown as OutboxRecord });
    const base = worlds[0];
    const ok = { ...base, records: { a: record(['x']), b: record(['x', 'y']) } };
    const over = { ...ok, records: { ...ok.records, b: record(['x', 'y', 'z']) } };
    const bounded = boundedRecordOf(schema);
    for (const w of [ok, over, ok, over]) expect(bounded.check(w)).toEqual(plain.bounded(schema, w));
    expect(bounded.check(over)?.subject).toBe('b');
  });

  it('are the same property objects for every system of one rule set (a run prepares them once), each caller with its own list', () => {
    const a = outboxProperties(false, schemaOf(failClosed));
    const b = outboxProperties(false, schemaOf(failClosed));
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
    a.forEach((p: Property<World>, i) => expect(p).toBe(b[i]));
    expect(outboxProperties(true, schemaOf(failClosed)).map((p) => p.name)).toContain('at-most-once');
  });
});

describe("a record's metadata size, measured without its JSON", () => {
  it('is metadataBytes for records of recorded runs and for values JSON writes its own way', () => {
    const records: OutboxRecord[] = [];
    for (const w of worlds()) for (const slot of Object.values(w.records)) if (slot.kind === 'record') records.push(slot.record);
    const base = { schema: 1, status: 'READY', payload: 'A', digest: 'd', attempts: 0, resendEpoch: 0 };
    const odd: Record<string, unknown>[] = [
      { ...base, note: 'quote " and backslash \\' },
      { ...base, note: 'tab\tnewline\n' },
      { ...base, note: 'café ☃ 😀' },
      { ...base, 'k"ey': 1 },
      { ...base, n: -0, m: NaN, i: Infinity, e: 1e21, f: 0.1 + 0.2, neg: -12.5 },
      { ...base, gone: undefined, fn: () => 1, sym: Symbol('s') },
      { ...base, list: [1, 'two', null, undefined, true, [3, [4]], { a: 1, b: undefined }] },
      { ...base, nested: { a: { b: { c: ['x'] } } } },
      { ...base, when: new Date(0) },
      { ...base, withToJSON: { toJSON: () => 'short' } },
      // eslint-disable-next-line no-sparse-arrays -- a hole, which JSON writes null
      { ...base, sparse: [1, , 3] },
      { ...base, empty: {}, none: [] },
      { ...base, payload: undefined },
      { schema: 1, status: 'READY', payload: 'A' },
    ];
    for (const r of [...records, ...(odd as unknown as OutboxRecord[])]) expect(recordMetadataBytes(r)).toBe(metadataBytes(r));
    expect(records.length).toBeGreaterThan(500);
  });
});

function worlds(): World[] {
  return [...statesOf(plan(failClosed), 30), ...statesOf(plan(freshCycle, { settings: { retention: 2 } }), 30)];
}

/**
 * `newer-schema` rewrites a record as the schema after the newest one the
 * world's rule sets know (events/faults.ts). It wrote schema 2 on records of
 * schema 1 or less, so a rule set writing schema 2 never met a newer record:
 * the fault never fired for it, and its verdict said nothing of a newer
 * version's records.
 */
import { describe, expect, it } from 'vitest';
import failClosed, { FAIL_CLOSED_SCHEMA } from '../../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import type { OutboxRecord } from '../../../model/types.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { outboxSystem, type WorldRules } from '../outbox-system.ts';
import { packedOutbox } from '../packed/system.ts';
import { walkLabelled, walkPackedLabelled } from '../test-labels.ts';
import { labelOf, type World } from '../world.ts';

const v2 = (r: OutboxRecord): OutboxRecord => (r.schema === 2 ? r : { ...r, schema: 2 });
/** fail-closed writing schema-2 records. */
const schemaTwo: RuleSet = extendRules(failClosed, {
  name: 'schema-two',
  summary: 'fail-closed writing schema-2 records',
  schemaKnown: 2,
  recordSchema: { ...FAIL_CLOSED_SCHEMA, version: 2 },
  admit: (view) => {
    const a = failClosed.admit(view);
    return a.kind === 'write' ? { kind: 'write', record: v2(a.record) } : a;
  },
  preSend: (record, view) => {
    const w = failClosed.preSend(record, view);
    return w === null ? null : v2(w);
  },
  complete: (record, outcome, limits, view) => failClosed.complete(record, outcome, limits, view).map(v2),
});

const SIZES = { ...EXPLORE_DEFAULTS, bodiesPerId: 1, crashesMax: 0, corruptionsMax: 1 };

/** The world after `labels` and the schema of `a`'s record then. */
function after(worldRules: WorldRules, labels: string[], skew = false): { w: World; schema: number | undefined } {
  const system = outboxSystem(exploreOptions({ ...SIZES, skew }), worldRules, steppersFor(worldRules.rules, worldRules.oldRules ?? null));
  const w = walkLabelled(system, labels);
  const slot = w.records.a;
  return { w, schema: slot?.kind === 'record' ? slot.record.schema : undefined };
}

describe('newer-schema writes the schema after the newest the world knows', () => {
  it.each([
    ['fail-closed (schema 1)', 1, 2, { rules: failClosed }],
    ['a rule set of schema 2', 2, 3, { rules: schemaTwo }],
    ['schema 2 beside fail-closed (version skew)', 2, 3, { rules: schemaTwo, oldRules: failClosed }],
  ] as [string, number, number, WorldRules][])('%s: a record of schema %i becomes schema %i', (_name, written, newer, worldRules) => {
    const skew = worldRules.oldRules !== undefined;
    // Under skew, e1 runs the old version: e2 scans with the checked one.
    const scan = skew ? 'e2 scan a' : 'e1 scan a';
    expect(after(worldRules, ['produce a', scan], skew).schema).toBe(written);
    const { schema, w } = after(worldRules, ['produce a', scan, 'newer-schema a'], skew);
    expect(schema).toBe(newer);
    expect(w.corruptions).toBe(1);
  });

  it('the packed explorer lists it for a rule set of schema 2 too, as the object system does', () => {
    const options = exploreOptions(SIZES);
    const worldRules = { rules: schemaTwo };
    const system = outboxSystem(options, worldRules, steppersFor(schemaTwo, null));
    const packed = packedOutbox(options, worldRules, system, { verify: true });
    const s = walkPackedLabelled(packed, ['produce a', 'e1 scan a']);
    expect(packed.events(s).map(labelOf)).toContain('newer-schema a');
  });
});

/**
 * A broker deduping by key remembers keys across ids (events/broker-keys.ts,
 * model/broker.ts): a POST under a key it holds another id's body under is
 * dropped and answered success, unless it forgot that id; fail-closed's keys
 * (`<id>#<epoch>`) never meet, a key without the id loses a body, and so
 * does a key built from the body where two ids carry the same one.
 */
import { describe, expect, it } from 'vitest';
import { brokerAccept } from '../../../model/broker.ts';
import { failClosed } from '../../../model/catalog/index.ts';
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { exploreOutbox } from '../explore-outbox.ts';
import type { World } from '../world.ts';
import keyFromBody from '../../../properties/rule-api/key-from-body.ts';
import { keyKnownElsewhere } from './broker-keys.ts';

const broker = { a: { body: 'A', key: 'k' } };

describe('keys a broker deduping by key knows', () => {
  it("are the keys of other ids' holdings it remembers, under mode key only", () => {
    const w = { broker } as unknown as World;
    expect(keyKnownElsewhere('key', w, 'b', 'k')).toBe(true);
    expect(keyKnownElsewhere('key', w, 'a', 'k')).toBe(false);
    expect(keyKnownElsewhere('key', w, 'b', 'other')).toBe(false);
    expect(keyKnownElsewhere('id-ok', w, 'b', 'k')).toBe(false);
    // Under a dedupe window, an id the broker forgot is not known by its key either.
    expect(keyKnownElsewhere('key', { broker, dedupe: { a: 1 } } as unknown as World, 'b', 'k')).toBe(true);
    expect(keyKnownElsewhere('key', { broker, dedupe: {} } as unknown as World, 'b', 'k')).toBe(false);
  });

  it('make the broker drop the POST and answer success, whatever it holds for the id', () => {
    expect(brokerAccept('key', null, { id: 'b', body: 'D', key: 'k' }, true)).toEqual({ holding: null, stored: false, reply: 'ok' });
    expect(brokerAccept('key', null, { id: 'b', body: 'D', key: 'k' })).toEqual({ holding: { body: 'D', key: 'k' }, stored: true, reply: 'ok' });
    // Other modes dedupe by id: the key means nothing to them.
    expect(brokerAccept('none', null, { id: 'b', body: 'D', key: 'k' }, true).stored).toBe(true);
  });
});

describe('the search, two ids under a broker deduping by key', () => {
  // Verified: every event list, step and verdict of the packed search also computed on the object system and compared
  // (a broker step reads other ids' holdings, which the packed transitions must key).
  const search = (rules: RuleSet) =>
    exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ids: 2, bodiesPerId: 1, engines: 1, broker: 'key' }), { rules }, steppersFor(rules, null), { statesMax: 200_000 }, { verify: true });

  it('finds a key without the id in it: the second id is reported delivered and the broker dropped its body', () => {
    const keyWithoutId = extendRules(failClosed, { name: 'key-without-id', summary: 'the key is the resend epoch alone', envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `epoch-${record.resendEpoch}` }) });
    const r = search(keyWithoutId);
    expect(r.violations.map((v) => v.violation.property)).toEqual(['no-phantom-delivery']);
  });

  it('finds a key built from the body where two ids carry the same body (a world of --same-bodies), not where each id has its own', () => {
    const sameBodies = (rules: RuleSet, same: boolean) =>
      exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', ...(same ? { sameBodies: true } : {}) }), { rules }, steppersFor(rules, null), { statesMax: 200_000 }, { verify: true });
    expect(sameBodies(keyFromBody, true).violations.map((v) => v.violation.property)).toEqual(['no-phantom-delivery']);
    expect(sameBodies(keyFromBody, false).violations).toEqual([]);
    expect(sameBodies(failClosed, true).violations).toEqual([]);
  });

  it('finds a key that cuts the id to 8 characters where ids are named alike (a world of --long-ids), not on ids a and b', () => {
    const keyCutId = extendRules(failClosed, { name: 'key-cut-id', summary: 'the key names the first 8 characters of the id', envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${id.slice(0, 8)}#${record.resendEpoch}` }) });
    const alike = (rules: RuleSet, long: boolean) =>
      exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', ...(long ? { longIds: true } : {}) }), { rules }, steppersFor(rules, null), { statesMax: 200_000 }, { verify: true });
    // Its last characters too: the ids differ in one character in the middle.
    const keyIdTail = extendRules(failClosed, { name: 'key-id-tail', summary: 'the key names the last 8 characters of the id', envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${id.slice(-8)}#${record.resendEpoch}` }) });
    expect(alike(keyIdTail, true).violations.map((v) => v.violation.property)).toEqual(['no-phantom-delivery']);
    const found = alike(keyCutId, true);
    expect(found.violations.map((v) => v.violation.property)).toEqual(['no-phantom-delivery']);
    expect(found.violations[0].violation.subject).toBe('eu-west-1.tenant-43.order-000017');
    expect(alike(keyCutId, false).violations).toEqual([]);
    // The names change nothing else: fail-closed's space is the same size.
    expect(alike(failClosed, true).violations).toEqual([]);
    expect(alike(failClosed, true).states).toBe(alike(failClosed, false).states);
  });

  it('holds for fail-closed, whose keys name the id', () => {
    const r = search(failClosed);
    expect([r.complete, r.violations]).toEqual([true, []]);
  });
});

/**
 * Where a rule set's decisions read a body's size or characters
 * (body-probe.ts): its decisions, as asked in real runs, asked again with
 * every body given a shape. A size limit becomes a shape one seed in four
 * takes and a small world searches with both versions; a flaw that needs
 * the upgrade and a body past the limit at once, which random shapes met
 * too rarely, is then found.
 */
import { describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { BOUNDS_DEFAULT, fixedOptions, planThresholds, runShard, steppersFor, type CheckPlan } from '../check.ts';
import type { RulesPair } from './record-trace.ts';
import { swarmOptions } from './options.ts';
import { withBodyMarks } from './body-probe.ts';
import { exploreOptions } from './explore-options.ts';
import { exploreOutbox } from './explore-outbox.ts';
import { exploreSmallWorld, smallWorlds, suiteBodyShapes } from '../small-worlds.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import envelopeGzipLarge from '../../properties/rule-api/envelope-gzip-large.ts';
import envelopeLatin1 from '../../properties/rule-api/envelope-latin1.ts';
import envelopeCrlfToLf from '../../properties/rule-api/envelope-crlf-to-lf.ts';
import admitBodyCollated from '../../properties/rule-api/admit-body-collated.ts';
import keyClaimCheckLarge from '../../properties/rule-api/key-claim-check-large.ts';
import keyFromBody from '../../properties/rule-api/key-from-body.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A limit of 1,000 characters (a column's size): a larger body parks `permanent-refusal` at pre-send, without a POST, even one an older release may have sent already. */
const LIMIT = 1000;
const sizeLimit: RuleSet = extendRules(failClosed, {
  name: 'size-limit',
  summary: 'fail-closed, but a body over 1,000 characters parks permanent-refusal at pre-send.',
  preSend: (record, view) => (typeof record.payload === 'string' && record.payload.length > LIMIT ? { ...record, inFlight: false, status: 'PARKED', reason: 'permanent-refusal' } : failClosed.preSend(record, view)),
});

/** A store that cannot hold NUL: the pre-send write drops it from the payload (and keeps the digest). */
const dropsNul: RuleSet = extendRules(failClosed, {
  name: 'drops-nul',
  summary: 'fail-closed whose pre-send write drops NUL characters from the payload.',
  preSend: (record, view) => {
    const next = failClosed.preSend(record, view);
    return next === null || typeof next.payload !== 'string' ? next : { ...next, payload: next.payload.replaceAll('\u0000', '') };
  },
});

/** Writes the payload's length on the record: an answer that follows the size, not a limit. */
const notesLength: RuleSet = extendRules(failClosed, {
  name: 'notes-length',
  summary: 'fail-closed that writes the payload length on the record at pre-send.',
  preSend: (record, view) => {
    const next = failClosed.preSend(record, view);
    return next === null ? next : { ...next, bytes: String(record.payload).length };
  },
});

/** The first seed at which the upgrade by default breaks {@link sizeLimit} only with the probe's steering. */
const STEERED_AT = 342;

const plan = (rules: RuleSet): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT });
const bodiesOf = (rules: RuleSet): readonly string[] => planThresholds(plan(rules), fixedOptions(plan(rules))).bodies;

describe('the body probe', () => {
  it('places a size limit to the character, names the characters a rule drops, and sees nothing in fail-closed', () => {
    expect(bodiesOf(sizeLimit)).toEqual([`large:${LIMIT + 1}`]);
    expect(bodiesOf(dropsNul)).toEqual(['control']);
    expect(bodiesOf(failClosed)).toEqual([]);
    // An answer that changes at every size asked follows the size: no limit; its characters change lengths too.
    expect(bodiesOf(notesLength).some((s) => s.startsWith('large'))).toBe(false);
  });

  it('asks with the body on offer too: a publish that quarantines a large body', () => {
    const quarantinesLarge: RuleSet = extendRules(failClosed, {
      name: 'quarantines-large',
      summary: 'fail-closed whose publish quarantines a body of more than 4,096 characters.',
      admit: (view) => (view.body.length > 4096 ? { kind: 'quarantine', cause: 'too large' } : failClosed.admit(view)),
    });
    expect(bodiesOf(quarantinesLarge)).toEqual(['large:4097']);
  });

  it('reads back the body of the envelope as consumers decode it: an encoding that does not give a shape back is marked, a reversible one is not', () => {
    // Compression past 1 KiB, read back by decode: every body comes back, so nothing is marked.
    expect(bodiesOf(envelopeGzipLarge)).toEqual([]);
    // The same envelope without decode: consumers read compressed bytes from 1,025 bytes on, one change (not one per size).
    const { decode: _decode, ...undecoded } = envelopeGzipLarge;
    expect(bodiesOf({ ...undecoded, name: 'gzip-undecoded' })).toEqual(['large:1025']);
    // Latin-1 base64 loses every character past U+00FF.
    expect(bodiesOf(envelopeLatin1)).toEqual(['astral', 'combining']);
    // A client that sends CR LF as LF: the control shape holds a CR LF pair.
    expect(bodiesOf(envelopeCrlfToLf)).toEqual(['control']);
  });

  it("reads the envelope's other fields too: a key that turns past a size is marked, one hashed from every body is not", () => {
    // A claim check keys a body past 64 KiB by its digest: the key turns at 65,537 characters.
    expect(bodiesOf(keyClaimCheckLarge)).toEqual(['large:65537']);
    // A key built from the body at every size names the body wherever it is: the probe writes it as its token.
    expect(bodiesOf(keyFromBody)).toEqual([]);
  });

  it('marks two bodies of one id alike where admit takes a body that differs from the record\'s only by a fold for the record\'s own', () => {
    expect(bodiesOf(admitBodyCollated)).toEqual(['case']);
    const trims: RuleSet = extendRules(failClosed, {
      name: 'admit-trims',
      summary: 'fail-closed whose publish compares bodies trimmed.',
      admit: (view) => failClosed.admit(view.read.kind === 'found' && typeof view.read.record.payload === 'string' && view.read.record.payload.trim() === view.body.trim() ? { ...view, body: view.read.record.payload } : view),
    });
    expect(bodiesOf(trims)).toEqual(['space', 'crlf']);
  });

  it('gives one seed in four without a shape a mark, from a stream of its own, and moves nothing else', () => {
    const marks = ['large:1001', 'control'];
    let plain = 0;
    const steered = new Map<string, number>();
    for (let seed = 1; seed <= 800; seed++) {
      const o = swarmOptions(seed);
      const s = withBodyMarks(o, seed, marks);
      expect(withBodyMarks(o, seed, [])).toBe(o);
      if (o.bodyShape !== undefined) {
        expect(s).toBe(o);
        continue;
      }
      plain++;
      if (s === o) continue;
      expect({ ...s, bodyShape: undefined }).toEqual(o);
      steered.set(s.bodyShape ?? '', (steered.get(s.bodyShape ?? '') ?? 0) + 1);
    }
    const share = [...steered.values()].reduce((a, b) => a + b, 0) / plain;
    expect([share > 0.18 && share < 0.32, [...steered.keys()].sort()]).toEqual([true, ['control', 'large:1001']]);
  });

  it('leads a seed of the upgrade by default to the flaw past the limit, which it missed without', () => {
    // The first seed of 5,000 that breaks the limit without the probe is 163 (it drew a large body of its own); 342 is the first only with it.
    const upgrade: CheckPlan = { ...plan(sizeLimit), oldRules: failClosed, skewDrawn: true, seedStart: STEERED_AT, seeds: 1 };
    const steered = runShard(upgrade, STEERED_AT, STEERED_AT + 1);
    const unsteered = runShard({ ...upgrade, thresholds: false }, STEERED_AT, STEERED_AT + 1);
    expect([Object.keys(steered.violatedRuns), Object.keys(unsteered.violatedRuns)]).toEqual([['honest-park'], []]);
    // The trace's options carry the shape, so that a replay runs it again.
    expect([steered.first['honest-park']?.options.bodyShape, steered.first['honest-park']?.options.skew]).toEqual([`large:${LIMIT + 1}`, true]);
  });

  it("searches the default world again with each shape, with both versions too, and the skewed one holds the limit's flaw", () => {
    expect(suiteBodyShapes(failClosed, null)).toEqual([]);
    const shapes = suiteBodyShapes(sizeLimit, failClosed);
    expect(shapes).toEqual([`large:${LIMIT + 1}`]);
    const worlds = smallWorlds(true, { broker: null }, false, shapes);
    const names = worlds.map((w) => w.name);
    expect(names.slice(0, 2)).toEqual(['skew', `skew, bodies large:${LIMIT + 1}`]);
    expect(names).toContain(`bodies large:${LIMIT + 1}`);
    expect(names.indexOf(`bodies large:${LIMIT + 1}`)).toBe(names.indexOf('default') + 1);
    // And, on one version, two ids named alike with one body of the shape (a key that turns with the body's size).
    expect(names).toContain(`2 ids named alike, the same body, 1 engine, no crash, broker key, bodies large:${LIMIT + 1}`);
    expect(smallWorlds(true, { broker: null }, false).length).toBe(worlds.length - 3);
    // With the upgrade by default (the rule set's own worlds first), the skewed world of the shape follows the rule set's own of it.
    expect(smallWorlds(true, { broker: null }, true, shapes).slice(0, 4).map((w) => w.name)).toEqual(['default', `bodies large:${LIMIT + 1}`, `2 ids named alike, the same body, 1 engine, no crash, broker key, bodies large:${LIMIT + 1}`, `skew, bodies large:${LIMIT + 1}`]);
    const skewed = worlds[1];
    const pair: RulesPair = { rules: sizeLimit, rulesOrigin: { source: 'catalog', name: sizeLimit.name, hash: null }, oldRules: failClosed, oldRulesOrigin: { source: 'catalog', name: 'fail-closed', hash: null } };
    const steppers = steppersFor(sizeLimit, failClosed);
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-bodies-'));
    try {
      const found = exploreSmallWorld(pair, steppers, skewed, 1, { outDir: dir, replayCommand: (p) => p, now: () => 0 });
      expect(found.violations.map((v) => v.property)).toEqual(['honest-park']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The same world with one-letter bodies: clean.
    const without = exploreOutbox(exploreOptions(worlds[0].sizes), { rules: sizeLimit, oldRules: failClosed }, steppers, { statesMax: 1_000_000, liveness: true, stopAtFirst: true, symmetry: true });
    expect([without.complete, without.violations.length]).toEqual([true, 0]);
  });
});

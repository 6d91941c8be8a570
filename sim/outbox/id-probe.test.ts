/**
 * Where a rule set's decisions fold ids (id-probe.ts): the envelope, and
 * every decision whose view carries the id, asked for the two ids of each
 * id shape. A key lower-cased, normalised or trimmed becomes a shape one
 * seed in four of two ids takes and a small world searches with both
 * versions; a flaw no world of ids `a`, `b` or ids named alike held is
 * then found.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import keyFromBody from '../../properties/rule-api/key-from-body.ts';
import keyLowercased from '../../properties/rule-api/key-lowercased.ts';
import keyCutTo64 from '../../properties/rule-api/key-cut-to-64.ts';
import keyHashBucket from '../../properties/rule-api/key-hash-bucket.ts';
import keyNumberPlusEpoch from '../../properties/rule-api/key-number-plus-epoch.ts';
import { KEY_HASH_BUCKET_PAIR } from '../bench/flawed-rules.ts';
import { BOUNDS_DEFAULT, fixedOptions, planThresholds, runShard, steppersFor, type CheckPlan } from '../check.ts';
import { exploreSmallWorld, probedWorlds, smallWorlds, suiteIdShapes } from '../small-worlds.ts';
import { withIdMarks } from './id-probe.ts';
import { swarmOptions } from './options.ts';
import type { RulesPair } from './record-trace.ts';

/** A key built from the id in NFC (a key index that normalises). */
const keyNfc: RuleSet = extendRules(failClosed, {
  name: 'key-nfc',
  summary: 'fail-closed whose key is NFC-normalised.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: failClosed.envelope(id, record).key.normalize('NFC') }),
});

/** A key built from the trimmed id (a CHAR column that pads, a VARCHAR compared under PAD SPACE). */
const keyTrimmed: RuleSet = extendRules(failClosed, {
  name: 'key-trimmed',
  summary: 'fail-closed whose key is built from the trimmed id.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${id.trim()}#${record.resendEpoch}` }),
});

/** The envelope's id folded (a broker deduping by id, case-blind), its key kept. */
const envelopeIdLowercased: RuleSet = extendRules(failClosed, {
  name: 'envelope-id-lowercased',
  summary: 'fail-closed whose envelope id is lower-cased.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), id: id.toLowerCase() }),
});

/** A selection that leaves ids with a trailing space out (a SELECT through a trimmed join): it reads the shape. */
const selectsTrimmed: RuleSet = extendRules(failClosed, {
  name: 'selects-trimmed',
  summary: 'fail-closed that selects no record whose id has a trailing space.',
  selectable: (_record, view) => view.id === view.id.trimEnd(),
});

/** The first seed of the upgrade by default at which {@link keyLowercased} breaks only with the probe's steering (172 draws case ids of its own). */
const STEERED_AT = 106;

const plan = (rules: RuleSet): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT });
const idsOf = (rules: RuleSet): readonly string[] => planThresholds(plan(rules), fixedOptions(plan(rules))).ids;

describe('the id probe', () => {
  it('names the shape a key folds, sees nothing in fail-closed nor in a key that ignores the id', () => {
    expect(idsOf(keyLowercased)).toEqual(['case']);
    expect(idsOf(keyNfc)).toEqual(['accent']);
    expect(idsOf(keyTrimmed)).toEqual(['space']);
    expect(idsOf(envelopeIdLowercased)).toEqual(['case']);
    expect(idsOf(failClosed)).toEqual([]);
    // A key cut to a column's length: two ids of 200 characters that differ only in the last get one key.
    expect(idsOf(keyCutTo64)).toEqual(['prefix']);
    // A key from a 12-bit bucket of the id: two of thousands of ids asked share one (a and b do not).
    expect(idsOf(keyHashBucket)).toEqual([KEY_HASH_BUCKET_PAIR]);
    // A key from the body gives a and b one key already: not a fold of the id's shape (the same-body worlds find it).
    expect(idsOf(keyFromBody)).toEqual([]);
  });

  it('compares keys across cycles: an id requeued whose key is another id\'s in its first cycle, the fewest requeues first', () => {
    // The id's number plus its epoch: order-0 at epoch 1 is order-1 at 0.
    expect(idsOf(keyNumberPlusEpoch)).toEqual(['collide:0:1']);
    // No separator between id and epoch: order-1 at epoch 10 is order-11 at 0 (a round-22 review's).
    const keyNoSeparator: RuleSet = extendRules(failClosed, { name: 'key-no-separator', summary: 'key <id><epoch>', envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${id}${record.resendEpoch}` }) });
    expect(idsOf(keyNoSeparator)).toEqual(['collide:1:11']);
    // Its world has the operator's action a requeue takes, and holds the flaw.
    const world = probedWorlds({ rules: keyNumberPlusEpoch, oldRules: null }).find((w) => w.sizes.idShape === 'collide:0:1');
    expect([world?.name, world?.sizes.operatorActionsMax]).toEqual(['2 ids collide:0:1, the same body, 1 engine, no crash, broker key, 1 operator action', 1]);
    if (world === undefined) return;
    const pair: RulesPair = { rules: keyNumberPlusEpoch, rulesOrigin: { source: 'catalog', name: keyNumberPlusEpoch.name, hash: null }, oldRules: null, oldRulesOrigin: null };
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-ids-epoch-'));
    try {
      expect(exploreSmallWorld(pair, steppersFor(keyNumberPlusEpoch, null), world, 0, { outDir: dir, replayCommand: (p) => p, now: () => 0 }).violations.map((v) => v.property)).toEqual(['no-phantom-delivery']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks the decisions whose view carries the id: a selection that reads a trailing space', () => {
    expect(idsOf(selectsTrimmed)).toEqual(['space']);
  });

  it('gives one seed in four of two ids without a shape a mark, from a stream of its own, and moves nothing else', () => {
    const marks = ['case', 'space'];
    let plain = 0;
    const steered = new Map<string, number>();
    for (let seed = 1; seed <= 1600; seed++) {
      const o = swarmOptions(seed);
      const s = withIdMarks(o, seed, marks);
      expect(withIdMarks(o, seed, [])).toBe(o);
      if (o.ids < 2 || o.idShape !== undefined || o.longIds === true) {
        expect(s).toBe(o);
        continue;
      }
      plain++;
      if (s === o) continue;
      expect({ ...s, idShape: undefined }).toEqual(o);
      steered.set(s.idShape ?? '', (steered.get(s.idShape ?? '') ?? 0) + 1);
    }
    const share = [...steered.values()].reduce((a, b) => a + b, 0) / plain;
    expect([share > 0.18 && share < 0.32, [...steered.keys()].sort()]).toEqual([true, ['case', 'space']]);
  });

  it('leads a seed of the upgrade by default to the lower-cased key, which it missed without', () => {
    const upgrade: CheckPlan = { ...plan(keyLowercased), oldRules: failClosed, skewDrawn: true, seedStart: STEERED_AT, seeds: 1 };
    const steered = runShard(upgrade, STEERED_AT, STEERED_AT + 1);
    const unsteered = runShard({ ...upgrade, thresholds: false }, STEERED_AT, STEERED_AT + 1);
    expect([Object.keys(steered.violatedRuns), Object.keys(unsteered.violatedRuns)]).toEqual([['no-phantom-delivery'], []]);
    // The trace's options carry the shape, so that a replay runs it again; the witness re-runs get the marks (plan.ids).
    expect(steered.first['no-phantom-delivery']?.options.idShape).toBe('case');
    expect(steered.longLife?.deep.ids).toEqual(['case']);
    const rerun = runShard({ ...upgrade, thresholds: false, ids: ['case'] }, STEERED_AT, STEERED_AT + 1);
    expect(Object.keys(rerun.violatedRuns)).toEqual(['no-phantom-delivery']);
  });

  it("searches the world of 2 ids named alike again with each shape, with both versions too: the default check's twin finds the lower-cased key, the world without the shape does not", () => {
    expect(suiteIdShapes(failClosed, null)).toEqual([]);
    const shapes = suiteIdShapes(keyLowercased, failClosed);
    expect(shapes).toEqual(['case']);
    const alike = '2 ids named alike, the same body, 1 engine, no crash, broker key';
    const twin = '2 ids case, the same body, 1 engine, no crash, broker key';
    const names = smallWorlds(true, { broker: null }, false, [], shapes).map((w) => w.name);
    expect([names.indexOf(twin), names.indexOf(`skew, ${twin}`)]).toEqual([names.indexOf(alike) + 1, names.indexOf(`skew, ${alike}`) + 1]);
    expect(smallWorlds(true, { broker: null }, false).length).toBe(names.length - 2);
    // The default check (the upgrade by default): the twins come right after the default world, as the body shapes' do.
    const worlds = smallWorlds(true, { broker: null }, true, [], shapes);
    expect(worlds.slice(0, 3).map((w) => w.name)).toEqual(['default', twin, `skew, ${twin}`]);
    expect([worlds[1].sizes.idShape, worlds[1].sizes.longIds, worlds[1].sizes.ids]).toEqual(['case', undefined, 2]);
    const pair: RulesPair = { rules: keyLowercased, rulesOrigin: { source: 'catalog', name: keyLowercased.name, hash: null }, oldRules: failClosed, oldRulesOrigin: { source: 'catalog', name: 'fail-closed', hash: null } };
    const steppers = steppersFor(keyLowercased, failClosed);
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-ids-'));
    try {
      const run = (name: string) => {
        const i = worlds.findIndex((w) => w.name === name);
        return exploreSmallWorld(pair, steppers, worlds[i], i, { outDir: dir, replayCommand: (p) => p, now: () => 0 }).violations.map((v) => v.property);
      };
      expect(run(twin)).toEqual(['no-phantom-delivery']);
      expect(run(`skew, ${twin}`)).toEqual(['retries-deduped']);
      // The same worlds with ids named alike (lower case already): clean.
      expect([run(alike), run(`skew, ${alike}`)]).toEqual([[], []]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

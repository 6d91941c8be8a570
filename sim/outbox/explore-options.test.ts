/**
 * Every world `check`'s suite searches gets world options of one shape
 * (the same keys in the same order, its settings too), so that code
 * optimised on the first worlds keeps its hidden classes at the later ones;
 * and the options say what the sizes say, as the spread they replaced did.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../core/canonical.ts';
import { smallWorlds, type SuiteFixed } from '../small-worlds.ts';
import { HEALTHY_ANSWER } from './events/broker.ts';
import { EVENT_KINDS, SETTINGS } from './events/table.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from './explore-options.ts';
import { settingValue } from './options.ts';
import { healthyWeights } from './nothing-fails.ts';

/** The suites of every kind of check: one version or skewed, with flags fixing a broker, a setting, at-most-once. */
const FIXED: SuiteFixed[] = [{ broker: null }, { broker: 'key' }, { broker: null, settings: { dedupeWindow: 3 } }, { broker: null, atMostOnce: true }, { broker: 'log', settings: { lateLanding: 2 }, atMostOnce: true }];
const SUITE_SIZES: ExploreSizes[] = FIXED.flatMap((fixed) => [...smallWorlds(false, fixed), ...smallWorlds(true, fixed)].map((w) => w.sizes));

describe('exploreOptions', () => {
  it('gives every suite world’s options the same keys in the same order, and their settings too', () => {
    // The suite has worlds with settings and without, with at-most-once and without.
    expect(SUITE_SIZES.some((s) => s.settings === undefined)).toBe(true);
    expect(SUITE_SIZES.some((s) => s.settings !== undefined)).toBe(true);
    expect(SUITE_SIZES.some((s) => s.atMostOnce === true)).toBe(true);
    const shapes = new Set(SUITE_SIZES.map((s) => Object.keys(exploreOptions(s)).join(',')));
    expect([...shapes]).toHaveLength(1);
    const settingShapes = new Set(SUITE_SIZES.flatMap((s) => {
      const settings = exploreOptions(s).settings;
      return settings === undefined ? [] : [Object.keys(settings).join(',')];
    }));
    expect([...settingShapes]).toEqual([SETTINGS.map((s) => s.name).join(',')]);
  });

  it('says what the sizes say: the same JSON as the sizes spread with the search’s weights, each setting as given or off', () => {
    const weights = Object.fromEntries(EVENT_KINDS.flatMap((k) => (k.knob === null || k.knob.draw === 'setting' ? [] : [[k.name, 1]])));
    for (const { healthy, ...sizes } of [...SUITE_SIZES, EXPLORE_DEFAULTS]) {
      const options = exploreOptions({ ...sizes, healthy });
      // A world where nothing fails (nothing-fails.ts) has every weight but the healthy answer's 0.
      const own = healthy === true ? healthyWeights(weights, HEALTHY_ANSWER) : weights;
      expect(canonicalJson(options)).toBe(canonicalJson({ ...sizes, weights: own, faultGroupWeight: 1, healAnswer: HEALTHY_ANSWER, faultStepsMax: 120 }));
      expect(JSON.parse(JSON.stringify(options))).toEqual(JSON.parse(JSON.stringify({ ...sizes, weights: own, faultGroupWeight: 1, healAnswer: HEALTHY_ANSWER, faultStepsMax: 120 })));
      expect(options.atMostOnce === true).toBe(sizes.atMostOnce === true);
      for (const s of SETTINGS) expect(settingValue(options, s.name)).toBe(sizes.settings?.[s.name] ?? s.off);
    }
  });

  it('gives each world its own weights and settings (a search that changed them would not change another’s)', () => {
    const sizes = { ...EXPLORE_DEFAULTS, settings: { retention: 1 } };
    const a = exploreOptions(sizes);
    const b = exploreOptions(sizes);
    expect(a.weights).not.toBe(b.weights);
    expect(a.settings).not.toBe(b.settings);
    expect(a.settings).not.toBe(sizes.settings);
  });
});

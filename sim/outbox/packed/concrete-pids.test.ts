/**
 * A rule set that reads an engine's pid is searched on packed states with
 * each engine's steps derived for that engine (`PackedOptions.concretePids`),
 * not once for all engines up to renaming pids; it was searched on the
 * object system, several times slower. The search is the object system's:
 * the same states, transitions, violations and traces, liveness included,
 * and every program checked against the object system (verify mode).
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import stampVersion from '../../../properties/rule-api/stamp-version.ts';
import stampVersionOld from '../../../properties/rule-api/stamp-version-old.ts';
import { BOUNDS_DEFAULT, steppersFor } from '../../check.ts';
import { explore } from '../../core/explore.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { outboxLiveness } from '../explore-liveness.ts';
import { exploreOutbox } from '../explore-outbox.ts';
import { outboxSystem, type WorldRules } from '../outbox-system.ts';
import { labelOf } from '../world.ts';

/** Engine 1 selects nothing; the others run fail-closed. */
const pidOneIdle: RuleSet = extendRules(failClosed, { name: 'pid-one-idle', summary: 'engine 1 selects nothing', selectable: (_r, view) => view.who.pid !== 1 });
/** Stamps the sender's pid in preSend and takes its own in-flight mark as no evidence: flawed under stable identities (an engine back under its pid finds its predecessor's mark). */
const ownMark: RuleSet = extendRules(failClosed, {
  name: 'own-mark',
  summary: 'an in-flight mark of this engine is not evidence',
  preSend: (record, view) => {
    const own = view !== undefined && record.inFlight === true && record.sender === view.who.pid;
    const w = failClosed.preSend(own ? { ...record, inFlight: false } : record, view);
    return w === null ? null : { ...w, sender: view?.who.pid ?? -1 };
  },
});

const summary = (r: { states: number; transitions: number; complete: boolean; violations: { violation: { property: string }; events: Parameters<typeof labelOf>[0][] }[] }) => ({
  states: r.states,
  transitions: r.transitions,
  complete: r.complete,
  violations: r.violations.map((v) => [v.violation.property, v.events.map(labelOf)]),
});

describe('a rule set that reads pids: packed states, each engine its own steps', () => {
  it.each([
    ['stamp-version', { rules: stampVersion }, {}, 100_000],
    ['stamp-version, 3 engines', { rules: stampVersion }, { engines: 3, crashesMax: 1 }, 12_000],
    ['stamp-version beside its old version', { rules: stampVersion, oldRules: stampVersionOld }, { skew: true }, 12_000],
    ['engine 1 selects nothing', { rules: pidOneIdle }, {}, 100_000],
    ['own mark, 2 ids', { rules: ownMark }, { ids: 2, bodiesPerId: 1, engines: 2 }, 12_000],
  ] as [string, WorldRules, Partial<ExploreSizes>, number][])('%s: the object system’s search, liveness included, every program verified', (_name, worldRules, sizes, statesMax) => {
    const options = exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes });
    const steppers = steppersFor(worldRules.rules, worldRules.oldRules ?? null);
    // Larger worlds stopped at a bound: the two searches stop at the same state (the same search, in the same order).
    const bounds = { statesMax, liveness: true, stopAtFirst: false, symmetry: true };
    const packed = exploreOutbox(options, worldRules, steppers, bounds, { verify: true });
    expect([packed.explorer, packed.symmetry, packed.fallback]).toEqual(['packed', false, null]);
    expect(packed.symmetryOff).toMatch(/reads an engine's pid/);
    const system = outboxSystem(options, worldRules, steppers);
    const objects = explore(system, { statesMax, stopAtFirst: false }, outboxLiveness(options, system, BOUNDS_DEFAULT.healStepsMax));
    expect(summary(packed)).toEqual(summary(objects));
    expect(packed.states).toBeGreaterThan(1000);
  });

  it('the world of stable identities, which the packed layout cannot hold, is still searched on the object system', () => {
    const options = exploreOptions({ ...EXPLORE_DEFAULTS, bodiesPerId: 1, attemptsMax: 1, settings: { stableIds: 1 } });
    const r = exploreOutbox(options, { rules: ownMark }, steppersFor(ownMark, null), { statesMax: 100_000, liveness: true, symmetry: true });
    expect(r.explorer).toBe('objects');
    expect(r.violations[0]?.violation.property).toBe('honest-park');
  });
});

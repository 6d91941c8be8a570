/**
 * Partial-order reduction in explore (`--por`): pinned state counts with and
 * without symmetry, the same verdicts as the unreduced search for fail-closed
 * on several worlds and for every flawed rule set the repository holds (each
 * mutant's verdict unchanged by it), a counterexample that replays, and the
 * bounds it refuses (liveness, a depth bound).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import { flawedRules } from '../bench/flawed-rules.ts';
import { steppersFor } from '../check.ts';
import { runCli } from '../cli/test-cli.ts';
import { loadRules } from '../rules-loader.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from './explore-options.ts';
import { exploreOutbox } from './explore-outbox.ts';

function search(rules: RuleSet, oldRules: RuleSet | null, sizes: Partial<ExploreSizes>, more: { por: boolean; symmetry?: boolean; stopAtFirst?: boolean }) {
  const worldRules = oldRules === null ? { rules } : { rules, oldRules };
  return exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), worldRules, steppersFor(rules, oldRules), {
    statesMax: 2_000_000,
    symmetry: more.symmetry ?? true,
    por: more.por,
    stopAtFirst: more.stopAtFirst ?? false,
  });
}

/** What a search found: complete or not, and the `always` properties violated. */
const verdict = (r: ReturnType<typeof search>) => [r.complete, r.violations.map((v) => v.violation.property).sort()];

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'por-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('por: pinned state counts of fail-closed (the always properties; explore.test.ts and symmetry.test.ts hold the unreduced counts)', () => {
  it.each([
    // The default world: 6,581 classes and 17,611 states unreduced (19,115 and 48,482 transitions).
    [true, 6549, 17509, 1161],
    [false, 17547, 45270, 2322],
  ] as const)('symmetry %s: %i states, %i transitions, %i states reduced (each to its restarts), complete, no violation', (symmetry, states, transitions, reduced) => {
    const r = search(failClosed, null, {}, { por: true, symmetry });
    expect([r.explorer, r.complete, r.violations, r.states, r.transitions, r.por?.reduced, r.por?.restarts]).toEqual(['packed', true, [], states, transitions, reduced, reduced]);
  });
});

describe('por: the same verdicts as the unreduced search', () => {
  it.each([
    {},
    { engines: 1, crashesMax: 2 },
    { ids: 2, bodiesPerId: 1, engines: 1 },
    { engines: 3, attemptsMax: 1, crashesMax: 1 },
    { bodiesPerId: 1, attemptsMax: 1, operatorActionsMax: 1 },
    // The world's own events, reasoned about as an actor of their own (packed/independence.ts), and the storage faults.
    { settings: { retention: 1 } },
    { settings: { dedupeWindow: 2 } },
    { settings: { lateLanding: 1 } },
    { bodiesPerId: 1, crashesMax: 1, corruptionsMax: 1 },
  ] as Partial<ExploreSizes>[])('fail-closed, %o: complete, no violation, at most as many states, some reduced', (sizes) => {
    const whole = search(failClosed, null, sizes, { por: false });
    const reduced = search(failClosed, null, sizes, { por: true });
    expect(verdict(reduced)).toEqual(verdict(whole));
    expect(verdict(reduced)).toEqual([true, []]);
    expect(reduced.states).toBeLessThanOrEqual(whole.states);
    expect(reduced.por?.reduced).toBeGreaterThan(0);
  }, 300_000);

  // Every flawed rule set the repository holds (the catalog's, every mutant, the rule API's), on the world explore finds it in.
  it.each(flawedRules().map((f) => [f.label, f] as const))('%s: the same properties violated (the catalog\'s also without symmetry)', async (_label, f) => {
    const rules = (await loadRules(f.rules)).rules;
    const oldRules = f.oldRules === null ? null : (await loadRules(f.oldRules)).rules;
    const whole = search(rules, oldRules, f.world, { por: false });
    const reduced = search(rules, oldRules, f.world, { por: true });
    // A flaw only an eventually property sees leaves both clean: --por checks the always ones, and so does this comparison.
    expect(verdict(reduced)).toEqual(verdict(whole));
    if (f.kind !== 'catalog') return;
    expect(whole.violations.length).toBeGreaterThan(0);
    const plain = search(rules, oldRules, f.world, { por: true, symmetry: false });
    expect(verdict(plain)).toEqual(verdict(whole));
  }, 300_000);
});

describe('por: counterexamples and bounds', () => {
  it('a counterexample the reduction shaped (longer than the shortest: a restart taken first) replays to the same violation', async () => {
    const unreduced = await runCli('explore', '--rules', 'fresh-cycle-after-definite', '--json', '--out', tmp);
    const reduced = await runCli('explore', '--rules', 'fresh-cycle-after-definite', '--por', '--json', '--out', tmp);
    type Found = { violations: { property: string; path: string; trace: string; steps: number }[] };
    const u = (JSON.parse(unreduced.out.join('\n')) as Found).violations[0];
    const v = (JSON.parse(reduced.out.join('\n')) as Found).violations[0];
    expect([u.property, u.steps, v.property, v.steps]).toEqual(['honest-park', 10, 'honest-park', 11]);
    const replay = await runCli('replay', v.path);
    expect(replay.code).toBe(0);
    expect(replay.out.join('\n')).toContain(`trace ${v.trace} replays identically: ${v.steps} steps, ending in honest-park`);
  });

  it('a counterexample found under --por is a real path: its trace replays to the same violation', async () => {
    const r = await runCli('explore', '--rules', 'fresh-cycle', '--por', '--json', '--out', tmp);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out.join('\n')) as { checked: string[]; por: { used: boolean; reduced: number }; violations: { property: string; path: string; trace: string; steps: number }[] };
    // The eventually properties are not checked under --por.
    expect(j.checked).not.toContain('no-silent-loss');
    expect(j.por.used).toBe(true);
    const v = j.violations[0];
    const replay = await runCli('replay', v.path);
    expect(replay.code).toBe(0);
    expect(replay.out.join('\n')).toContain(`trace ${v.trace} replays identically: ${v.steps} steps, ending in ${v.property}`);
  });

  it('a clean search under --por says it covers the always properties only', async () => {
    const r = await runCli('explore', '--por', '--out', tmp);
    expect(r.code).toBe(0);
    const out = r.out.join('\n');
    expect(out).toContain('eventually properties not checked (--por)');
    expect(out).toContain('RESULT: no always property violated (--por) in the whole bounded space');
  });

  it('--por with --max-depth: bad input, exit 2, one line', async () => {
    const r = await runCli('explore', '--por', '--max-depth', '5');
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toContain('--por cannot be combined with --max-depth');
  });

  it('the library refuses liveness under reduction', () => {
    expect(() => exploreOutbox(exploreOptions(EXPLORE_DEFAULTS), { rules: failClosed }, steppersFor(failClosed, null), { statesMax: 1000, por: true, liveness: true })).toThrow(/always properties only/);
  });
});

/**
 * The guard of the finding-power table (BENCHMARKS.md): every flawed rule
 * set the repository holds is found by the small worlds that the default
 * `check` explores before any seed, so a change to the suite or the
 * explorer that loses a finding fails here. The table's seconds are
 * measured by `npm run finding-power`, which exits 1 when a goal is missed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MUTANTS } from '../../properties/mutants/index.ts';
import { BOUNDS_DEFAULT, runShard, SEEDS_DEFAULT, steppersFor } from '../check.ts';
import { exploreSmallWorld, probedWorlds } from '../small-worlds.ts';
import { defaultCheckPair, keptSection, median, missedGoals, SECTION_END, SECTION_START, withSection, type FindingRow } from './finding-power.ts';
import { flawedRules } from './flawed-rules.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'finding-power-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Rule set label to the small world the table (BENCHMARKS.md) says the default check found it in. */
function whereInTable(): Map<string, string> {
  const where = new Map<string, string>();
  for (const line of keptSection(readFileSync('BENCHMARKS.md', 'utf8')) ?? []) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length > 5 && cells[2] !== 'from') where.set(cells[1].replace(/ \(\+ old\)$/, ''), cells[4]);
  }
  return where;
}

describe('the flawed rule sets', () => {
  it('are the catalog\'s two flaws, every mutant that check must kill, and the flawed rule-API rule sets', () => {
    const rows = flawedRules();
    expect(rows.filter((r) => r.kind === 'catalog').map((r) => r.label)).toEqual(['fresh-cycle', 'fresh-cycle-after-definite']);
    // One row per mutant file (an entry may run one file in several worlds).
    expect(rows.filter((r) => r.kind === 'mutant')).toHaveLength(new Set(MUTANTS.map((m) => m.rules)).size);
    expect(rows.filter((r) => r.kind === 'rule-api').map((r) => r.label).sort()).toEqual(['admit-body-collated', 'admit-digest-cut', 'admit-ignores-claim', 'admit-respects-claim', 'envelope-crlf-to-lf', 'envelope-latin1', 'epoch-history', 'evidence-expires', 'flags-old-drops', 'flags-trust-defaults', 'key-claim-check-large', 'key-cut-to-64', 'key-format-changed', 'key-from-body', 'key-hash-bucket', 'key-lowercased', 'key-marks-requeue', 'key-number-plus-epoch', 'large-body-fresh-cycle', 'lease-unfenced', 'park-history-over-cap', 'payload-lowercased', 'payload-trusted', 'poison-retried', 'presend-cap-off-by-one', 'presend-skipped-late', 'presend-skipped-nightly', 'presend-strips-astral', 'quarantine-cause-from-reply', 'queued-handed-on', 'queued-rebuilt-fresh', 'queued-stranded', 'reopen-max-attempts', 'requeue-cap-strands', 'resubmit-clears-unlocked', 'retry-window-dishonest', 'retry-window-unparked', 'schema-bump-launders', 'select-below-cap', 'select-below-cap-parks', 'sweep-parked', 'timeout-fast-fail', 'tombstone-trusts-absent', 'unknown-bitmap-tinyint']);
  });

  it("are as many as the README says, and as many held by no bounded world", () => {
    // The README's count went stale once when mutants were added: it is read here, not trusted.
    const said = /every flawed rule set the repository holds \((\d+)\) is found by the suite\s+but (\w+) that no bounded world holds/.exec(readFileSync('README.md', 'utf8'));
    expect(said).not.toBeNull();
    const words = ['none', 'one', 'two', 'three', 'four', 'five'];
    const rows = flawedRules();
    expect(Number(said?.[1])).toBe(rows.length);
    expect(words.indexOf(said?.[2] ?? '')).toBe(rows.filter((r) => r.longLifeOnly === true).length);
  });

  // Up to the first world that holds a violation (what the default check finds before its swarm). The world the
  // table names as where the check found it goes first, the others follow in check's order: the claim (some world of
  // the suite holds a violation) is the same, but a flaw found in the suite's 13th world no longer pays for the first 12.
  // A stale or missing table row only costs time.
  const tableWhere = whereInTable();
  for (const f of flawedRules().filter((r) => r.longLifeOnly === true)) {
    it(`${f.label}, held by no bounded world, is found by long life or deep cycles in the swarm's default seeds`, async () => {
      const { pair, upgrade } = await defaultCheckPair(f);
      // The seeds run an upgrade by default in the seeds that draw skew, as check runs them.
      const r = runShard({ rules: pair.rules, oldRules: pair.oldRules, ...(upgrade ? { skewDrawn: true as const } : {}), seedStart: 1, seeds: SEEDS_DEFAULT, broker: null, bounds: BOUNDS_DEFAULT, stopOnViolation: true }, 1, SEEDS_DEFAULT + 1);
      expect(Object.values(r.first).map((c) => c.longLife !== undefined)).toEqual([true]);
      // And truly held by no bounded world: the small worlds find nothing (else it belongs with the rows below).
      const steppers = steppersFor(pair.rules, pair.oldRules);
      const found = probedWorlds(pair, undefined, upgrade).flatMap((w, i) => exploreSmallWorld(pair, steppers, w, i, { outDir: join(tmp, f.label), replayCommand: (p) => p, now: () => 0 }).violations);
      expect(found).toEqual([]);
    });
  }
  for (const f of flawedRules().filter((r) => r.longLifeOnly !== true)) {
    it(`${f.label}${f.oldRules === null ? '' : ' beside its old version'} is found by a small world of the default check`, async () => {
      const { pair, upgrade } = await defaultCheckPair(f);
      const steppers = steppersFor(pair.rules, pair.oldRules);
      let found: string | null = null;
      let clock = 0;
      const worlds = [...probedWorlds(pair, undefined, upgrade).entries()];
      const hint = tableWhere.get(f.label);
      for (const [i, w] of [...worlds.filter(([, w]) => w.name === hint), ...worlds.filter(([, w]) => w.name !== hint)]) {
        const r = exploreSmallWorld(pair, steppers, w, i, { outDir: join(tmp, f.label), replayCommand: (p) => p, now: () => clock++ });
        if (r.violations.length > 0) {
          found = `${r.violations[0].property} in ${w.name}`;
          break;
        }
      }
      expect(found, `${f.label}: no small world holds a violation`).not.toBeNull();
    });
  }
});

describe('the table', () => {
  const row = (over: Partial<FindingRow>): FindingRow => ({
    label: 'x',
    kind: 'mutant',
    oldRules: null,
    check: { where: 'default', property: 'p', seconds: 1 },
    suiteWorld: 'default',
    swarm: null,
    explore: { world: 'default', states: 10, seconds: 0.1, property: 'p' },
    ...over,
  });
  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
  it('names each goal a row misses', () => {
    expect(missedGoals(row({}))).toEqual([]);
    expect(missedGoals(row({ check: null }))).toEqual(['not found by the default check']);
    expect(missedGoals(row({ check: { where: 'seed 4000', property: 'p', seconds: 75 } }))).toEqual(['found by the default check only after 75.0 s']);
    expect(missedGoals(row({ suiteWorld: null, explore: { world: 'default', states: 10, seconds: 0.1, property: null } }))).toEqual(['not found by explore on its world nor on a small world']);
    // A flaw no bounded world holds is not asked of explore nor of the small worlds; the check must still find it.
    expect(missedGoals(row({ suiteWorld: null, longLifeOnly: true, explore: { world: 'default', states: 10, seconds: 0.1, property: null } }))).toEqual([]);
    expect(missedGoals(row({ suiteWorld: null, longLifeOnly: true, check: null, explore: { world: 'default', states: 10, seconds: 0.1, property: null } }))).toEqual(['not found by the default check']);
  });
  it('rewrites only its own section of BENCHMARKS.md, or appends it', () => {
    const file = `# Benchmarks\n\nA\n\n${SECTION_START}\nold\n${SECTION_END}\n\nB\n`;
    expect(withSection(file, ['new'])).toBe(`# Benchmarks\n\nA\n\n${SECTION_START}\nnew\n${SECTION_END}\n\nB\n`);
    expect(withSection('# Benchmarks\n', ['new'])).toBe(`# Benchmarks\n\n${SECTION_START}\nnew\n${SECTION_END}\n`);
    // What `npm run bench` keeps when it rewrites the rest of the file.
    expect(keptSection(file)).toEqual(['old']);
    expect(keptSection('# Benchmarks\n')).toBeNull();
    expect(withSection('# New\n', keptSection(file) ?? [])).toBe(`# New\n\n${SECTION_START}\nold\n${SECTION_END}\n`);
  });
});

/**
 * The decisions a check asked: the watched rule set answers exactly as the
 * rule set does (a run is the same step for step), each case is counted in
 * the runs that met it, optional decisions stay absent, and the counts are
 * a function of the seeds run, not of how they were split.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import { selectsByRecordAlone, type RuleSet } from '../../model/rules.ts';
import leaseUnfenced from '../../properties/rule-api/lease-unfenced.ts';
import queuedInFlight from '../../properties/rule-api/queued-in-flight.ts';
import selectBelowCap from '../../properties/rule-api/select-below-cap.ts';
import sweepDeliveredDeclared from '../../properties/rule-api/sweep-delivered-declared.ts';
import { BOUNDS_DEFAULT, mergeShards, runShard, seedBounds, steppersFor } from '../check.ts';
import { renderDecisions } from '../check-report.ts';
import { canonicalJson } from '../core/canonical.ts';
import { runSeedFast } from '../core/fast-run.ts';
import { runSeed } from '../core/random.ts';
import { DECISION_CASES, DecisionMarks, noDecisionRuns, watchedRules } from './decision-cases.ts';
import { swarmOptions } from './options.ts';
import { outboxSystem } from './outbox-system.ts';

const planOf = (rules: RuleSet, seeds: number) => ({ rules, oldRules: null, seedStart: 1, seeds, broker: null, bounds: BOUNDS_DEFAULT });

/** Runs per case of `rules` over seeds [1, 1 + seeds), by `decision: case`. */
function askedOf(rules: RuleSet, seeds: number): Map<string, number> {
  const r = runShard(planOf(rules, seeds), 1, 1 + seeds);
  const runs = r.decisions ?? [];
  return new Map(DECISION_CASES.map((c, i) => [`${c.decision}: ${c.name}`, runs[i]]));
}

/** fail-closed without its selection (its digest check): a rule set that declares no `selectable`. */
const UNSELECTING: RuleSet = { ...failClosed, name: 'fail-closed-unselecting', selectable: undefined };

describe('watched rule sets', () => {
  it('answer as the rule set does: every run the same, step for step', () => {
    const marks = new DecisionMarks();
    const watched = watchedRules(failClosed, marks);
    for (let seed = 1; seed <= 150; seed++) {
      const options = swarmOptions(seed);
      const bounds = seedBounds(BOUNDS_DEFAULT, options);
      const plain = runSeedFast(outboxSystem(options, { rules: failClosed }, steppersFor(failClosed, null)), seed, bounds);
      const seen = runSeedFast(outboxSystem(options, { rules: watched }, steppersFor(watched, null)), seed, bounds);
      expect({ ...seen, tags: [...seen.tags] }).toEqual({ ...plain, tags: [...plain.tags] });
    }
    // And the runs asked something.
    expect(marks.asked.some((m) => m === 1)).toBe(true);
    // Recorded, the same events and the same state after each of them.
    for (let seed = 1; seed <= 40; seed++) {
      const options = swarmOptions(seed);
      const bounds = seedBounds(BOUNDS_DEFAULT, options);
      const plain = runSeed(outboxSystem(options, { rules: failClosed }, steppersFor(failClosed, null)), seed, bounds, true);
      const seen = runSeed(outboxSystem(options, { rules: watched }, steppersFor(watched, null)), seed, bounds, true);
      expect(canonicalJson(seen.steps.map((st) => st.event))).toBe(canonicalJson(plain.steps.map((st) => st.event)));
      expect(canonicalJson(seen.states)).toBe(canonicalJson(plain.states));
      expect(seen.violation).toEqual(plain.violation);
    }
  });

  it('leave out the optional decisions a rule set leaves out, and are made once per rule set and marks', () => {
    const marks = new DecisionMarks();
    const watched = watchedRules(failClosed, marks);
    // fail-closed selects by the record alone (its digest check, marked byRecordAlone): watched, it stays marked.
    expect(selectsByRecordAlone(watched)).toBe(true);
    expect(watched.fences).toBeUndefined();
    expect(watched.sweepable).toBeUndefined();
    expect(watchedRules(UNSELECTING, marks).selectable).toBeUndefined();
    expect(watched.name).toBe(failClosed.name);
    expect(watchedRules(failClosed, marks)).toBe(watched);
    expect(watchedRules(failClosed, new DecisionMarks())).not.toBe(watched);
    expect(watchedRules(selectBelowCap, marks).selectable).toBeTypeOf('function');
    // select-below-cap's selection is not marked, so it is taken to read the clock, watched or not.
    expect(selectsByRecordAlone(watchedRules(selectBelowCap, marks))).toBe(false);
  });
});

describe('the decisions a check asked', () => {
  const failClosedAsked = askedOf(failClosed, 400);

  it("counts sweepable's cases by the record the sweeper asked about, only for a rule set that declares it", () => {
    const declared = askedOf(sweepDeliveredDeclared, 400);
    for (const c of ['sweepable: a DELIVERED record', 'sweepable: a PARKED record', 'sweepable: a pending record (READY or QUEUED)']) {
      expect(declared.get(c), c).toBeGreaterThan(0);
      expect(failClosedAsked.get(c), c).toBe(0);
    }
    // Under fail-closed's tombstone retention a record without payload is never asked about.
    expect(declared.get('sweepable: a record without payload (retained)')).toBe(0);
  });

  it('counts each case in the runs that met it: fail-closed asked on every read, claim and outcome the world makes', () => {
    for (const c of ['admit: no record', 'admit: corrupt record', 'admit: PARKED, new body', 'admit: DELIVERED, new body', 'mayClaim: free', 'mayClaim: held by a dead engine', 'mayClaim: torn', 'mayClaim: held by itself (a predecessor under its identity)', 'complete: confirmed', 'complete: definite refusal', 'complete: indeterminate', 'dispose: POST confirmed', 'dispose: file replaced by another body, or gone', 'requeue: requeue']) {
      expect(failClosedAsked.get(c), c).toBeGreaterThan(0);
    }
    // Every run publishes into an empty outbox first, and no count exceeds the runs.
    expect(failClosedAsked.get('admit: no record')).toBe(400);
    for (const n of failClosedAsked.values()) expect(n).toBeLessThanOrEqual(400);
    // Nobody writes QUEUED, and fail-closed declares no fences; it selects every record but a damaged one.
    expect(failClosedAsked.get('admit: QUEUED, same body')).toBe(0);
    expect(failClosedAsked.get('selectable: selected')).toBeGreaterThan(0);
    expect(failClosedAsked.get('fences: post')).toBe(0);
  });

  it("meets a rule set's own statuses and optional decisions", () => {
    const queued = askedOf(queuedInFlight, 300);
    expect(queued.get('admit: QUEUED, same body')).toBeGreaterThan(0);
    // A resubmit of a QUEUED record is its own case: a blind review read the READY count as covering it.
    expect(queued.get('requeue: resubmit (QUEUED)')).toBeGreaterThan(0);
    expect(failClosedAsked.get('requeue: resubmit (QUEUED)')).toBe(0);
    expect(failClosedAsked.get('requeue: resubmit (READY)')).toBeGreaterThan(0);
    // An operator's action while a live engine holds the claim, counted besides the action.
    expect(failClosedAsked.get('requeue: while a live engine holds the claim')).toBeGreaterThan(0);
    const select = askedOf(selectBelowCap, 300);
    expect(select.get('selectable: selected')).toBeGreaterThan(0);
    expect(select.get('selectable: passed over')).toBeGreaterThan(0);
    const fenced = askedOf(leaseUnfenced, 600);
    expect([...fenced].filter(([k, n]) => k.startsWith('fences:') && n > 0).length).toBeGreaterThan(0);
  });

  it('are those of the rule set checked: under skew, the new engines asked on what the old ones wrote, and no old decision counted', () => {
    const skewed = (oldRules: RuleSet) => {
      const r = runShard({ ...planOf(UNSELECTING, 400), oldRules }, 1, 401);
      return new Map(DECISION_CASES.map((c, i) => [`${c.decision}: ${c.name}`, (r.decisions ?? [])[i]]));
    };
    expect(skewed(queuedInFlight).get('admit: QUEUED, same body')).toBeGreaterThan(0);
    expect(skewed(selectBelowCap).get('selectable: selected')).toBe(0);
  });

  it('are a function of the seeds run, however they were split into shards', () => {
    const whole = runShard(planOf(failClosed, 300), 1, 301).decisions;
    const parts = mergeShards([runShard(planOf(failClosed, 300), 1, 120), runShard(planOf(failClosed, 300), 120, 301)]).decisions;
    expect(parts).toEqual(whole);
    // A shard without the counts (a shard file of an older version) leaves the merge without them.
    const older = { ...runShard(planOf(failClosed, 300), 120, 301), decisions: undefined };
    expect(mergeShards([runShard(planOf(failClosed, 300), 1, 120), older]).decisions).toBeUndefined();
  });
});

describe('the report of the decisions asked', () => {
  const decisions = (runs: (name: string) => number) => DECISION_CASES.map((c) => ({ decision: c.decision, case: c.name, runs: runs(`${c.decision}: ${c.name}`) }));

  it('lists the cases asked with their runs, then those not asked, in lines of at most 110 characters', () => {
    const lines = renderDecisions(decisions((k) => (k.startsWith('admit: QUEUED') || k.startsWith('selectable') || k.startsWith('fences') ? 0 : 12_345)));
    expect(lines[0]).toMatch(/^Rule decisions asked in the swarm's runs/);
    for (const l of lines.slice(1)) expect(l.length).toBeLessThanOrEqual(110);
    const admit = lines.findIndex((l) => l.startsWith('  admit'));
    expect(lines[admit]).toContain('no record 12,345;');
    expect(lines.some((l) => l.includes('not asked: QUEUED, same body; QUEUED, new body'))).toBe(true);
    // Continuation lines carry no decision name.
    expect(lines.filter((l) => l.startsWith('  admit')).length).toBe(1);
    // An optional decision no run asked (a rule set that leaves it out) is not listed.
    expect(lines.some((l) => l.includes('selectable') || l.includes('fences'))).toBe(false);
  });

  it('says a decision was never asked, and prints nothing when the counts were not kept', () => {
    const lines = renderDecisions(decisions((k) => (k.startsWith('requeue') ? 0 : 1)));
    expect(lines.find((l) => l.startsWith('  requeue'))).toMatch(/never asked$/);
    expect(renderDecisions(null)).toEqual([]);
    expect(noDecisionRuns()).toHaveLength(DECISION_CASES.length);
  });
});

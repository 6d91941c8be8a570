/**
 * The checker is tested by mutants (issue 4): `check`, run exactly as
 * `outbox-sim check --rules <mutant>` runs it by default (seeds
 * 1..SEEDS_DEFAULT, BOUNDS_DEFAULT, broker drawn per seed, no old rules),
 * must kill every mutant of fail-closed in `mutants/index.ts`, with the
 * property the mistake is meant to break among those it finds. The kill
 * rate, and per mutant the first killing property and seed, are printed.
 *
 * A mutant's seeds run in blocks of BLOCK, in order, until a block has
 * broken the property the mutant is meant to break (the answer the whole
 * budget gives, at a fraction of its cost); a mutant that survives runs the
 * whole budget and fails. The printed number of violating runs is over the
 * seeds run. A survivor (SURVIVORS) always runs the whole budget, after the
 * small worlds that the default check searches before its seeds.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuleSet } from '../model/rules.ts';
import { BOUNDS_DEFAULT, mergeShards, runShard, SEEDS_DEFAULT, type CheckPlan, type ShardResult } from '../sim/check.ts';
import { exploreSuite, smallWorlds } from '../sim/small-worlds.ts';
import { MUTANTS, SURVIVORS } from './mutants/index.ts';
import { withoutAnswer } from '../sim/outbox/events/broker.ts';

const BUDGET = `seeds 1..${SEEDS_DEFAULT}, faultStepsMax ${BOUNDS_DEFAULT.faultStepsMax}, healStepsMax ${BOUNDS_DEFAULT.healStepsMax}, broker per seed`;

/** The plan of `outbox-sim check --rules PATH` with no other flag. */
function defaultPlan(rules: RuleSet, without?: string): CheckPlan {
  return { rules, oldRules: null, seedStart: 1, seeds: SEEDS_DEFAULT, broker: null, ...(without !== undefined ? { world: (o) => withoutAnswer(o, without) } : {}), bounds: BOUNDS_DEFAULT };
}

/** The default check; an entry `withoutAnswer` has that answer switched off in every seed. */
function checkDefault(rules: RuleSet, without?: string): ShardResult {
  const plan = defaultPlan(rules, without);
  return runShard(plan, plan.seedStart, plan.seedStart + plan.seeds);
}

/** Seeds per block of a mutant's check: the first kills come by seed 646 (BENCHMARKS.md). */
const BLOCK = 500;

/** The default check over seeds 1..SEEDS_DEFAULT in blocks, up to the first block after which `breaks` was violated. */
function checkUntilBroken(rules: RuleSet, breaks: string, without?: string): ShardResult & { seedsTo: number } {
  const plan = defaultPlan(rules, without);
  const end = plan.seedStart + plan.seeds;
  let r: ShardResult | null = null;
  let to = plan.seedStart;
  while (to < end && (r === null || r.violatedRuns[breaks] === undefined)) {
    const from = to;
    to = Math.min(end, from + BLOCK);
    const block = runShard(plan, from, to);
    expect(block.runs).toBe(to - from);
    r = r === null ? block : mergeShards([r, block]);
  }
  if (r === null) throw new Error('an empty seed range');
  return { ...r, seedsTo: to - 1 };
}

/** The lowest-seed violation of a check: what killed the mutant first. */
interface Kill {
  property: string;
  seed: number;
  step: number;
  layer: string;
}

function firstKill(r: ShardResult): Kill | null {
  let kill: Kill | null = null;
  for (const c of Object.values(r.first)) {
    if (kill === null || c.seed < kill.seed) kill = { property: c.violation.property, seed: c.seed, step: c.violation.step, layer: c.violation.layer };
  }
  return kill;
}

function runsLine(r: ShardResult): string {
  return Object.entries(r.violatedRuns)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([p, n]) => `${p} ${n}/${r.runs} (first seed ${r.first[p]?.seed})`)
    .join(', ');
}

const killedLines: string[] = [];
const survivorLines: string[] = [];
let killed = 0;
let survived = 0;

describe(`check kills every mutant of fail-closed within the default budget (${BUDGET})`, () => {
  for (const m of MUTANTS) {
    it(`${m.rules.name}${m.withoutAnswer ? ` (no ${m.withoutAnswer})` : ''} is killed (expected: ${m.breaks})`, () => {
      const r = checkUntilBroken(m.rules, m.breaks, m.withoutAnswer);
      const kill = firstKill(r);
      if (kill === null) {
        killedLines.push(`  SURVIVED ${m.rules.name}`);
      } else {
        killed++;
        killedLines.push(`  ${`${m.rules.name}${m.withoutAnswer ? ` [no ${m.withoutAnswer}]` : ''}`.padEnd(38)} killed by ${kill.property} at seed ${kill.seed} (step ${kill.step}, layer ${kill.layer}); violating runs in seeds 1..${r.seedsTo}: ${runsLine(r)}`);
      }
      expect(r.seedsTo).toBeLessThanOrEqual(SEEDS_DEFAULT);
      expect(kill, `${m.rules.name} survived the default budget`).not.toBeNull();
      expect(Object.keys(r.violatedRuns), `${m.rules.name} must break ${m.breaks}`).toContain(m.breaks);
    });
  }
});

/** The violations the default check's small worlds find in `rules` (it searches them before any seed). */
function smallWorldViolations(rules: RuleSet, outDir: string): string[] {
  // The origin is written only into the trace of a violation, which fails the test anyway.
  const source = `properties/mutants/equivalent/${rules.name.replace(/^mutant-/, '')}.ts`;
  const pair = { rules, rulesOrigin: { name: rules.name, source, hash: null }, oldRules: null, oldRulesOrigin: null };
  return exploreSuite(pair, smallWorlds(false), { outDir, replayCommand: (p) => p, now: () => 0 }).flatMap((w) => w.violations.map((v) => `${v.property} in small world "${w.name}"`));
}

describe('candidate mutants the default budget does not catch stay documented (mutants/index.ts SURVIVORS)', () => {
  mkdirSync('.tmp-test', { recursive: true });
  const tmp = mkdtempSync(join('.tmp-test', 'survivors-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  for (const s of SURVIVORS) {
    it(`${s.rules.name} survives (${s.verdict})`, () => {
      // The whole default check: its small worlds, searched to the end, then its seeds.
      expect(smallWorldViolations(s.rules, join(tmp, s.rules.name)), `${s.rules.name} is now caught by a small world: move it from SURVIVORS into MUTANTS`).toEqual([]);
      const r = checkDefault(s.rules);
      const kill = firstKill(r);
      survivorLines.push(`  ${s.rules.name.padEnd(38)} ${kill === null ? 'survived' : `now KILLED by ${kill.property} at seed ${kill.seed}`} [${s.verdict}]: ${s.why}`);
      if (kill === null) survived++;
      // Pinned: when a stronger property or fault kills it, move it into MUTANTS.
      expect(kill, `${s.rules.name} is now killed by ${kill?.property} at seed ${kill?.seed}: move it from SURVIVORS into MUTANTS`).toBeNull();
    });
  }
});

afterAll(() => {
  const total = MUTANTS.length;
  const all = total + SURVIVORS.length;
  const pct = (k: number, n: number) => `${n === 0 ? 0 : Math.round((100 * k) / n)}%`;
  console.log(
    [
      `mutants killed: ${killed}/${total} (${pct(killed, total)}) within the default check budget (${BUDGET})`,
      ...killedLines,
      `candidates surviving the default budget: ${survived}/${SURVIVORS.length} (see SURVIVORS in properties/mutants/index.ts)`,
      ...survivorLines,
      `all candidates: ${all - survived}/${all} killed (${pct(all - survived, all)})`,
    ].join('\n'),
  );
});

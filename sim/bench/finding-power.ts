/**
 * `npm run finding-power`: how fast the default `check` and `explore` find
 * each flawed rule set the repository holds (flawed-rules.ts), written as
 * the finding-power section of BENCHMARKS.md (between its markers; the rest
 * of the file is `npm run bench`'s).
 *
 * Per rule set: the default check as `outbox-sim check --rules R` runs it
 * (the small worlds in order, then seeds 1..5,000), and where it first
 * finds a violation (a small world, or a seed) and after how many seconds;
 * the swarm alone (`--swarm-only`): the first violating seed and its
 * seconds; and `explore` on the rule set's own world: states and seconds to
 * the first violation. Then the median and the worst of each column, and
 * the clean baselines (fail-closed, alone and beside older versions).
 *
 * Seconds are CPU seconds of this process (user + system), not wall-clock
 * time: the machine is shared, and CPU time is what a run costs on an idle
 * core. Exits 1 when a goal is missed (a flawed rule set not found by the
 * default check within 60 s, or not by explore on its world or a suite
 * world), so the script is the regression guard of the table.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';
import { BOUNDS_DEFAULT, runShard, SEEDS_DEFAULT, steppersFor, type CheckPlan } from '../check.ts';
import { loadRules } from '../rules-loader.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../outbox/explore-options.ts';
import { exploreOutbox } from '../outbox/explore-outbox.ts';
import type { RulesPair } from '../outbox/record-trace.ts';
import { exploreSmallWorld, probedWorlds, smallWorlds } from '../small-worlds.ts';
import { flawedRules, type FlawedRules } from './flawed-rules.ts';
import { processCpuSeconds } from './cpu-seconds.ts';
import { upgradeBase } from '../upgrade-base.ts';

/** The rule sets named as `check --rules R --old-rules O` names them (catalog names or files). */
export async function rulesPair(rules: string, oldRules?: string): Promise<RulesPair> {
  const r = await loadRules(rules);
  const o = oldRules !== undefined ? await loadRules(oldRules) : null;
  return { rules: r.rules, rulesOrigin: r.origin, oldRules: o?.rules ?? null, oldRulesOrigin: o?.origin ?? null };
}

/**
 * The rule sets `check --rules R [--old-rules O]` runs, as the CLI names
 * them: without O, the old rules of the upgrade a check runs by default in
 * its small worlds and one seed in four (`upgrade`: from the catalog rule set R extends).
 */
export async function defaultCheckPair(f: Pick<FlawedRules, 'rules' | 'oldRules'>): Promise<{ pair: RulesPair; upgrade: boolean }> {
  const alone = await rulesPair(f.rules, f.oldRules ?? undefined);
  const base = f.oldRules === null ? upgradeBase(alone.rules) : null;
  if (base === null) return { pair: alone, upgrade: false };
  // The checked rule set is loaded once: only the base beside it.
  const o = await loadRules(base);
  return { pair: { ...alone, oldRules: o.rules, oldRulesOrigin: o.origin }, upgrade: true };
}

/** The goal: every flawed rule set found by the default check within this many seconds. */
export const CHECK_SECONDS_GOAL = 60;

/** Where and when the default check first found a violation of one rule set. */
export interface CheckFinding {
  /** A small world's name, or `seed N`. */
  where: string;
  property: string;
  seconds: number;
}

/** The measured finding power of one flawed rule set. */
export interface FindingRow {
  label: string;
  kind: FlawedRules['kind'];
  oldRules: string | null;
  /** The default check (small worlds, then the swarm); null: nothing found in either. */
  check: CheckFinding | null;
  /** The first small world that holds a violation, or null. */
  suiteWorld: string | null;
  /** The swarm alone: first violating seed (1-based from seed 1) and CPU seconds to it; null: none in the default seeds. */
  swarm: { seed: number; property: string; seconds: number } | null;
  /** explore on the rule set's own world, to its first violation. */
  explore: { world: string; states: number; seconds: number; property: string | null };
  /** No bounded world holds the flaw (`FlawedRules.longLifeOnly`): explore and the small worlds are not asked to find it. */
  longLifeOnly?: boolean;
}

function worldName(w: FlawedRules['world']): string {
  // A world's settings (a clock, a lease) by name, as the flags say them, not as an object.
  const parts = Object.entries(w)
    .filter(([k]) => k !== 'skew')
    .flatMap(([k, v]) => (v !== null && typeof v === 'object' ? Object.entries(v as Record<string, unknown>).map(([s, x]) => `${s} ${String(x)}`) : [`${k} ${String(v)}`]));
  return `${w.skew === true ? 'skew' : 'default'}${parts.length > 0 ? `, ${parts.join(', ')}` : ''}`;
}

/** Measures one flawed rule set. */
export async function measure(f: FlawedRules, outDir: string): Promise<FindingRow> {
  const { pair, upgrade } = await defaultCheckPair(f);
  const steppers = steppersFor(pair.rules, pair.oldRules);
  // The small worlds, in check's order, up to the first that holds a violation.
  const suiteStart = processCpuSeconds();
  let suite: { world: string; property: string; seconds: number } | null = null;
  const worlds = probedWorlds(pair, undefined, upgrade);
  for (const [i, w] of worlds.entries()) {
    const r = exploreSmallWorld(pair, steppers, w, i, { outDir, replayCommand: (p) => p, now: processCpuSeconds });
    if (r.violations.length > 0) {
      suite = { world: w.name, property: r.violations[0].property, seconds: processCpuSeconds() - suiteStart };
      break;
    }
  }
  const suiteSeconds = processCpuSeconds() - suiteStart;
  // The swarm alone, one seed at a time up to the first violation.
  // An upgrade by default runs in the small worlds and in the seeds that draw skew (one in four), as check runs it.
  const plan: CheckPlan = { rules: pair.rules, oldRules: pair.oldRules, ...(upgrade ? { skewDrawn: true as const } : {}), seedStart: 1, seeds: SEEDS_DEFAULT, broker: null, bounds: BOUNDS_DEFAULT };
  const swarmStart = processCpuSeconds();
  let swarm: FindingRow['swarm'] = null;
  for (let seed = 1; seed <= SEEDS_DEFAULT && swarm === null; seed++) {
    const r = runShard(plan, seed, seed + 1);
    const first = Object.values(r.first)[0];
    if (first !== undefined) swarm = { seed, property: first.violation.property, seconds: processCpuSeconds() - swarmStart };
  }
  const check: CheckFinding | null = suite !== null
    ? { where: suite.world, property: suite.property, seconds: suite.seconds }
    : swarm !== null ? { where: `seed ${swarm.seed}`, property: swarm.property, seconds: suiteSeconds + swarm.seconds } : null;
  // explore on the rule set's own world.
  const exploreStart = processCpuSeconds();
  const options = exploreOptions({ ...EXPLORE_DEFAULTS, ...f.world });
  const worldRules = { rules: pair.rules, ...(pair.oldRules !== null && f.world.skew === true ? { oldRules: pair.oldRules } : {}) };
  const e = exploreOutbox(options, worldRules, steppers, { statesMax: 2_000_000, liveness: true, stopAtFirst: true });
  const explore = { world: worldName(f.world), states: e.states, seconds: processCpuSeconds() - exploreStart, property: e.violations[0]?.violation.property ?? null };
  return { label: f.label, kind: f.kind, oldRules: f.oldRules, check, suiteWorld: suite?.world ?? null, swarm, explore, ...(f.longLifeOnly === true ? { longLifeOnly: true } : {}) };
}

/** The median of numbers (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The goals a row misses, in words; empty when it meets them. */
export function missedGoals(r: FindingRow): string[] {
  const out: string[] = [];
  if (r.check === null) out.push('not found by the default check');
  else if (r.check.seconds > CHECK_SECONDS_GOAL) out.push(`found by the default check only after ${r.check.seconds.toFixed(1)} s`);
  if (r.explore.property === null && r.suiteWorld === null && r.longLifeOnly !== true) out.push('not found by explore on its world nor on a small world');
  return out;
}

/** A clean baseline: a check of fail-closed (beside an older version) that must find nothing, or, beside a flawed old version, what it finds. */
export interface Baseline {
  label: string;
  suiteStates: number;
  suiteSeconds: number;
  suiteViolations: string[];
  swarmSeconds: number;
  swarmViolations: string[];
  incomplete: string[];
}

async function baseline(oldRules: string | null, outDir: string): Promise<Baseline> {
  const pair = await rulesPair('fail-closed', oldRules ?? undefined);
  const steppers = steppersFor(pair.rules, pair.oldRules);
  const t = processCpuSeconds();
  const results = smallWorlds(pair.oldRules !== null).map((w, i) => exploreSmallWorld(pair, steppers, w, i, { outDir, replayCommand: (p) => p, now: processCpuSeconds }));
  const suiteSeconds = processCpuSeconds() - t;
  const s = processCpuSeconds();
  const r = runShard({ rules: pair.rules, oldRules: pair.oldRules, seedStart: 1, seeds: SEEDS_DEFAULT, broker: null, bounds: BOUNDS_DEFAULT }, 1, SEEDS_DEFAULT + 1);
  return {
    label: `check${oldRules === null ? '' : ` --old-rules ${oldRules}`}`,
    suiteStates: results.reduce((n, w) => n + w.states, 0),
    suiteSeconds,
    suiteViolations: [...new Set(results.flatMap((w) => w.violations.map((v) => `${v.property} (${w.name})`)))],
    swarmSeconds: processCpuSeconds() - s,
    swarmViolations: Object.entries(r.violatedRuns).map(([p, n]) => `${p} (${n} runs, first seed ${r.first[p]?.seed})`),
    incomplete: results.filter((w) => !w.complete && w.violations.length === 0).map((w) => w.name),
  };
}

const fmt = (x: number): string => x.toLocaleString('en-US');
const sec = (x: number): string => x.toFixed(2);

/** The section of BENCHMARKS.md. */
export function renderSection(rows: readonly FindingRow[], baselines: readonly Baseline[], meta: { date: string; cpu: string; node: string }): string[] {
  const lines: string[] = [];
  const log = (l = '') => lines.push(l);
  log('## Finding power: seconds to the first violation of every flawed rule set');
  log('');
  log(`Measured by \`npm run finding-power\` on ${meta.date}: ${meta.cpu}, Node ${meta.node}. Seconds are CPU seconds of the measuring process (user + system): the machine is shared, and CPU time is what a run costs on an idle core.`);
  log('');
  log('Every flawed rule set the repository holds (sim/bench/flawed-rules.ts): the catalog\'s two flaws, the mutants of fail-closed that are not equivalent to it, and the rule-API test rule sets with a flaw (two of them beside their older version, `--old-rules`). Per rule set: **default check**, as `outbox-sim check --rules R` runs it (the small worlds in order, then seeds 1..5,000): where it first finds a violation and after how many seconds; **swarm alone** (`--swarm-only`): the first violating seed and the seconds to it; **explore** on the rule set\'s own world: states and seconds to the first violation.');
  log('');
  log('| rule set | from | default check finds | where | s | swarm alone: first seed | s | explore world | states | s |');
  log('| --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: |');
  for (const r of rows) {
    log(`| ${r.label}${r.oldRules === null ? '' : ' (+ old)'} | ${r.kind} | ${r.check?.property ?? '**nothing**'} | ${r.check?.where ?? ''} | ${r.check === null ? '' : sec(r.check.seconds)} | ${r.swarm === null ? 'none in 5,000' : fmt(r.swarm.seed)} | ${r.swarm === null ? '' : sec(r.swarm.seconds)} | ${r.explore.world} | ${fmt(r.explore.states)}${r.explore.property === null ? (r.longLifeOnly === true ? ' (none: no bounded world holds it; long life or deep cycles)' : ' (none)') : ''} | ${sec(r.explore.seconds)} |`);
  }
  const checkSeconds = rows.flatMap((r) => (r.check === null ? [] : [r.check.seconds]));
  const swarmSeeds = rows.flatMap((r) => (r.swarm === null ? [] : [r.swarm.seed]));
  const swarmSeconds = rows.flatMap((r) => (r.swarm === null ? [] : [r.swarm.seconds]));
  const exploreStates = rows.map((r) => r.explore.states);
  const exploreSeconds = rows.map((r) => r.explore.seconds);
  const worst = <T>(xs: readonly T[], key: (x: T) => number): T | undefined => xs.reduce<T | undefined>((a, x) => (a === undefined || key(x) > key(a) ? x : a), undefined);
  const worstCheck = worst(rows.filter((r) => r.check !== null), (r) => r.check?.seconds ?? 0);
  const worstSwarm = worst(rows.filter((r) => r.swarm !== null), (r) => r.swarm?.seed ?? 0);
  const worstExplore = worst(rows, (r) => r.explore.seconds);
  log('');
  log('| over all rows | median | worst |');
  log('| --- | ---: | ---: |');
  log(`| default check: s to the first violation (${checkSeconds.length}/${rows.length} found) | ${sec(median(checkSeconds))} | ${worstCheck?.check ? `${sec(worstCheck.check.seconds)} (${worstCheck.label})` : ''} |`);
  log(`| swarm alone: first violating seed (${swarmSeeds.length}/${rows.length} found in 5,000) | ${fmt(median(swarmSeeds))} | ${worstSwarm?.swarm ? `${fmt(worstSwarm.swarm.seed)} (${worstSwarm.label})` : ''} |`);
  log(`| swarm alone: s to the first violation | ${sec(median(swarmSeconds))} | ${sec(Math.max(...swarmSeconds, 0))} |`);
  log(`| explore: states to the first violation | ${fmt(median(exploreStates))} | ${fmt(Math.max(...exploreStates))} |`);
  log(`| explore: s to the first violation | ${sec(median(exploreSeconds))} | ${worstExplore ? `${sec(worstExplore.explore.seconds)} (${worstExplore.label})` : ''} |`);
  const catalog = rows.filter((r) => r.kind === 'catalog');
  log('');
  log(`Goals: found by the default check within ${CHECK_SECONDS_GOAL} s: ${rows.filter((r) => r.check !== null && r.check.seconds <= CHECK_SECONDS_GOAL).length}/${rows.length}; by explore on its world or a small world: ${rows.filter((r) => r.explore.property !== null || r.suiteWorld !== null).length}/${rows.filter((r) => r.longLifeOnly !== true).length} (${rows.filter((r) => r.longLifeOnly === true).length} held by no bounded world, found by long life or deep cycles); found by the small worlds before any seed: ${rows.filter((r) => r.suiteWorld !== null).length}/${rows.length}; median ${sec(median(checkSeconds))} s (goal: under 2 s); the catalog's flaws ${catalog.map((r) => `${r.label} ${r.check === null ? 'not found' : `${sec(r.check.seconds)} s`}`).join(', ')} (goal: under 1 s each).`);
  const missed = rows.flatMap((r) => missedGoals(r).map((m) => `${r.label}: ${m}`));
  if (missed.length > 0) log(`MISSED: ${missed.join('; ')}.`);
  log('');
  log('Clean baselines (the whole default check; fail-closed must stay clean; beside fresh-cycle, the old version\'s own flaws are reported as before):');
  log('');
  log('| check | small worlds: states | s | violations | swarm (5,000 seeds) s | violations |');
  log('| --- | ---: | ---: | --- | ---: | --- |');
  for (const b of baselines) {
    log(`| \`${b.label}\` | ${fmt(b.suiteStates)}${b.incomplete.length > 0 ? ` (partial: ${b.incomplete.join(', ')})` : ''} | ${sec(b.suiteSeconds)} | ${b.suiteViolations.join('; ') || 'none'} | ${sec(b.swarmSeconds)} | ${b.swarmViolations.join('; ') || 'none'} |`);
  }
  log('');
  log('How the table guards regressions: `npm run finding-power` exits 1 when a goal above is missed (a row not found by the default check within 60 s, or by explore on its world nor a small world; a violation in fail-closed\'s baselines), and `sim/bench/finding-power.test.ts`, in `npm test`, holds every row to being found by a small world of the default check (a row held by no bounded world, a record that grows a few bytes a cycle or a cap past a dozen requeues, to being found by long life or deep cycles in the swarm\'s default seeds and by no small world), so a change to the suite, the explorer or long life that loses a finding fails the tests; `properties/mutants.test.ts` holds the swarm alone to killing every mutant in its 5,000 seeds. An explore count marked (none): the rule set\'s own default world holds no violation; the small world named under where does (or, marked no bounded world, long life or deep cycles at the seed named). Reproduce: `npm run finding-power` (rewrites this section only; `npm run bench` keeps it).');
  return lines;
}

export const SECTION_START = '<!-- finding-power:start -->';
export const SECTION_END = '<!-- finding-power:end -->';

/** The lines of the finding-power section of a BENCHMARKS.md, or null when it has none. */
export function keptSection(file: string): string[] | null {
  const a = file.indexOf(SECTION_START);
  const b = file.indexOf(SECTION_END);
  return a >= 0 && b > a ? file.slice(a + SECTION_START.length, b).replace(/^\n|\n$/g, '').split('\n') : null;
}

/** BENCHMARKS.md with its finding-power section replaced (or appended). */
export function withSection(file: string, section: readonly string[]): string {
  const block = [SECTION_START, ...section, SECTION_END].join('\n');
  const a = file.indexOf(SECTION_START);
  const b = file.indexOf(SECTION_END);
  if (a >= 0 && b > a) return `${file.slice(0, a)}${block}${file.slice(b + SECTION_END.length)}`;
  return `${file.trimEnd()}\n\n${block}\n`;
}

export async function main(args: string[]): Promise<number> {
  const only = args.filter((a) => !a.startsWith('--'));
  const outDir = mkdtempSync(join(tmpdir(), 'finding-power-'));
  try {
    // Warm the compilers up first, so that the first row is not charged for them.
    await measure({ label: 'warm-up', kind: 'catalog', rules: 'fresh-cycle', oldRules: null, world: {} }, outDir);
    const rows: FindingRow[] = [];
    for (const f of flawedRules().filter((x) => only.length === 0 || only.includes(x.label))) {
      const r = await measure(f, outDir);
      rows.push(r);
      console.error(`${r.label}: check ${r.check === null ? 'nothing' : `${r.check.property} in ${r.check.where} at ${sec(r.check.seconds)} s`}; swarm ${r.swarm === null ? 'none' : `seed ${r.swarm.seed}`}; explore ${fmt(r.explore.states)} states ${sec(r.explore.seconds)} s`);
    }
    const baselines = args.includes('--no-baselines') ? [] : [await baseline(null, outDir), await baseline('fail-closed', outDir), await baseline('fresh-cycle', outDir)];
    const section = renderSection(rows, baselines, { date: new Date().toISOString().slice(0, 10), cpu: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`, node: process.version });
    if (only.length === 0) writeFileAtomic('BENCHMARKS.md', withSection(readFileSync('BENCHMARKS.md', 'utf8'), section));
    else console.log(section.join('\n'));
    const missed = rows.flatMap((r) => missedGoals(r));
    const dirty = baselines.filter((b) => b.label !== 'check --old-rules fresh-cycle' && (b.suiteViolations.length > 0 || b.swarmViolations.length > 0));
    return missed.length > 0 || dirty.length > 0 ? 1 : 0;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

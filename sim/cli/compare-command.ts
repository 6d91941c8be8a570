/**
 * `outbox-sim compare A B ... [--format text|md|json]`: every rule set gets
 * the same seeds, budget and options (a seeded check, then an exhaustive
 * search of the default bounded world); one table of rule set by property:
 * holds (runs, and states searched) or violated (trace id, steps, replay).
 */
import { BOUNDS_DEFAULT, SEEDS_DEFAULT, steppersFor } from '../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../outbox/explore-options.ts';
import { exploreOutbox } from '../outbox/explore-outbox.ts';
import { writeCounterexample } from '../outbox/record-trace.ts';
import { outboxProperties } from '../../properties/outbox.ts';
import { runSeedsParallel } from '../workers/pool.ts';
import { replayCommand, rulesPair, writeFirstCounterexamples } from './check-command.ts';
import { choiceFlag, intFlag } from './errors.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';
import { checkOutputFolder } from './output-place.ts';

/** One cell of the table. */
export interface CompareRow {
  rules: string;
  property: string;
  verdict: 'holds' | 'violated';
  trace: string | null;
  steps: number | null;
  runs: number;
  /** States the exhaustive search checked this property on; null for liveness properties, which only seeded runs check. */
  states: number | null;
  complete: boolean;
  replay: string | null;
}

const FORMATS = ['text', 'md', 'json'] as const;

const PROPERTIES = outboxProperties();

/** The properties compared: the safety and liveness ones, and quiet-after-healing. */
const COMPARED = [...PROPERTIES.filter((p) => p.kind !== 'sometimes').map((p) => p.name), 'quiet-after-healing'];

/** The world every rule set is searched in. */
const SEARCHED_WORLD = exploreOptions(EXPLORE_DEFAULTS);

/** Whether the exhaustive search checks a property (it checks the `always` ones). */
function searched(property: string): boolean {
  return PROPERTIES.some((p) => p.name === property && p.kind === 'always');
}

export async function compareCommand(
  specs: string[],
  flags: { format?: string; seeds?: string; maxStates?: string; workers?: string; out?: string },
  io: Io,
): Promise<number> {
  if (specs.length === 0) throw new UsageError('compare needs at least one rule set (a catalog name or a .ts file)');
  const format = choiceFlag('--format', flags.format, FORMATS, 'text');
  const seeds = intFlag('--seeds', flags.seeds, SEEDS_DEFAULT, 1, 10_000_000);
  const statesMax = intFlag('--max-states', flags.maxStates, 200_000, 1, 100_000_000);
  const workers = intFlag('--workers', flags.workers, 1, 1, 64);
  const outDir = flags.out ?? 'traces/found';
  checkOutputFolder('--out', outDir);
  const pairs = [];
  for (const spec of specs) pairs.push({ spec, pair: await rulesPair(spec, undefined) });
  const rows: CompareRow[] = [];
  for (const { spec, pair } of pairs) {
    const merged = await runSeedsParallel({ rules: spec, oldRules: null, broker: null, bounds: BOUNDS_DEFAULT }, 1, seeds + 1, workers);
    const written = writeFirstCounterexamples(pair, merged, outDir, BOUNDS_DEFAULT);
    const options = SEARCHED_WORLD;
    const steppers = steppersFor(pair.rules, null);
    const search = exploreOutbox(options, { rules: pair.rules }, steppers, { statesMax, stopAtFirst: false });
    const exploreTraces = search.violations.map((v) => writeCounterexample(outDir, pair, steppers, 0, options, v.events, v.violation.property, 'explore', BOUNDS_DEFAULT.healStepsMax, false));
    for (const property of COMPARED) {
      const w = written.find((x) => x.violation.property === property) ?? exploreTraces.find((x) => x.violation.property === property);
      rows.push({
        rules: pair.rules.name,
        property,
        verdict: w ? 'violated' : 'holds',
        trace: w?.trace.id ?? null,
        steps: w?.stepsAfter ?? null,
        runs: merged.runs,
        states: searched(property) ? search.states : null,
        complete: search.complete,
        replay: w ? replayCommand(w.path) : null,
      });
    }
  }
  const anyViolated = rows.some((r) => r.verdict === 'violated');
  if (format === 'json') {
    io.out(JSON.stringify({ rows }));
    return anyViolated ? 1 : 0;
  }
  const cell = (r: CompareRow) =>
    r.verdict === 'holds'
      ? `holds (${r.runs.toLocaleString('en-US')} runs${r.states === null ? '' : `, ${r.states.toLocaleString('en-US')} states${r.complete ? '' : ', partial'}`})`
      : `VIOLATED: trace ${r.trace}, ${r.steps} steps`;
  const properties = COMPARED;
  const names = pairs.map((p) => p.pair.rules.name);
  if (format === 'md') {
    io.out(`| rule set | ${properties.join(' | ')} |`);
    io.out(`| --- | ${properties.map(() => '---').join(' | ')} |`);
    for (const n of names) io.out(`| \`${n}\` | ${properties.map((p) => cell(rows.find((r) => r.rules === n && r.property === p) as CompareRow)).join(' | ')} |`);
    io.out('');
    io.out(`Each rule set: ${seeds.toLocaleString('en-US')} seeded worlds (same seeds for all), then an exhaustive search of the default bounded world (at most ${statesMax.toLocaleString('en-US')} states) for the always-properties; liveness properties are checked by the seeded runs only.`);
    const violated = rows.filter((r) => r.verdict === 'violated');
    if (violated.length > 0) {
      io.out('');
      io.out('Replay a counterexample:');
      io.out('');
      for (const r of violated) io.out(`- \`${r.rules}\` / ${r.property}: \`${r.replay}\``);
    }
    return anyViolated ? 1 : 0;
  }
  for (const n of names) {
    io.out(n);
    for (const p of properties) {
      const r = rows.find((x) => x.rules === n && x.property === p) as CompareRow;
      io.out(`  ${p.padEnd(22)} ${cell(r)}${r.replay ? `  (${r.replay})` : ''}`);
    }
  }
  return anyViolated ? 1 : 0;
}

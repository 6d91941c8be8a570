/**
 * `outbox-sim compare A B ... [--format text|md|json]`: every rule set gets
 * the same seeds, budget and options (a seeded check, then an exhaustive
 * search of the default bounded world); one table of rule set by property:
 * holds (runs, and states searched) or violated (trace id, steps, replay).
 */
import { countNoun, countText } from '../count-text.ts';
import { BOUNDS_DEFAULT, SEEDS_DEFAULT, steppersFor } from '../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../outbox/explore-options.ts';
import { counterexampleOf, exploreOutbox } from '../outbox/explore-outbox.ts';
import { writeCounterexample } from '../outbox/record-trace.ts';
import { outboxProperties } from '../outbox/properties.ts';
import { runSeedsParallel } from '../workers/pool.ts';
import { pinsField, replayCommand, rulesPair, writeFirstCounterexamples } from './check-command.ts';
import { probeRuleFiles } from '../rules-state-probe.ts';
import { choiceFlag, intFlag } from './errors.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';
import { catalogRules } from '../../model/catalog/index.ts';
import { mdCode } from '../../traces/render/markdown.ts';
import { terminalText } from '../terminal-text.ts';
import { checkFaultError, faultTraced } from './rule-fault.ts';
import { checkOutputFolder } from './output-place.ts';
import { EXIT_PARTIAL } from './exit-codes.ts';
import type { Outcome } from './outcome.ts';

/** One cell of the table. */
export interface CompareRow {
  /** The rule set's name. */
  rules: string;
  /** The row's label: the name, with the argument when the name alone does not say which one (see {@link rowLabels}). */
  label: string;
  /** The argument (catalog name or file path) as given. */
  source: string;
  property: string;
  verdict: 'holds' | 'violated';
  trace: string | null;
  /** The file of that trace (null when the property held). */
  path: string | null;
  steps: number | null;
  runs: number;
  /** States the exhaustive search checked this property on; null for a property it did not check. */
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


/** Default bound of the exhaustive search per rule set. */
export const COMPARE_STATES_DEFAULT = 200_000;

/**
 * The label of each argument's row. Rows belong to arguments, not to names:
 * two files may export rule sets of one name, and a user's file may reuse a
 * catalog name. Such a name gets its file beside it, `fail-closed
 * (./mine.ts)`, or `(catalog)`; the same argument given twice, its position
 * as well.
 */
export function rowLabels(args: readonly { spec: string; name: string; catalog: boolean }[]): string[] {
  const catalogNames = new Set(args.filter((a) => a.catalog).map((a) => a.name));
  const named = (name: string) => args.filter((a) => a.name === name).length;
  const first = args.map((a) =>
    named(a.name) > 1 || (!a.catalog && (catalogNames.has(a.name) || catalogRules(a.name) !== undefined)) ? `${a.name} (${a.catalog ? 'catalog' : a.spec})` : a.name,
  );
  return first.map((label, i) => (first.filter((l) => l === label).length > 1 ? `${label} #${i + 1}` : label));
}

/** A label as Markdown inline code inside a table cell. */
function mdLabel(label: string): string {
  return mdCode(terminalText(label)).replace(/\|/g, '\\|');
}

/** Flags of `compare` as commander gives them. */
export interface CompareFlags {
  format?: string;
  seeds?: string;
  maxStates?: string;
  workers?: string;
  out?: string;
}

/** What `compare --format json` prints. */
export interface CompareResult {
  rows: CompareRow[];
}

export async function compareCommand(specs: string[], flags: CompareFlags, io: Io): Promise<number> {
  return (await runCompare(specs, flags, io)).code;
}

/** The whole of `compare`: the CLI's command and the library's `compare` (sim/api/) both run it. */
export async function runCompare(specs: string[], flags: CompareFlags, io: Io): Promise<Outcome<CompareResult>> {
  if (specs.length === 0) throw new UsageError('compare needs at least one rule set (a catalog name or a .ts file)');
  const format = choiceFlag('--format', flags.format, FORMATS, 'text');
  const seeds = intFlag('--seeds', flags.seeds, SEEDS_DEFAULT, 1, 10_000_000);
  const statesMax = intFlag('--max-states', flags.maxStates, COMPARE_STATES_DEFAULT, 1, 100_000_000);
  const workers = intFlag('--workers', flags.workers, 1, 1, 64);
  const outDir = flags.out ?? 'traces/found';
  checkOutputFolder('--out', outDir);
  const pairs = [];
  for (const spec of specs) pairs.push({ spec, pair: await rulesPair(spec, undefined) });
  for (const { pair } of pairs) await probeRuleFiles(pair.loaded);
  const labels = rowLabels(pairs.map(({ spec, pair }) => ({ spec, name: pair.rules.name, catalog: pair.rulesOrigin.source === 'catalog' })));
  // The table's rows, one per argument in order, each its properties' cells.
  const table: CompareRow[][] = [];
  for (const [i, { spec, pair }] of pairs.entries()) {
    const cells: CompareRow[] = [];
    const merged = await runSeedsParallel({ rules: spec, oldRules: null, ...pinsField(pair.pins), broker: null, bounds: BOUNDS_DEFAULT }, 1, seeds + 1, workers);
    if (merged.fault !== undefined) throw checkFaultError(pair, steppersFor(pair.rules, null), merged.fault, outDir, 'compare');
    const written = writeFirstCounterexamples(pair, merged, outDir, BOUNDS_DEFAULT, undefined, 'compare');
    const options = SEARCHED_WORLD;
    const steppers = steppersFor(pair.rules, null);
    const search = faultTraced(() => exploreOutbox(options, { rules: pair.rules }, steppers, { statesMax, stopAtFirst: false, liveness: true }), { pair, steppers, options, outDir, origin: 'compare' });
    // A cell shows the seeded check's trace (shrunk, and found first), or else the search's. Only the trace a cell shows
    // is written: a search trace of a property the seeds also violated would be a file in --out that no output names.
    const searchTrace = (property: string) => {
      const v = search.violations.find((x) => x.violation.property === property);
      if (v === undefined) return undefined;
      const c = counterexampleOf(options, v);
      return writeCounterexample(outDir, pair, steppers, 0, c.options, c.events, property, 'compare explore', BOUNDS_DEFAULT.healStepsMax, false);
    };
    for (const property of COMPARED) {
      const w = written.find((x) => x.violation.property === property) ?? searchTrace(property);
      cells.push({
        rules: pair.rules.name,
        label: labels[i],
        source: spec,
        property,
        verdict: w ? 'violated' : 'holds',
        trace: w?.trace.id ?? null,
        path: w?.path ?? null,
        steps: w?.stepsAfter ?? null,
        runs: merged.runs,
        states: search.checked.includes(property) ? search.states : null,
        complete: search.complete,
        replay: w ? replayCommand(w.path, pair) : null,
      });
    }
    table.push(cells);
  }
  const rows = table.flat();
  const anyViolated = rows.some((r) => r.verdict === 'violated');
  // Nothing violated, yet some rule set's search stopped at --max-states: not a proof (exit 3, as explore).
  const exitCode = anyViolated ? 1 : rows.every((r) => r.complete) ? 0 : EXIT_PARTIAL;
  const outcome = { code: exitCode, result: { rows } };
  if (format === 'json') {
    io.out(JSON.stringify(outcome.result));
    return outcome;
  }
  const cell = (r: CompareRow) =>
    r.verdict === 'holds'
      ? `holds (${countNoun(r.runs, 'run')}${r.states === null ? '' : `, ${countText(r.states)} states${r.complete ? '' : ', partial'}`})`
      : `VIOLATED: trace ${r.trace}, ${r.steps} steps`;
  const properties = COMPARED;
  if (format === 'md') {
    io.out(`| rule set | ${properties.join(' | ')} |`);
    io.out(`| --- | ${properties.map(() => '---').join(' | ')} |`);
    for (const [i, label] of labels.entries()) io.out(`| ${mdLabel(label)} | ${table[i].map(cell).join(' | ')} |`);
    io.out('');
    io.out(`Each rule set: ${countText(seeds)} seeded worlds (same seeds for all), then an exhaustive search of the default bounded world (at most ${countText(statesMax)} states) for every property in the table (the always-properties at every state, the eventually-properties at every state where the system would be quiet once faults stop, and quiet-after-healing as a cycle of steps the steady broker and the engines could take forever).`);
    const violated = rows.filter((r) => r.verdict === 'violated');
    if (violated.length > 0) {
      io.out('');
      io.out('Replay a counterexample:');
      io.out('');
      for (const r of violated) io.out(`- ${mdLabel(r.label)} / ${r.property}: ${mdCode(terminalText(r.replay ?? ''))}`);
    }
    return outcome;
  }
  for (const [i, label] of labels.entries()) {
    io.out(terminalText(label));
    for (const r of table[i]) io.out(`  ${r.property.padEnd(22)} ${cell(r)}${r.replay ? `  (${terminalText(r.replay)})` : ''}`);
  }
  return outcome;
}

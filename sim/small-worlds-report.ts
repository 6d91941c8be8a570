/**
 * The part of `check`'s report about its two halves beyond the swarm's own
 * counts: the small worlds explored completely (each: states, complete or
 * not, the violations with their shortest traces) and the pairwise coverage
 * of the swarm's features (which pairs of feature values occurred).
 */
import { SUITE_STATES_MAX, type SmallWorldResult } from './small-worlds.ts';
import { SETTINGS } from './outbox/events/table.ts';
import type { PairCoverage } from './outbox/swarm-coverage.ts';
import { countText as n } from './count-text.ts';
import { terminalText } from './terminal-text.ts';

/** The small worlds of a check, as `--json` prints them. */
export interface SmallWorldsReport {
  /** No violation in any world searched. */
  ok: boolean;
  /** Every world of the suite was searched to its end or to a violation (none cut by the state bound or an interrupt). */
  decided: boolean;
  /** Worlds of the suite not searched: an interrupt, `--stop-on-first`, or the suite's bound of states spent. */
  unsearched: number;
  states: number;
  seconds: number;
  worlds: SmallWorldResult[];
}

/** Sums up the searched worlds. */
export function smallWorldsReport(worlds: SmallWorldResult[], seconds: number, planned: number): SmallWorldsReport {
  return {
    ok: worlds.every((w) => w.violations.length === 0),
    decided: worlds.length === planned && worlds.every((w) => w.complete || w.violations.length > 0),
    unsearched: planned - worlds.length,
    states: worlds.reduce((n, w) => n + w.states, 0),
    seconds,
    worlds,
  };
}

/** A world's verdict in a few words. */
function verdict(w: SmallWorldResult): string {
  if (w.violations.length > 0) return `VIOLATED ${w.violations.map((v) => v.property).join(', ')}`;
  // A proof that leaves quiet states unjudged says so, as explore's does (docs/rules.md, 'Time').
  if (w.complete && (w.waitingUnjudged ?? 0) > 0) return `complete, no violation; liveness not judged at ${n(w.waitingUnjudged ?? 0)} quiet states waiting for a time this world does not reach`;
  if (w.complete) return 'complete, no violation';
  return `PARTIAL (stopped by ${w.stoppedBy ?? 'a bound'}): not a proof`;
}

/**
 * The violations of the small worlds, for the RESULT block: per property,
 * the first world that holds it with its shortest trace and replay command,
 * then the other worlds that hold it too (their traces are written as well,
 * and listed in the JSON).
 */
export function smallWorldViolationLines(r: SmallWorldsReport): string[] {
  const lines: string[] = [];
  const properties = [...new Set(r.worlds.flatMap((w) => w.violations.map((v) => v.property)))];
  for (const p of properties) {
    const holding = r.worlds.filter((w) => w.violations.some((v) => v.property === p));
    const [w] = holding;
    const v = w.violations.find((x) => x.property === p);
    if (v === undefined) continue;
    lines.push(`  ${p} (small world "${w.name}", ${n(w.states)} states searched): ${terminalText(v.detail)}`);
    lines.push(`    shortest trace ${v.trace}: ${terminalText(v.path)} (${v.steps} steps)`);
    lines.push(`    replay: ${terminalText(v.replay)}`);
    // A reader had to infer from world names that the flaw is the upgrade's.
    if (holding.every((x) => x.sizes.skew)) lines.push('    held only by worlds of both versions: it shows while old and new engines drain the outbox side by side (version skew), not under the new rules alone');
    if (holding.length > 1) lines.push(`    also in ${holding.length - 1} other small world${holding.length === 2 ? '' : 's'}: ${holding.slice(1).map((x) => x.name).join('; ')}`);
  }
  return lines;
}

/** How many worlds were searched without the symmetry reduction asked for, per reason. */
function symmetryOffCounts(worlds: readonly SmallWorldResult[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of worlds) if (w.symmetryOff !== undefined) counts.set(w.symmetryOff, (counts.get(w.symmetryOff) ?? 0) + 1);
  return counts;
}

/**
 * The world settings every searched world has, with one value, as their
 * flags (`--ticks 100000`): the suite's first world (the default, or under
 * old rules the skewed default) has none of its own, so a setting every
 * world has came from the command line.
 */
function settingsGivenEveryWorld(worlds: readonly SmallWorldResult[]): string[] {
  if (worlds.length === 0) return [];
  const first = worlds[0].sizes.settings ?? {};
  return SETTINGS.filter((s) => first[s.name] !== undefined && first[s.name] !== s.off && worlds.every((w) => w.sizes.settings?.[s.name] === first[s.name])).map((s) => `${s.flag} ${first[s.name]}`);
}

/** The table of worlds. */
export function renderSmallWorlds(r: SmallWorldsReport): string[] {
  const lines = [`Small worlds explored completely (${r.worlds.length} worlds, ${n(r.states)} states, ${r.seconds.toFixed(1)} s):`];
  const width = Math.max(...r.worlds.map((w) => w.name.length), 10);
  for (const w of r.worlds) lines.push(`  ${w.name.padEnd(width)} ${n(w.states).padStart(10)} states  ${w.seconds.toFixed(1).padStart(5)} s  ${verdict(w)}`);
  // A suite of more states than the same worlds under another rule set: say why, once per reason.
  for (const [why, count] of symmetryOffCounts(r.worlds)) lines.push(`  symmetry off in ${count === r.worlds.length ? `every world` : `${count} of the ${r.worlds.length} worlds`}: ${terminalText(why)}; every state stored`);
  // Only a clean suite claims anything of every world: once one is violated the verdict is a
  // finding, and a world left unsearched (--stop-on-first ends the suite there) is a plain note.
  const violated = r.worlds.some((w) => w.violations.length > 0);
  if (r.unsearched > 0 && r.states >= SUITE_STATES_MAX) {
    const given = settingsGivenEveryWorld(r.worlds);
    // A setting the command line gave every world (a clock of 100,000 ticks) is the likelier cause: say it first.
    const why = given.length > 0
      ? `Here every world took ${given.join(', ')} from the command line, which multiplies its states (the suite's own worlds are kept small: its clock world runs to tick 2); give such settings to \`explore\` on one world instead. Otherwise worlds this large often mean a record field that grows without end (an attempt counter never capped, a history never trimmed).`
      : 'Worlds this large often mean a record field that grows without end (an attempt counter never capped, a history never trimmed).';
    lines.push(`The suite stopped after ${r.worlds.length} worlds: their ${n(r.states)} states passed its bound of ${n(SUITE_STATES_MAX)}, and ${r.unsearched} world${r.unsearched === 1 ? ' was' : 's were'} not searched. ${why}`);
  }
  if (!r.decided && !violated) lines.push('WARNING: a small world was not searched to its end: the suite proves nothing about it');
  if (!r.decided && violated) lines.push('Note: not every small world was searched to its end (the verdict above stands on the violation found)');
  return lines;
}

/** One line on the swarm's pairwise coverage. */
export function renderCoverage(c: PairCoverage, from: number): string[] {
  const after = Object.entries(c.coveredAfter).map(([k, v]) => `${n(v)} after ${n(Number(k))} seeds`).join(', ');
  const lines = [`Pairwise coverage: ${n(c.covered)}/${n(c.pairs)} pairs of values of ${c.features} features occurred${c.allBySeed === null ? '' : `, all by seed ${c.allBySeed} (${n(c.allBySeed - from + 1)} seeds)`}; ${after}`];
  if (c.missing.length > 0) lines.push(`WARNING: pairs that never occurred: ${c.missing.join('; ')}${c.covered + c.missing.length < c.pairs ? ' ...' : ''}`);
  return lines;
}

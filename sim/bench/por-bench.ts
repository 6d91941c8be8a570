/**
 * `npm run bench -- --only por`: what partial-order reduction (`explore
 * --por`) adds to symmetry reduction, side by side in one run: states,
 * transitions and CPU seconds to a complete verdict of the `always`
 * properties for fail-closed, with symmetry alone, symmetry and POR, and
 * POR alone (no symmetry: capped, no verdict where the space is larger).
 * Rounds alternate the three; the best CPU seconds of each are quoted.
 * Wall-clock time is read here, for reporting only.
 */
import { failClosed } from '../../model/catalog/index.ts';
import { steppersFor } from '../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../outbox/explore-options.ts';
import { exploreOutbox } from '../outbox/explore-outbox.ts';
import { processCpuSeconds } from './cpu-seconds.ts';

/** Worlds of fail-closed: engines, attempts, crashes, and the rounds each is timed (larger worlds fewer). */
export const POR_WORLDS = [
  [2, 2, 1, 3],
  [3, 3, 3, 1],
  [4, 4, 4, 1],
  [5, 5, 5, 1],
] as const;

/** Bound of the searches with symmetry (5 engines: about 2.3 million classes). */
export const POR_STATES_MAX = 4_000_000;
/** Bound of the searches without symmetry (`--por` alone): no verdict past it (3 engines' space is 2.7 million states). */
export const POR_ALONE_STATES_MAX = 1_000_000;

export interface Timed {
  states: number;
  transitions: number;
  complete: boolean;
  reduced: number;
  cpuSeconds: number;
}

/** One search of the `always` properties (no liveness: POR does not preserve it, and the rows compare like with like), in this process. */
function timeAlways(engines: number, attempts: number, crashes: number, symmetry: boolean, por: boolean): Timed {
  const options = exploreOptions({ ...EXPLORE_DEFAULTS, engines, attemptsMax: attempts, crashesMax: crashes });
  const cpu = processCpuSeconds();
  const statesMax = symmetry ? POR_STATES_MAX : POR_ALONE_STATES_MAX;
  const r = exploreOutbox(options, { rules: failClosed }, steppersFor(failClosed, null), { statesMax, symmetry, por });
  return { states: r.states, transitions: r.transitions, complete: r.complete, reduced: r.por?.reduced ?? 0, cpuSeconds: processCpuSeconds() - cpu };
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The heading of the section {@link porSection} writes (`npm run bench -- --only por` replaces it; the whole bench keeps it as it stands). */
export const POR_HEADING = '## explore: partial-order reduction on top of symmetry';

/** The section's lines; `worlds` to time fewer (tests). */
export function porSection(log: (s: string) => void, worlds: readonly (readonly [number, number, number, number])[] = POR_WORLDS, progress: (s: string) => void = () => {}): void {
  log(POR_HEADING);
  log('');
  log(`\`outbox-sim explore --engines N --attempts A --crashes C\` for fail-closed (one id, 2 bodies), the always properties only (\`--por\` does not check the eventually ones), in this process: symmetry alone (the default), symmetry and \`--por\`, \`--por --no-symmetry\` (stopped at ${fmt(POR_ALONE_STATES_MAX)} states: no verdict where the space is larger). The three alternate in each round; CPU seconds (this process, all threads) are the best of the rounds. "reduced" counts the states expanded through an ample set (docs/explore-reduction.md says why they are few).`);
  log('');
  log('| engines | attempts | crashes | rounds | symmetry: states | transitions | CPU s | + por: states | transitions | reduced | CPU s | por alone: states | complete | CPU s | **states, symmetry / + por** |');
  log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |');
  const rows: PorRow[] = [];
  for (const [engines, attempts, crashes, rounds] of worlds) {
    const runs: Timed[][] = [[], [], []];
    for (let r = 0; r < rounds; r++) {
      runs[0].push(timeAlways(engines, attempts, crashes, true, false));
      runs[1].push(timeAlways(engines, attempts, crashes, true, true));
      runs[2].push(timeAlways(engines, attempts, crashes, false, true));
      progress(`por bench: ${engines}/${attempts}/${crashes} round ${r + 1} of ${rounds} done`);
    }
    const best = (xs: Timed[]): Timed => xs.reduce((a, x) => (x.cpuSeconds < a.cpuSeconds ? x : a));
    const [sym, both, alone] = runs.map(best);
    log(`| ${engines} | ${attempts} | ${crashes} | ${rounds} | ${fmt(sym.states)} | ${fmt(sym.transitions)} | ${sym.cpuSeconds.toFixed(2)} | ${fmt(both.states)} | ${fmt(both.transitions)} | ${fmt(both.reduced)} | ${both.cpuSeconds.toFixed(2)} | ${fmt(alone.states)} | ${alone.complete} | ${alone.cpuSeconds.toFixed(2)} | **${(sym.states / both.states).toFixed(3)}x** |`);
    rows.push({ engines, sym, both });
  }
  log('');
  if (rows.length > 0) {
    log(porSummary(rows));
    log('');
  }
}

/** One world's symmetry-alone and symmetry-and-POR runs. */
export interface PorRow {
  engines: number;
  sym: Timed;
  both: Timed;
}

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;
const span = (xs: readonly number[], digits: number, unit = ''): string => {
  const lo = Math.min(...xs).toFixed(digits);
  const hi = Math.max(...xs).toFixed(digits);
  return lo === hi ? `${lo}${unit}` : `${lo}${unit} to ${hi}${unit}`;
};

/** What the reduction adds on top of symmetry in these rows, in a sentence (the figures are the rows'). */
export function porSummary(rows: readonly PorRow[]): string {
  const fewer = rows.map((r) => 1 - r.both.states / r.sym.states);
  const byEngines = rows.map((r, i) => `${percent(fewer[i])} at ${r.engines} engine${r.engines === 1 ? '' : 's'}`).join(', ');
  const cpu = rows.map((r) => r.both.cpuSeconds / Math.max(r.sym.cpuSeconds, 1e-9));
  const transitions = rows.map((r) => 100 * (1 - r.both.transitions / Math.max(r.sym.transitions, 1)));
  return `What a sound reduction adds on top of symmetry here: states fewer by ${byEngines}, at ${span(cpu, 1, 'x')} the CPU; transitions fewer by ${span(transitions, 0, '%')}. docs/explore-reduction.md says why an ample set is rare in this model (every engine step reads the id's record, claim and live file, which the other engines and the producer may write), so \`--por\` stays off by default.`;
}

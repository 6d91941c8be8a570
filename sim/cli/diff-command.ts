/**
 * `outbox-sim diff OLD NEW`: both rule sets run on the same worlds with the
 * same choices; a breadth-first search of the pair finds the shortest run
 * whose observable outcomes differ (what is reported delivered, what the
 * broker holds, what is parked or quarantined). Prints both sides step by
 * step and writes both traces. Exit 0 when no difference is found within
 * the bound, 1 when one is, 2 on bad input.
 */
import { countText } from '../count-text.ts';
import { steppersFor } from '../check.ts';
import { explore } from '../core/explore.ts';
import { productSystem } from '../core/product.ts';
import { simulateEvents } from '../core/simulate.ts';
import { exploreOptions } from '../outbox/explore-options.ts';
import { outboxMatchKey } from '../outbox/from-trace.ts';
import { ANSWERS_SAME_AS, answerInWorld } from '../outbox/events/broker.ts';
import { outboxSystem } from '../outbox/outbox-system.ts';
import { outcomeDifference, outcomesOf } from '../outbox/observe.ts';
import { outboxHeader, traceSteps } from '../outbox/record-trace.ts';
import type { World } from '../outbox/world.ts';
import { writeTrace } from '../trace-format.ts';
import { canonicalJson } from '../core/canonical.ts';
import { replayCommand, rulesPair } from './check-command.ts';
import { probeRuleFiles } from '../rules-state-probe.ts';
import { sizesOf, type ExploreFlags } from './explore-command.ts';
import { EXIT_PARTIAL } from './exit-codes.ts';
import { intFlag } from './errors.ts';
import type { Io } from './io.ts';
import { terminalText } from '../terminal-text.ts';
import { checkOutputFolder } from './output-place.ts';
import type { Outcome } from './outcome.ts';

function outcomeLine(w: World): string {
  const o = outcomesOf(w);
  const part = (name: string, m: Record<string, string>) => `${name} ${Object.entries(m).map(([k, v]) => `${k}=${v}`).join(',') || '-'}`;
  return [part('reported', o.reported), part('DELIVERED', o.delivered), part('broker', o.broker), part('parked', o.parked), `quarantined ${o.quarantined.join(',') || '-'}`].join('; ');
}

/** Default bound on the paired states searched. */
export const DIFF_STATES_DEFAULT = 500_000;

/** One side of a difference: its rule set and the trace written for it. */
export interface DiffSide {
  rules: string;
  trace: string;
  path: string;
}

/** What `diff --json` prints: no difference within the bound, or the shortest run with one. */
export type DiffResult =
  | { differ: false; states: number; complete: boolean }
  | { differ: true; steps: number; difference: string; old: DiffSide; new: DiffSide };

export async function diffCommand(oldSpec: string, newSpec: string, flags: ExploreFlags, io: Io): Promise<number> {
  return (await runDiff(oldSpec, newSpec, flags, io)).code;
}

/** The whole of `diff`: the CLI's command and the library's `diff` (sim/api/) both run it. */
export async function runDiff(oldSpec: string, newSpec: string, flags: ExploreFlags, io: Io): Promise<Outcome<DiffResult>> {
  const oldPair = await rulesPair(oldSpec, undefined);
  const newPair = await rulesPair(newSpec, undefined);
  await probeRuleFiles([...oldPair.loaded, ...newPair.loaded]);
  const sizes = sizesOf(flags, false);
  const statesMax = intFlag('--max-states', flags.maxStates, DIFF_STATES_DEFAULT, 1, 100_000_000);
  const options = exploreOptions(sizes);
  const outDir = flags.out ?? 'traces/found';
  checkOutputFolder('--out', outDir);
  // An answer one side tells apart from another (ok:false from a 400) is an outside action both must meet.
  const apart = [...ANSWERS_SAME_AS.keys()].some((a) => answerInWorld(a, { rules: oldPair.rules }) || answerInWorld(a, { rules: newPair.rules }));
  const left = outboxSystem(options, { rules: oldPair.rules, ...(apart ? { answersApart: true as const } : {}) }, steppersFor(oldPair.rules, null));
  const right = outboxSystem(options, { rules: newPair.rules, ...(apart ? { answersApart: true as const } : {}) }, steppersFor(newPair.rules, null));
  const product = productSystem(left, right, outboxMatchKey, outcomeDifference);
  const r = explore(product, { statesMax });
  const found = r.violations[0];
  if (found === undefined) {
    const line = `no observable difference between ${terminalText(oldPair.rules.name)} and ${terminalText(newPair.rules.name)} in ${countText(r.states)} paired states${r.complete ? ' (the whole bounded space)' : ` (stopped at --max-states ${statesMax}: bound reached, nothing found, not a proof; exit ${EXIT_PARTIAL})`}`;
    const result: DiffResult = { differ: false, states: r.states, complete: r.complete };
    if (flags.json) io.out(JSON.stringify(result));
    else io.out(line);
    // A search cut by its bound proves nothing about the states beyond it: not the exit of a proof.
    return { code: r.complete ? 0 : EXIT_PARTIAL, result };
  }
  const write = (pair: typeof oldPair, events: (typeof found.events)[number]['left'][]) => {
    const system = pair === oldPair ? left : right;
    const sim = simulateEvents(system, events);
    const steps = traceSteps(sim.initial, sim.steps);
    const header = outboxHeader(pair, 0, options, sim.violation, 'diff', steps.length, null);
    return { ...writeTrace(outDir, header, steps), sim };
  };
  const oldSide = write(oldPair, found.events.map((e) => e.left));
  const newSide = write(newPair, found.events.map((e) => e.right));
  const result: DiffResult = {
    differ: true,
    steps: found.events.length,
    difference: found.violation.detail,
    old: { rules: oldPair.rules.name, trace: oldSide.trace.id, path: oldSide.path },
    new: { rules: newPair.rules.name, trace: newSide.trace.id, path: newSide.path },
  };
  if (flags.json) {
    io.out(JSON.stringify(result));
    return { code: 1, result };
  }
  io.out(`outbox-sim diff: ${terminalText(oldPair.rules.name)} (old) against ${terminalText(newPair.rules.name)} (new): outcomes differ after ${found.events.length} steps`);
  io.out(`  ${terminalText(found.violation.detail)}`);
  io.out('');
  let prevOld = '';
  let prevNew = '';
  found.events.forEach((e, i) => {
    const o = oldSide.sim.steps[i].state;
    const n = newSide.sim.steps[i].state;
    const lo = outcomeLine(o);
    const ln = outcomeLine(n);
    const same = canonicalJson(o.engines.map((x) => x.state)) === canonicalJson(n.engines.map((x) => x.state));
    io.out(`${String(i + 1).padStart(3)}. ${terminalText(left.label(e.left))}${same ? '' : `   [old: ${o.engines.map((x) => `e${x.pid} ${x.state}`).join(', ')} | new: ${n.engines.map((x) => `e${x.pid} ${x.state}`).join(', ')}]`}`);
    if (lo !== prevOld || ln !== prevNew) {
      io.out(`       old: ${terminalText(lo)}`);
      io.out(`       new: ${terminalText(ln)}`);
    }
    prevOld = lo;
    prevNew = ln;
  });
  io.out('');
  io.out(`old trace ${oldSide.trace.id}: ${terminalText(oldSide.path)}  (${terminalText(replayCommand(oldSide.path, oldPair))})`);
  io.out(`new trace ${newSide.trace.id}: ${terminalText(newSide.path)}  (${terminalText(replayCommand(newSide.path, newPair))})`);
  return { code: 1, result };
}

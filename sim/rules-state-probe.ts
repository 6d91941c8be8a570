/**
 * Whether a rule file keeps state between decision calls (a module-level
 * `Set` of the ids it parked, a counter, a cache that changes answers). The
 * contract says a decision answers from its arguments alone (docs/rules.md,
 * 'Contract for every decision'), and the checker relies on it: a search
 * derives a step once and replays it, seeds and worlds run one after
 * another in one module, and a crash or a restart of an engine does not
 * reset a module-level variable as it resets a process in production. A
 * rule set that breaks it gives verdicts about another system, clean ones
 * included, and counterexamples that do not replay.
 *
 * The probe: two fresh copies of the rule file (`freshCopy`) run the same
 * seeds, one in order and one in reverse, each seed after others have run
 * in that copy. A rule set that answers from its arguments runs every seed
 * the same in both; one whose answers depend on what earlier runs left in
 * its module runs some seed differently, and the command stops with one line
 * (exit 2) naming the seed and both runs. A state no probe seed reaches goes
 * unseen: the probe is evidence, not a proof.
 *
 * Once per code: the loader never frees a module it imported, so a copy is
 * memory for the life of the process. The probe's verdict, and the copy the
 * witnesses of a check run in, are kept by the bundle (named by the content
 * of the file and of every file it imports): a process that checks one rule
 * file many times (a test suite calling the library) probes it once and
 * makes three copies in all, not three per call (an audit: 300 checks grew
 * the heap from 14.5 to 38.8 MiB). An edited file is new code: probed, and
 * copied, afresh (check --watch).
 */
import { BOUNDS_DEFAULT, runShard, type CheckPlan } from './check.ts';
import type { RuleSet } from '../model/rules.ts';
import { freshCopy, type LoadedRules, type LoadedSpecs } from './rules-loader.ts';
import { ruleSetLabel } from './rules-guard.ts';
import { UsageError } from './usage-error.ts';
import { watchingIn } from './watch.ts';

/**
 * Seeds the probe runs in each copy: the swarm's first seventeen (one covering block), which
 * between them take every pair of its feature values (covering arrays).
 * Measured on a command on a rule file (`check --seed 3`, 5 alternated
 * rounds against the build before): 32 seeds took it from 0.57-0.61 s to
 * 0.71-0.73 s, 16 to 0.66-0.69 s.
 */
export const STATE_PROBE_SEEDS = 17;

/** Where a decision that hangs in the probe was, as the watchdog names it (watch-lines.ts). */
const PROBE_PLACE = `the probe for kept state before the command's own run (the default swarm's seeds 1-${STATE_PROBE_SEEDS})`;

/** Where a decision that hangs in the re-run of a check's witnessed seeds was. */
const WITNESS_PLACE = "the re-run of the check's witnessed seeds in a fresh copy of the file, after its own run";

/** What a plan of one seed needs beside its rule sets (the check's own, or the probe's default). */
type SeedPlan = Omit<CheckPlan, 'rules' | 'oldRules' | 'seedStart' | 'seeds'>;

const PROBE_PLAN: SeedPlan = { broker: null, bounds: BOUNDS_DEFAULT };

/**
 * Each seed's witness (sim/check.ts, `witnessOf`) in one copy, the seeds run
 * in `order`; undefined where a decision broke its contract (the run left
 * none).
 */
function witnessesIn(rules: RuleSet, oldRules: RuleSet | null, order: readonly number[], plan: SeedPlan = PROBE_PLAN): Map<number, string | undefined> {
  const out = new Map<number, string | undefined>();
  // Without the threshold probe (check.ts, CheckPlan.thresholds): each copy's seeds are the first runs in it.
  for (const seed of order) out.set(seed, runShard({ ...plan, rules, oldRules, seedStart: seed, seeds: 1, stopOnViolation: false, witnessEvery: 1, thresholds: false }, seed, seed + 1).witnesses?.[seed]);
  return out;
}

/** A witness as a person reads it: steps, how the run ended, what it violated. */
function read(witness: string | undefined): string {
  return witness === undefined ? 'a decision broke its contract' : (witness.split('#')[0] ?? witness);
}

/** A seed that ran differently in the two copies, and how it ran in each. */
export interface StateFinding {
  seed: number;
  inOrder: string;
  reversed: string;
}

/** The lowest seed whose run differs between two copies of one rule set (one ran the seeds in order, one in reverse), or null. */
export function probeState(copies: readonly [RuleSet, RuleSet], seeds = STATE_PROBE_SEEDS): StateFinding | null {
  const order = Array.from({ length: seeds }, (_, i) => i + 1);
  const a = witnessesIn(copies[0], null, order);
  const b = witnessesIn(copies[1], null, [...order].reverse());
  for (const seed of order) if (a.get(seed) !== b.get(seed)) return { seed, inOrder: read(a.get(seed)), reversed: read(b.get(seed)) };
  return null;
}

/** What every refusal here asks of the rule file. */
const KEEP_NO_STATE = 'keep no state between calls (a module-level variable outlives the crashes and restarts the checker simulates, and carries over to the next seed and world), and no randomness or clock';

/** The rule files among what a command loaded (catalog rule sets and values have no file). */
function filesOf(loaded: LoadedSpecs): LoadedRules[] {
  return loaded.flatMap(([, l]) => (l?.pin !== undefined ? [l] : []));
}

/** The rule files a line names, as `rule set "x" (./x.ts) and "y" (./y.ts)` reads them. */
function namedFiles(files: readonly LoadedRules[]): string {
  return files.map((l) => ruleSetLabel(l.rules.name, l.origin.source)).join(' and ');
}

/** The one line every refusal here ends a command with, naming the rule files and what ran otherwise. */
function refusal(files: readonly LoadedRules[], what: string): UsageError {
  return new UsageError(`rule set ${namedFiles(files)}: its decisions do not answer from their arguments alone: ${what}; ${KEEP_NO_STATE}`);
}

/**
 * The one line for a run that did not repeat in the same copy of the rule
 * files (a violating seed run again to record its trace, a counterexample
 * run again to write it), after the probe before the run saw no state kept
 * in two fresh copies: a rule file that keeps state does that, and so did
 * a fault of the checker's own (a busy run whose trace was re-run judging
 * fewer properties: docs/rules.md, 'Contract for every decision'). The
 * line says both, instead of blaming the file alone.
 */
function unrepeated(files: readonly LoadedRules[], what: string): UsageError {
  return new UsageError(
    `rule set ${namedFiles(files)}: a run did not repeat: ${what}. Either its decisions do not answer from their arguments alone (${KEEP_NO_STATE}), or the checker is at fault: the probe of seeds 1-${STATE_PROBE_SEEDS} in two fresh copies saw no state kept; if the file keeps none, report this line with the command`,
  );
}

/**
 * Probes a loaded rule file (nothing for a catalog rule set or a value):
 * throws a {@link UsageError} of one line when a seed ran differently in
 * its two copies.
 */
export async function refuseStatefulRules(spec: string, loaded: LoadedRules): Promise<void> {
  const pin = loaded.pin;
  if (pin === undefined) return;
  const found = await onceFor(findings, pin.bundle, async () => {
    const first = await freshCopy(spec, loaded);
    const second = await freshCopy(spec, loaded);
    // A decision that hangs here is named in the probe, not at a seed of the command's own run (which may run none).
    return first === null || second === null ? null : repeatedOrRefused([[spec, loaded]], () => watchingIn(PROBE_PLACE, () => probeState([first, second])));
  });
  if (found === null) return;
  throw refusal([loaded], `seed ${found.seed} ran differently in two fresh copies of the file, each after other seeds had run in it (${found.inOrder}; then ${found.reversed})`);
}

/** The probe's finding by bundle (see the head of this file); a probe that failed is not kept, and runs again. */
const findings = new Map<string, Promise<StateFinding | null>>();

/** The copy that a check's witnesses run again in, by bundle: fresh for the first check of that code, then reused. */
const witnessCopies = new Map<string, Promise<RuleSet | null>>();

/** `make()`'s promise, made once per key while it does not fail. */
function onceFor<T>(kept: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let made = kept.get(key);
  if (made === undefined) {
    made = make();
    kept.set(key, made);
    made.catch(() => kept.delete(key));
  }
  return made;
}

/** The copy of a loaded rule file that {@link refuseUnlikeWitnesses} runs seeds in (null for a catalog rule set or a value). */
function witnessCopy(spec: string, loaded: LoadedRules): Promise<RuleSet | null> {
  const pin = loaded.pin;
  return pin === undefined ? Promise.resolve(null) : onceFor(witnessCopies, pin.bundle, () => freshCopy(spec, loaded));
}

/** Refuses, in one line, a rule file among `loaded` whose decisions keep state between calls, before the command runs it. */
export async function probeRuleFiles(loaded: LoadedSpecs): Promise<void> {
  for (const [spec, l] of loaded) if (l !== null) await refuseStatefulRules(spec, l);
}

/** Seeds of a check that leave a witness of their run: about this many, spread over its seeds. */
export const WITNESSES = 32;

/** The `witnessEvery` of a check of seeds [from, to): every seed of a short check, about {@link WITNESSES} of a long one. */
export function witnessEvery(from: number, to: number): number {
  return Math.max(1, Math.floor((to - from) / WITNESSES));
}

/**
 * After a check of rule files: its witnessed seeds run again, last first, in
 * a copy of each file (fresh for the first check of that code in this
 * process, the same copy for later ones), and a seed that runs differently from its run
 * in the check (where earlier seeds, and for a thread other seeds, had run
 * in the same module) is refused as {@link refuseStatefulRules} refuses,
 * naming both runs. It covers what the probe before the check misses: a
 * decision on a path its seventeen seeds seldom take (a 503's classification,
 * say), and state that builds up over hundreds of seeds. Nothing for a
 * check without a rule file or without witnesses.
 */
export async function refuseUnlikeWitnesses(loaded: LoadedSpecs, plan: SeedPlan, witnesses: Readonly<Record<string, string>> | undefined, catalogOld: RuleSet | null = null): Promise<void> {
  const files = filesOf(loaded);
  if (files.length === 0 || witnesses === undefined) return;
  const copies: (RuleSet | null)[] = [];
  for (const [spec, l] of loaded) copies.push(l === null ? null : ((await witnessCopy(spec, l)) ?? l.rules));
  // An old rule set of the catalog (the upgrade by default) has no file to copy: the seeds that drew skew ran it as it is.
  const [rules, oldRules] = [copies[0], copies[1] ?? (loaded.length > 1 ? catalogOld : null)];
  if (rules === null) return;
  // In reverse: a short check witnesses every seed, and a copy that ran them in the check's order would build up the same state.
  const seeds = Object.keys(witnesses).map(Number).sort((a, b) => b - a);
  for (const [seed, again] of repeatedOrRefused(loaded, () => watchingIn(WITNESS_PLACE, () => witnessesIn(rules, oldRules, seeds, plan)))) {
    const was = witnesses[seed];
    if (again === was) continue;
    const alike = read(again) === read(was) ? ': as long, ended alike, other faults or actions on the way' : '';
    throw refusal(files, `seed ${seed} ran differently in the check (${read(was)}) and again in a fresh copy of the file (${read(again)})${alike}`);
  }
}

/**
 * `probe()`, whose seeds may themselves not repeat: a violating seed is run
 * again to record its trace, and a decision that draws at random may then
 * run otherwise (seen once in some 800 probes of a rule file whose claim
 * decision drew numbers at random). That is the very thing probed for, refused in
 * the same one line ({@link unrepeatedRun}), not an internal error.
 */
function repeatedOrRefused<T>(loaded: LoadedSpecs, probe: () => T): T {
  try {
    return probe();
  } catch (err) {
    throw unrepeatedRun(loaded, err, true) ?? err;
  }
}

/**
 * What a check says when a run did not repeat itself (a violating seed run
 * again to record its trace, or a counterexample run again to write it,
 * came out otherwise: sim/check.ts, sim/outbox/record-trace.ts) and a rule
 * file was among its rule sets: the one line of the refusals above, instead
 * of an internal error. Null for any other error, or without a rule file
 * (then it is the checker's own fault, and reported as one).
 */
export function unrepeatedRun(loaded: LoadedSpecs, err: unknown, inProbe = false): UsageError | null {
  const files = filesOf(loaded);
  if (files.length === 0 || !(err instanceof Error)) return null;
  const seed = /seed (\d+) ran differently when run again to record its trace \((\d+) steps against (\d+)\)/.exec(err.message);
  const kept = /the counterexample for (\S+) no longer violates when re-run/.exec(err.message);
  // Long life and deep cycles run a seed's cycle again in a world of raised budgets and confirm what they found there.
  const life = /seed (\d+)'s long life did not break (\S+) again in its own world/.exec(err.message);
  // In the probe's own runs the file is what is being probed; in the command's run, the probe has passed already.
  const refuse = inProbe ? refusal : unrepeated;
  if (life !== null) return refuse(files, `seed ${life[1]}'s cycle, sent round again, broke ${life[2]} and did not when run again to record its trace`);
  if (seed !== null) return refuse(files, `seed ${seed[1]} ran differently when run again to record its trace (${seed[3]} steps, then ${seed[2]}${seed[2] === seed[3] ? ' ending otherwise' : ''})`);
  if (kept !== null) return refuse(files, `its counterexample of ${kept[1]} no longer violated when run again to write its trace`);
  return null;
}
